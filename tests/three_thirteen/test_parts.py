"""Building states: bad inputs to ``State.new`` and ``State.from_parts`` are refused clearly."""

from __future__ import annotations

import pytest

from rummykit.games.three_thirteen import Rules, State
from rummykit.games.three_thirteen.table import TableMeld
from tests.three_thirteen.helpers import cards, stacked


def test_state_is_built_by_its_constructors_only():
    with pytest.raises(TypeError, match=r"State\.new"):
        State()


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "7", True])
def test_bad_seeds(seed):
    with pytest.raises(ValueError, match="seed"):
        State.new(Rules(), seed)


def test_rules_must_be_three_thirteen_rules():
    with pytest.raises(ValueError, match="Rules"):
        State.new({"players": 2}, 1)  # type: ignore[arg-type]


def test_players_are_checked_in_views():
    state = State.new(Rules(players=3), 1)
    for bad in (-1, 3, True, "0"):
        with pytest.raises(ValueError):
            state.observation(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            state.hand(bad)  # type: ignore[arg-type]


GOOD = {"hands": ["2c 7d Kh", "4s 9s Qd"], "round_number": 1, "discard_pile": "5h"}


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"rules": Rules(last_round=1), "round_number": 2}, "round 2"),
        ({"rules": Rules(), "round_number": 2, "hands": ["2c 7d Kh 8c", "4s 9s Qd 8d"]}, "results"),
        ({"dealer": 2}, "dealer"),
        ({"current": 2}, "no player 2"),
        ({"phase": "meld"}, "phase"),
        ({"phase": "discard"}, "should hold 4 cards"),
        ({"hands": ["2c 7d", "4s 9s Qd"]}, "should hold 3 cards"),
        ({"went_out": 0}, "holds no card"),
        ({"last_turns_remaining": 1}, "no one went out"),
        ({"known_cards": [cards("Ah"), []]}, "said taken"),
        ({"turn": -1}, "turn number"),
        ({"phase": "over"}, "results given"),
    ],
)
def test_parts_that_do_not_fit_are_refused(changes, fragment):
    options = dict(GOOD)
    options.update(changes)
    with pytest.raises(ValueError, match=fragment):
        stacked(**options)  # type: ignore[arg-type]


def test_cards_must_make_up_the_deck():
    state = stacked(**GOOD)  # type: ignore[arg-type]
    parts = {
        "rules": state.rules,
        "seed": 0,
        "round_number": 1,
        "dealer": 1,
        "hands": [cards("2c 7d Kh"), cards("4s 9s Qd")],
        "discard_pile": list(state.discard_pile),
        "current_player": 0,
        "phase": "draw",
    }
    stock = state.locations()["stock"]
    with pytest.raises(ValueError, match="make up the deck"):
        State.from_parts(stock=stock[1:], **parts)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="make up the deck"):
        State.from_parts(stock=[*stock, 52], **parts)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a card"):
        State.from_parts(stock=[*stock[1:], 99], **parts)  # type: ignore[arg-type]
    meld = TableMeld(meld_id=0, owner=1, kind="run", cards=tuple(cards("4c 5c 6c")))
    with pytest.raises(ValueError):
        State.from_parts(stock=stock, melds=[meld], **parts)  # type: ignore[arg-type]
