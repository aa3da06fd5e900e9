"""What each player knows the stock may hold after the reshuffle (RULES.md 2.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.cards import format_card
from rummykit.games.three_thirteen import Discard, DrawStock, Observation, State
from rummykit.games.three_thirteen.events import StockReshuffled
from tests.three_thirteen.helpers import cards, only, stacked
from tests.three_thirteen.test_determinize_stats import after_a_reshuffle


def reshuffled_state() -> State:
    state = stacked(
        hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, stock="Jc", discard_pile="5h 6h", seed=4
    )
    assert state.observation(0).stock_may_hold is None
    state.apply(DrawStock())
    only(state.apply(Discard(cards("Kh")[0])), StockReshuffled)
    return state


def test_everyone_knows_what_was_reshuffled_and_each_what_they_drew_since() -> None:
    state = reshuffled_state()
    stock = sorted(state.locations()["stock"])
    assert state.observation(0).stock_may_hold == state.observation(1).stock_may_hold
    assert list(state.observation(1).stock_may_hold or ()) == stock
    drawn = state.locations()["stock"][-1]
    state.apply(DrawStock())  # player 1
    mine = list(stock)
    mine.remove(drawn)
    assert list(state.observation(1).stock_may_hold or ()) == mine
    assert list(state.observation(0).stock_may_hold or ()) == stock
    state.apply(Discard(drawn))
    assert list(state.observation(1).stock_may_hold or ()) == mine  # a discard is public
    twin = state.clone()
    twin.apply(DrawStock())
    assert list(state.observation(0).stock_may_hold or ()) == stock


def test_observations_say_it_exactly_when_the_stock_was_reshuffled() -> None:
    data = reshuffled_state().observation(0).to_json()
    assert Observation.from_json(data).stock_may_hold is not None
    with pytest.raises(ValueError, match="exactly when it was reshuffled"):
        Observation.from_json({**data, "stock_may_hold": None})
    with pytest.raises(ValueError, match="exactly when it was reshuffled"):
        Observation.from_json({**data, "reshuffled": False})
    with pytest.raises(ValueError, match="more cards than it may hold"):
        Observation.from_json({**data, "stock_may_hold": data["stock_may_hold"][1:]})
    with pytest.raises(ValueError, match="what the stock may hold"):
        Observation.from_json({**data, "stock_may_hold": ["Zz"]})


def test_from_parts_checks_what_the_stock_may_hold() -> None:
    base = {"hands": ["2c 7d Kh", "4s 9s Qd"], "round_number": 1, "stock_top": "Jc"}
    with pytest.raises(ValueError, match="before the reshuffle"):
        stacked(**base, stock_may_hold=[[], []])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="knows it cannot"):
        stacked(**base, reshuffled=True, stock_may_hold=[cards("Jc"), cards("Jc")])  # type: ignore[arg-type]
    state = stacked(**base, reshuffled=True)  # type: ignore[arg-type]
    assert [format_card(c) for c in state.observation(0).stock_may_hold or ()] == [
        format_card(c) for c in sorted(state.locations()["stock"])
    ]


def test_shuffling_what_a_player_cannot_see_keeps_to_what_they_know() -> None:
    state = after_a_reshuffle(players=3, round_number=5, seed=3, draws_after=9)
    for player in range(3):
        seen = state.observation(player)
        assert seen.stock_may_hold is not None
        for seed in range(20):
            shuffled = state.clone()
            shuffled.shuffle_hidden(player, seed)
            assert shuffled.observation(player) == seen
            assert not Counter(shuffled.locations()["stock"]) - Counter(seen.stock_may_hold)
