"""Tables' results turned into points, and an event's standings with their tie-breaks.

A table's result is each player's total over the deals the table played.  At a table
of ``k`` players, a player earns one point for every opponent finished ahead of and
half a point for every opponent level with, divided by ``k - 1``: a two-player win is
1, a draw 0.5, and first place at any table is 1.  A bye is worth a win (1 point), as in
chess Swiss events.

Swiss standings order players by points, then **Buchholz** (the sum of the final
points of every opponent met: a player who met strong opponents ranks higher), then
the **points difference** (the game's own score: in Burraco the player's points minus
the opponent's; in Three-Thirteen, where fewer points is better, the opponents' mean
minus the player's), then the entry order (the seeding).

A player who **forfeits** a table (a server's tournament: did not come to it, or left
it under way) finishes it last, level with any other who forfeited, whatever the totals
say; the totals still count in the points difference.

Pure arithmetic: no games, no randomness, no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.games.registry import game_named

BYE_POINTS: Final = 1.0


def places_of(game: str, totals: Sequence[float], forfeits: Collection[int] = ()) -> list[int]:
    """Each player's finishing place (1 is best; equal totals share a place); the seats
    in ``forfeits`` after all the others, level with one another.

    >>> places_of("burraco", [300, 500, 300])
    [2, 1, 2]
    >>> places_of("three-thirteen", [40, 70, 40, 90])
    [1, 3, 1, 4]
    >>> places_of("burraco", [900, 100, 300], forfeits={0})
    [3, 2, 1]
    """
    sign = -1 if game_named(game).lower_is_better else 1

    def key(seat: int) -> tuple[bool, float]:
        return (seat in forfeits, -sign * totals[seat])

    return [
        1 + sum(1 for other in range(len(totals)) if key(other) < key(seat))
        for seat in range(len(totals))
    ]


def table_points(game: str, totals: Sequence[float], forfeits: Collection[int] = ()) -> list[float]:
    """Each player's points for a table: opponents beaten (draws as halves) / (k - 1),
    the seats in ``forfeits`` placed last.

    >>> table_points("burraco", [300, 500])
    [0.0, 1.0]
    >>> table_points("three-thirteen", [40, 70, 40])
    [0.75, 0.0, 0.75]
    >>> table_points("burraco", [300, 500], forfeits={1})
    [1.0, 0.0]
    """
    places = places_of(game, totals, forfeits)
    opponents = len(totals) - 1
    points = []
    for mine in places:
        beaten = sum(1 for other in places if other > mine)
        level = sum(1 for other in places if other == mine) - 1
        points.append((beaten + level / 2) / opponents)
    return points


def points_differences(game: str, totals: Sequence[float]) -> list[float]:
    """How much better each player scored than the mean of the others at the table.

    >>> points_differences("burraco", [300, 500])
    [-200.0, 200.0]
    >>> points_differences("three-thirteen", [40, 70, 100])
    [45.0, 0.0, -45.0]
    """
    sign = -1 if game_named(game).lower_is_better else 1
    differences = []
    for seat, mine in enumerate(totals):
        others = [t for s, t in enumerate(totals) if s != seat]
        differences.append(sign * (mine - sum(others) / len(others)) + 0.0)
    return differences


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a round: its players and each one's total over the table's games
    (in the same order), and which of its players forfeited it."""

    players: tuple[int, ...]
    totals: tuple[float, ...]
    forfeits: frozenset[int] = frozenset()

    def seats_forfeited(self) -> frozenset[int]:
        return frozenset(s for s, p in enumerate(self.players) if p in self.forfeits)

    def points(self, game: str) -> list[float]:
        return table_points(game, self.totals, self.seats_forfeited())

    def places(self, game: str) -> list[int]:
        return places_of(game, self.totals, self.seats_forfeited())

    def to_json(self, game: str) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "totals": list(self.totals),
            "points": self.points(game),
            "forfeits": sorted(self.forfeits),
        }


@dataclass(slots=True)
class PlayerRecord:
    """What one player did so far in an event."""

    player: int
    points: float = 0.0
    points_difference: float = 0.0
    tables: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    place: int
    player: int
    points: float
    buchholz: float
    points_difference: float
    tables: int
    byes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "points": self.points,
            "buchholz": self.buchholz,
            "points_difference": self.points_difference,
            "tables": self.tables,
            "byes": self.byes,
        }


class EventRecord:
    """Every player's points, opponents and byes, added to round by round."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = [PlayerRecord(player) for player in range(players)]

    def add_table(self, table: TableResult) -> None:
        points = table.points(self.game)
        differences = points_differences(self.game, table.totals)
        for player, earned, difference in zip(table.players, points, differences, strict=True):
            record = self.players[player]
            record.points += earned
            record.points_difference += difference
            record.tables += 1
            record.opponents.extend(p for p in table.players if p != player)

    def add_bye(self, player: int) -> None:
        self.players[player].points += BYE_POINTS
        self.players[player].byes += 1

    def met(self) -> set[frozenset[int]]:
        """Every pair of players that has shared a table."""
        return {
            frozenset({record.player, other})
            for record in self.players
            for other in record.opponents
        }

    def byes(self) -> dict[int, int]:
        return {record.player: record.byes for record in self.players}

    def buchholz(self, player: int) -> float:
        """The sum of the points of every opponent ``player`` met (once per meeting)."""
        return sum(self.players[other].points for other in self.players[player].opponents)

    def standings(self) -> list[Standing]:
        """Players by points, Buchholz, points difference, then entry order; players
        level on all three share a place."""

        def key(record: PlayerRecord) -> tuple[float, float, float]:
            return (-record.points, -self.buchholz(record.player), -record.points_difference)

        ordered = sorted(self.players, key=lambda record: (key(record), record.player))
        lines: list[Standing] = []
        for index, record in enumerate(ordered):
            tied = index > 0 and key(ordered[index - 1]) == key(record)
            lines.append(
                Standing(
                    place=lines[-1].place if tied else index + 1,
                    player=record.player,
                    points=record.points,
                    buchholz=self.buchholz(record.player),
                    points_difference=record.points_difference,
                    tables=record.tables,
                    byes=record.byes,
                )
            )
        return lines
