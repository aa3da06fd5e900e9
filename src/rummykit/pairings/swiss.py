"""Swiss pairing: tables of players with equal or near scores who have not met yet.

The players come in standings order (points first, then the tie-breaks); a *score
group* is the players level on points.  The highest-placed player still free is seated
with players of its own score group, as in the Dutch system: a group of ``g`` players
split into ``k`` parts makes tables of the first of each part, then the second of each
(for two-player tables, the top half meets the bottom half: 1-v-5, 2-v-6, ... in a
group of eight), and the players a group cannot seat float down to the next group.
When a table would seat two players who have already met, the search tries the next
candidates (nearest to those places first, then lower groups), and backtracks over
earlier tables when it must.  A repeat meeting is accepted only when no pairing
without one exists (the search then allows one repeat, then two, and so on).

When the players do not fill whole tables, the ones left over sit out the round with a
bye: those with the fewest byes so far, the lowest-placed first, so that nobody has a
second bye while someone else has none.

Pure arithmetic on player numbers: no games, no randomness, no I/O, so a server can
pair its own events with the same code.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

SEARCH_LIMIT: Final = 20_000
"""Tables tried per number of allowed repeats before allowing one more: a bound on the
backtracking search.  Events whose repeats can be avoided are paired well inside it
(64 players at two a table, 7 rounds: 10 ms); once repeats are forced (more rounds
than a field can play without them), a search cut off here may settle for a few more
repeats than the fewest possible (16 players at four a table, 8 rounds: 78 repeats in
4 s of CPU, where a bound ten times higher found 72, several times slower)."""


class PairingError(ValueError):
    """A round that cannot be paired (too few players for a table, a bad table size)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's tables (each in standings order), its byes and how many pairs of
    players at the same table had met before."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    repeats: int


class _SearchExhausted(Exception):
    pass


def pair_round(
    standings: Sequence[int],
    *,
    table_size: int,
    points: Mapping[int, float] | None = None,
    met: Collection[frozenset[int]] = frozenset(),
    byes: Mapping[int, int] | None = None,
    search_limit: int = SEARCH_LIMIT,
) -> Pairing:
    """The tables of the next round.

    ``standings`` lists the players in order, best first; ``points`` gives each one's
    points (all level when not given, as before the first round); ``met`` holds every
    pair of players that has shared a table; ``byes`` counts each player's byes so far.

    >>> pair_round([0, 1, 2, 3, 4], table_size=2).tables
    ((0, 2), (1, 3))
    >>> pair_round([0, 1, 2, 3], table_size=2, points={0: 1, 1: 1, 2: 0, 3: 0}).tables
    ((0, 1), (2, 3))
    >>> pair_round([0, 1, 2, 3, 4], table_size=2, met={frozenset({0, 2})}, byes={4: 1})
    Pairing(tables=((0, 4), (1, 2)), byes=(3,), repeats=0)
    """
    players = list(standings)
    if len(set(players)) != len(players):
        raise PairingError("a player is listed twice in the standings")
    if table_size < 2:
        raise PairingError(f"a table seats at least 2 players, not {table_size}")
    if len(players) < table_size:
        raise PairingError(f"{len(players)} players cannot fill a table of {table_size}")
    bye_count = byes or {}
    score = points or {}
    left_over = len(players) % table_size
    met_pairs = frozenset(met)
    most_repeats = len(players) // table_size * table_size * (table_size - 1) // 2
    for allowed in range(most_repeats + 1):
        budget = [search_limit]
        for sitting_out in _bye_choices(players, left_over, bye_count):
            seated = [p for p in players if p not in sitting_out]
            try:
                found = _fill(seated, table_size, score, met_pairs, allowed, budget)
            except _SearchExhausted:
                break
            if found is not None:
                tables, repeats = found
                return Pairing(tuple(tables), tuple(sorted(sitting_out)), repeats)
    raise AssertionError("a pairing with every repeat allowed always exists")


def _bye_choices(
    players: Sequence[int], count: int, byes: Mapping[int, int]
) -> Iterator[frozenset[int]]:
    """Sets of ``count`` players to sit out, best first: from the players with the
    fewest byes, the lowest-placed first (only when there are not enough of those does a
    player with one bye more take part)."""
    if count == 0:
        yield frozenset()
        return
    required: list[int] = []
    for level in sorted({byes.get(p, 0) for p in players}):
        at_level = [p for p in reversed(players) if byes.get(p, 0) == level]
        if len(required) + len(at_level) >= count:
            for chosen in combinations(at_level, count - len(required)):
                yield frozenset((*required, *chosen))
            return
        required.extend(at_level)


def _candidates(free: Sequence[int], size: int, points: Mapping[int, float]) -> list[int]:
    """The players who may sit with ``free[0]``, best first: its own score group, those
    nearest the places that split the group into ``size`` parts first, then the lower
    groups in standings order.

    >>> _candidates([10, 11, 12, 13, 14, 15], 2, {})
    [13, 14, 12, 15, 11]
    """
    head = points.get(free[0], 0.0)
    group = [p for p in free if points.get(p, 0.0) == head]
    step = max(1, len(group) // size)
    ideal = [part * step for part in range(1, size)]

    def nearness(index: int) -> tuple[int, int]:
        return (min(abs(index - place) for place in ideal), -index)

    order = sorted(range(1, len(group)), key=nearness)
    return [group[i] for i in order] + [p for p in free[1:] if p not in group]


def _fill(
    free: list[int],
    size: int,
    points: Mapping[int, float],
    met: frozenset[frozenset[int]],
    allowed: int,
    budget: list[int],
) -> tuple[list[tuple[int, ...]], int] | None:
    """Tables for the ``free`` players (in standings order) with at most ``allowed``
    repeat meetings, and the number of repeats; ``None`` when there are none."""
    if not free:
        return [], 0
    head = free[0]
    position = {player: index for index, player in enumerate(free)}
    for mates in combinations(_candidates(free, size, points), size - 1):
        budget[0] -= 1
        if budget[0] < 0:
            raise _SearchExhausted
        table = (head, *sorted(mates, key=position.__getitem__))
        repeats = sum(1 for pair in combinations(table, 2) if frozenset(pair) in met)
        if repeats > allowed:
            continue
        others = [p for p in free[1:] if p not in mates]
        below = _fill(others, size, points, met, allowed - repeats, budget)
        if below is not None:
            tables, more = below
            return [table, *tables], repeats + more
    return None
