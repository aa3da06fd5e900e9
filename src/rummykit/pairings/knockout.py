"""Single elimination: tables of ``k`` players, the winner of each goes through.

The bracket has ``k ** r`` slots, the fewest that hold every player; seeds are placed
so that the best seeds meet as late as possible (for two-player tables the usual
1-v-8, 4-v-5, 2-v-7, 3-v-6 order), and the empty slots are byes: a table left with one
player sends that player through without playing.  A table's winner is the player
finishing first on the table's totals; on a tie for first, the better seed goes
through (the lower entry number).

Final standings: the champion, then the players put out in the final, then those put
out a round earlier, and so on; players put out in the same round are ordered by their
points difference over the event, then by seed.

Pure arithmetic on player numbers: no games, no randomness, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.pairings.standings import TableResult, points_differences


class BracketError(ValueError):
    """An elimination event that cannot be drawn (too few players, bad table size)."""


def bracket_order(slots: int, table_size: int) -> list[int]:
    """Seeds (0 = best) in slot order for a bracket of ``slots = table_size ** r``
    slots; each run of ``table_size`` slots is a first-round table.

    >>> bracket_order(8, 2)
    [0, 7, 3, 4, 1, 6, 2, 5]
    >>> bracket_order(9, 3)
    [0, 5, 6, 1, 4, 7, 2, 3, 8]
    """
    order = [0]
    size = 1
    while size < slots:
        grown: list[int] = []
        for seed in order:
            for part in range(table_size):
                if part % 2 == 0:
                    grown.append(part * size + seed)
                else:
                    grown.append((part + 1) * size - 1 - seed)
        order = grown
        size *= table_size
    return order


def first_round(players: int, table_size: int) -> list[tuple[int, ...]]:
    """The first round's tables, each the seeds in it (byes left out); a table of one
    player is a bye into the next round.

    >>> first_round(5, 2)
    [(0,), (3, 4), (1,), (2,)]
    """
    if table_size < 2:
        raise BracketError(f"a table seats at least 2 players, not {table_size}")
    if players < 2:
        raise BracketError(f"an elimination event needs 2 players or more, not {players}")
    slots = table_size
    while slots < players:
        slots *= table_size
    order = bracket_order(slots, table_size)
    tables = []
    for start in range(0, slots, table_size):
        tables.append(tuple(seed for seed in order[start : start + table_size] if seed < players))
    return tables


def winner_of(game: str, table: TableResult) -> int:
    """The player who goes through: first on the totals, the better seed on a tie.

    >>> winner_of("burraco", TableResult(players=(3, 1), totals=(500, 500)))
    1
    """
    places = table.places(game)
    return min(p for p, place in zip(table.players, places, strict=True) if place == 1)


@dataclass(frozen=True, slots=True)
class KnockoutStanding:
    """One line of the final standings: ``rounds_won`` counts byes as rounds won."""

    place: int
    player: int
    rounds_won: int
    points_difference: float

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "rounds_won": self.rounds_won,
            "points_difference": self.points_difference,
        }


def next_round(winners: Sequence[int], table_size: int) -> list[tuple[int, ...]]:
    """The next round's tables: the winners of consecutive tables, ``table_size`` at a
    time, in bracket order."""
    return [tuple(winners[i : i + table_size]) for i in range(0, len(winners), table_size)]


def knockout_standings(
    game: str, players: int, rounds: Sequence[Sequence[TableResult]], champion: int
) -> list[KnockoutStanding]:
    """Final standings from the tables played, round by round (byes are not tables)."""
    out_in: dict[int, int] = {}
    difference = [0.0] * players
    for number, tables in enumerate(rounds):
        for table in tables:
            gone_through = winner_of(game, table)
            for player, diff in zip(
                table.players, points_differences(game, table.totals), strict=True
            ):
                difference[player] += diff
                if player != gone_through:
                    out_in[player] = number
    out_in[champion] = len(rounds)
    ordered = sorted(range(players), key=lambda p: (-out_in.get(p, -1), -difference[p], p))
    lines: list[KnockoutStanding] = []
    for index, player in enumerate(ordered):
        lines.append(
            KnockoutStanding(
                place=index + 1,
                player=player,
                rounds_won=out_in.get(player, 0),
                points_difference=difference[player],
            )
        )
    return lines
