"""Swiss pairing's properties, by Hypothesis: everyone placed once, byes spread out,
score order kept, and no repeat meeting while a pairing without one exists (checked
against a brute-force search)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.pairings.standings import TableResult
from rummykit.pairings.swiss import PairingError, pair_round
from rummykit.sim.event import run_swiss

Case = tuple[list[int], int, dict[int, float], set[frozenset[int]], dict[int, int]]


@st.composite
def rounds_to_pair(draw: st.DrawFn) -> Case:
    """Standings (by points, ties in any order), points, meetings and byes so far."""
    table_size = draw(st.integers(2, 4))
    players = draw(st.integers(table_size, 9))
    points = {p: draw(st.integers(0, 6)) / 2 for p in range(players)}
    shuffled = draw(st.permutations(list(range(players))))
    standings = sorted(shuffled, key=lambda p: -points[p])
    pairs = [frozenset(pair) for pair in combinations(range(players), 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=len(pairs))))
    byes = {p: draw(st.integers(0, 2)) for p in range(players)}
    return standings, table_size, points, met, byes


def _repeats(table: Sequence[int], met: set[frozenset[int]]) -> int:
    return sum(1 for pair in combinations(table, 2) if frozenset(pair) in met)


def _fair_bye_sets(players: Sequence[int], count: int, byes: dict[int, int]) -> Iterator[set[int]]:
    """Every set of ``count`` players that sit out with nobody seated having fewer byes."""
    for chosen in combinations(players, count):
        seated = [p for p in players if p not in chosen]
        if not seated or not chosen or max(byes[c] for c in chosen) <= min(byes[s] for s in seated):
            yield set(chosen)


def _repeat_free_exists(free: list[int], size: int, met: set[frozenset[int]]) -> bool:
    if not free:
        return True
    head, rest = free[0], free[1:]
    for mates in combinations(rest, size - 1):
        table = (head, *mates)
        others = [p for p in rest if p not in mates]
        if _repeats(table, met) == 0 and _repeat_free_exists(others, size, met):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(rounds_to_pair())
def test_every_player_sits_once_and_the_byes_go_to_those_with_fewest(
    case: Case,
) -> None:
    standings, size, points, met, byes = case
    pairing = pair_round(standings, table_size=size, points=points, met=met, byes=byes)
    seated = [p for table in pairing.tables for p in table]
    assert sorted(seated + list(pairing.byes)) == sorted(standings)
    assert all(len(table) == size for table in pairing.tables)
    assert len(pairing.byes) == len(standings) % size
    if pairing.byes:
        assert max(byes[b] for b in pairing.byes) <= min(byes[s] for s in seated)
    assert pairing.repeats == sum(_repeats(table, met) for table in pairing.tables)


@settings(max_examples=300, deadline=None)
@given(rounds_to_pair())
def test_no_repeat_meeting_while_a_pairing_without_one_exists(
    case: Case,
) -> None:
    standings, size, points, met, byes = case
    pairing = pair_round(standings, table_size=size, points=points, met=met, byes=byes)
    avoidable = any(
        _repeat_free_exists([p for p in standings if p not in out], size, met)
        for out in _fair_bye_sets(standings, len(standings) % size, byes)
    )
    assert (pairing.repeats == 0) == avoidable


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(st.just(k), st.integers(1, 4))), st.data())
def test_a_level_group_meets_part_against_part(
    size_tables: tuple[int, int], data: st.DataObject
) -> None:
    size, tables = size_tables
    standings = data.draw(st.permutations(list(range(size * tables))))
    pairing = pair_round(standings, table_size=size)
    # the Dutch system's split: table j seats the j-th player of each part of the group
    assert pairing.tables == tuple(
        tuple(standings[j + part * tables] for part in range(size)) for j in range(tables)
    )


@settings(max_examples=300, deadline=None)
@given(rounds_to_pair())
def test_without_history_only_the_players_a_group_cannot_seat_float_down(case: Case) -> None:
    standings, size, points, _, byes = case
    pairing = pair_round(standings, table_size=size, points=points, byes=byes)
    seated = {p for table in pairing.tables for p in table}
    groups = {points[p] for p in seated}
    mixed = [table for table in pairing.tables if len({points[p] for p in table}) > 1]
    assert len(mixed) <= len(groups) - 1
    # the tables come in standings order and each is in standings order
    place = {p: i for i, p in enumerate(standings)}
    heads = [place[table[0]] for table in pairing.tables]
    assert heads == sorted(heads)
    assert all(list(table) == sorted(table, key=place.__getitem__) for table in pairing.tables)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 3).flatmap(lambda k: st.tuples(st.just(k), st.integers(k + 1, 11))),
    st.integers(0, 2**32),
)
def test_a_whole_event_gives_nobody_a_second_bye_while_others_have_none(
    size_players: tuple[int, int], seed: int
) -> None:
    size, players = size_players
    per_round = players % size
    rounds = players // per_round if per_round else 4
    rng = random.Random(seed)

    def play(number: int, tables: Sequence[tuple[int, ...]]) -> list[TableResult]:
        return [TableResult(t, tuple(float(rng.randrange(3)) for _ in t)) for t in tables]

    event = run_swiss(
        game="burraco" if size == 2 else "three-thirteen",
        players=players,
        rounds=min(rounds, 6),
        table_size=size,
        play=play,
    )
    byes = [line.byes for line in event.standings]
    assert max(byes) <= 1
    assert sum(byes) == per_round * len(event.rounds)


def test_sixteen_players_five_rounds_never_meet_twice() -> None:
    def play(number: int, tables: Sequence[tuple[int, ...]]) -> list[TableResult]:
        # the better seed wins every table: the strongest score groups form at once
        return [TableResult(t, tuple(-float(p) for p in t)) for t in tables]

    event = run_swiss(game="burraco", players=16, rounds=5, table_size=2, play=play)
    assert event.repeats == 0
    assert event.standings[0].player == 0
    assert event.standings[0].points == 5


def test_bad_rounds_are_refused() -> None:
    with pytest.raises(PairingError):
        pair_round([0, 1], table_size=3)
    with pytest.raises(PairingError):
        pair_round([0, 0, 1], table_size=2)
    with pytest.raises(PairingError):
        pair_round([0, 1], table_size=1)
