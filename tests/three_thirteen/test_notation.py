"""Action notation: draw, take, discard <card>, out <card>."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import CARD_COUNT, format_card, parse_card
from rummykit.games.core import NotationError
from rummykit.games.three_thirteen import (
    GAME,
    Discard,
    DrawStock,
    GoOut,
    TakeDiscard,
    format_action,
    parse_action,
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DrawStock()),
        ("  DRAW ", DrawStock()),
        ("take", TakeDiscard()),
        ("Take", TakeDiscard()),
        ("discard Qh", Discard(parse_card("Qh"))),
        ("discard 10s", Discard(parse_card("Ts"))),
        ("out qh", GoOut(parse_card("Qh"))),
        ("OUT JK", GoOut(parse_card("Jk"))),
    ],
)
def test_parse(text, action):
    assert parse_action(text) == action


@given(card=st.integers(0, CARD_COUNT - 1), verb=st.sampled_from(["discard", "out"]))
def test_round_trip_every_card(card, verb):
    action = Discard(card) if verb == "discard" else GoOut(card)
    text = format_action(action)
    assert text == f"{verb} {format_card(card)}"
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action


@pytest.mark.parametrize(
    "text",
    ["", "   ", "meld 3h 4h 5h", "draw 3h", "take Qh", "discard", "discard Qh Kh", "out 1h", "Qh"],
)
def test_bad_notation(text):
    with pytest.raises(NotationError) as raised:
        parse_action(text)
    assert str(raised.value)


def test_format_refuses_what_is_not_an_action():
    with pytest.raises(NotationError):
        format_action("draw")  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        format_action(Discard(99))
    with pytest.raises(NotationError):
        parse_action(None)  # type: ignore[arg-type]


def test_game_info_uses_the_notation():
    assert GAME.parse_action("out 5c") == GoOut(parse_card("5c"))
    assert GAME.format_action(TakeDiscard()) == "take"
    assert GAME.name == "three-thirteen"
    assert GAME.player_counts == (2, 3, 4)
