"""Burraco rules options and the action notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import CARD_COUNT, format_card
from rummykit.games.burraco import (
    GAME,
    Discard,
    DrawStock,
    Extend,
    Meld,
    Rules,
    TakePile,
    format_action,
    parse_action,
)
from rummykit.games.core import NotationError, rules_from_json, rules_to_json


def test_rules_defaults_match_the_rule_book() -> None:
    rules = Rules()
    assert (rules.jokers, rules.one_set_per_rank, rules.mode) == (2, True, "quick")
    assert (rules.target, rules.stalemate_turns) == (2005, 200)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": 3}, "jokers"),
        ({"jokers": True}, "jokers"),
        ({"mode": "marathon"}, "mode"),
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"stalemate_turns": 0}, "stalemate_turns"),
        ({"one_set_per_rank": 1}, "one_set_per_rank"),
    ],
)
def test_rules_refuse_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(**options)  # type: ignore[arg-type]


def test_rules_are_keyword_only_and_round_trip_json() -> None:
    with pytest.raises(TypeError):
        Rules(4)  # type: ignore[call-arg]
    rules = Rules(jokers=4, one_set_per_rank=False, mode="target", target=505)
    assert rules_from_json(Rules, rules_to_json(rules)) == rules
    with pytest.raises(ValueError, match="unknown rule option"):
        rules_from_json(Rules, {"decks": 3})


def test_game_info() -> None:
    assert GAME.name == "burraco" and GAME.player_counts == (2, 4)
    assert GAME.rules_type is Rules
    assert GAME.parse_action("draw") == DrawStock()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DrawStock()),
        ("TAKE", TakePile()),
        ("meld 3h 4h 5h", Meld((28, 29, 30))),
        ("meld 10h, jh, QH", Meld((35, 36, 37))),
        ("extend 2 5h", Extend(2, (30,))),
        ("extend 0 Jk 2c", Extend(0, (52, 1))),
        ("discard qh", Discard(37)),
    ],
)
def test_parse_known_actions(text: str, action: object) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly",
        "draw 3h",
        "take Qh",
        "meld",
        "meld 3h 1h",
        "extend 3h",
        "extend x 3h",
        "extend 2",
        "extend -1 3h",
        "discard",
        "discard 3h 4h",
        "discard zz",
        "extend ² 3h",
    ],
)
def test_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_parse_refuses_non_text() -> None:
    with pytest.raises(NotationError):
        parse_action(3)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        format_action("draw")  # type: ignore[arg-type]


card_codes = st.integers(min_value=0, max_value=CARD_COUNT - 1)
actions = st.one_of(
    st.just(DrawStock()),
    st.just(TakePile()),
    st.builds(Discard, card_codes),
    st.builds(Meld, st.lists(card_codes, min_size=1, max_size=14).map(tuple)),
    st.builds(
        Extend,
        st.integers(min_value=0, max_value=60),
        st.lists(card_codes, min_size=1, max_size=5).map(tuple),
    ),
)


@given(actions)
def test_notation_round_trips(action: object) -> None:
    text = format_action(action)  # type: ignore[arg-type]
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert text == text.strip() and "  " not in text


@given(card_codes)
def test_discard_text_names_the_card(card: int) -> None:
    assert format_action(Discard(card)) == f"discard {format_card(card)}"
