"""Single elimination: the bracket keeps the best seeds apart, byes go to the top seeds,
and an event ends with one champion and every player placed."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.pairings.knockout import BracketError, bracket_order, first_round, winner_of
from rummykit.pairings.standings import TableResult
from rummykit.sim.event import EventError, run_knockout


@pytest.mark.parametrize(("size", "rounds"), [(2, 1), (2, 4), (3, 2), (4, 2)])
def test_the_best_seeds_meet_as_late_as_possible(size: int, rounds: int) -> None:
    slots = size**rounds
    order = bracket_order(slots, size)
    assert sorted(order) == list(range(slots))
    # the top `size` seeds are in different parts of the first split of the bracket
    part = slots // size
    assert sorted(order.index(seed) // part for seed in range(size)) == list(range(size))


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), st.integers(2, 40))))
def test_first_round_seats_everyone_once_and_byes_go_to_the_top_seeds(
    size_players: tuple[int, int],
) -> None:
    size, players = size_players
    tables = first_round(players, size)
    seated = sorted(p for table in tables for p in table)
    assert seated == list(range(players))
    alone = sorted(table[0] for table in tables if len(table) == 1)
    assert alone == list(range(len(alone)))


def _better_seed_wins(number: int, tables: Sequence[tuple[int, ...]]) -> list[TableResult]:
    return [TableResult(t, tuple(-float(p) for p in t)) for t in tables]


@pytest.mark.parametrize(("size", "players"), [(2, 16), (2, 7), (3, 10), (4, 5)])
def test_an_event_ends_with_the_top_seed_when_the_better_seed_always_wins(
    size: int, players: int
) -> None:
    game = "burraco" if size == 2 else "three-thirteen"

    def play(number: int, tables: Sequence[tuple[int, ...]]) -> list[TableResult]:
        # Three-Thirteen: fewer points is better
        sign = 1 if game == "three-thirteen" else -1
        return [TableResult(t, tuple(sign * float(p) for p in t)) for t in tables]

    event = run_knockout(game=game, players=players, table_size=size, play=play)
    assert event.champion == 0
    assert event.standings[0].player == 0
    assert sorted(line.player for line in event.standings) == list(range(players))
    assert [line.place for line in event.standings] == list(range(1, players + 1))
    won = [line.rounds_won for line in event.standings]
    assert won == sorted(won, reverse=True)
    assert len(event.rounds[-1].tables) == 1


def test_a_tie_for_first_sends_the_better_seed_through() -> None:
    assert winner_of("burraco", TableResult((5, 2), (400.0, 400.0))) == 2
    assert winner_of("three-thirteen", TableResult((5, 2, 7), (30.0, 50.0, 30.0))) == 5


def test_bad_events_are_refused() -> None:
    with pytest.raises(BracketError):
        first_round(1, 2)
    with pytest.raises(BracketError):
        first_round(4, 1)
    with pytest.raises(EventError):
        run_knockout(game="burraco", players=1, table_size=2, play=_better_seed_wins)
