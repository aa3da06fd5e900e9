"""Running a Swiss or single-elimination event round by round.

The pairing (:mod:`rummykit.pairings.swiss`, :mod:`rummykit.pairings.knockout`) and the
standings (:mod:`rummykit.pairings.standings`) decide who sits where; a *table player*,
given a round number and its tables, plays them and gives each table's totals.  Any
table player will do: :class:`BotTables` plays bots through the simulator's backends,
and a server can seat people and bots with the same pairing and standings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.games.core import rules_to_json
from rummykit.pairings.knockout import (
    KnockoutStanding,
    first_round,
    knockout_standings,
    next_round,
    winner_of,
)
from rummykit.pairings.standings import EventRecord, Standing, TableResult
from rummykit.pairings.swiss import pair_round
from rummykit.sim.backends import Backend
from rummykit.sim.series import GameTask, TaskResult, run_tasks, seat_teams, seatings

TablePlayer = Callable[[int, Sequence[tuple[int, ...]]], list[TableResult]]
"""Plays round ``r``'s tables (each a tuple of players) and gives their results."""


class EventError(ValueError):
    """An event that cannot be run as asked (too few players, no rounds)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: the tables played and the players who sat out (Swiss byes, or
    knockout players going through without a table)."""

    tables: tuple[TableResult, ...]
    byes: tuple[int, ...]

    def to_json(self, game: str) -> dict[str, Any]:
        return {"tables": [t.to_json(game) for t in self.tables], "byes": list(self.byes)}


@dataclass(frozen=True, slots=True)
class SwissEvent:
    game: str
    rounds: tuple[RoundRecord, ...]
    standings: tuple[Standing, ...]
    repeats: int
    """Pairs seated together again over the event (zero when it could be avoided)."""


@dataclass(frozen=True, slots=True)
class KnockoutEvent:
    game: str
    rounds: tuple[RoundRecord, ...]
    champion: int
    standings: tuple[KnockoutStanding, ...]


def run_swiss(
    *,
    game: str,
    players: int,
    rounds: int,
    table_size: int,
    play: TablePlayer,
    on_round: Callable[[int, RoundRecord], None] | None = None,
) -> SwissEvent:
    """A Swiss event of ``rounds`` rounds for ``players`` players (0 the top seed)."""
    if rounds < 1:
        raise EventError(f"a Swiss event has at least one round, not {rounds}")
    if players < table_size:
        raise EventError(f"{players} players cannot fill a table of {table_size}")
    record = EventRecord(game, players)
    played: list[RoundRecord] = []
    repeats = 0
    for number in range(rounds):
        lines = record.standings()
        pairing = pair_round(
            [line.player for line in lines],
            table_size=table_size,
            points={line.player: line.points for line in lines},
            met=record.met(),
            byes=record.byes(),
        )
        repeats += pairing.repeats
        results = play(number, pairing.tables)
        for table in results:
            record.add_table(table)
        for player in pairing.byes:
            record.add_bye(player)
        done = RoundRecord(tuple(results), pairing.byes)
        played.append(done)
        if on_round is not None:
            on_round(number, done)
    return SwissEvent(game, tuple(played), tuple(record.standings()), repeats)


def run_knockout(
    *,
    game: str,
    players: int,
    table_size: int,
    play: TablePlayer,
    on_round: Callable[[int, RoundRecord], None] | None = None,
) -> KnockoutEvent:
    """A single-elimination event for ``players`` players seeded in entry order."""
    if players < 2:
        raise EventError(f"an elimination event needs 2 players or more, not {players}")
    tables = first_round(players, table_size)
    played: list[RoundRecord] = []
    number = 0
    while True:
        seated = [table for table in tables if len(table) > 1]
        results = play(number, seated) if seated else []
        by_table = iter(results)
        winners = [
            table[0] if len(table) == 1 else winner_of(game, next(by_table)) for table in tables
        ]
        byes = tuple(table[0] for table in tables if len(table) == 1)
        done = RoundRecord(tuple(results), byes)
        played.append(done)
        if on_round is not None:
            on_round(number, done)
        if len(winners) == 1:
            break
        tables = next_round(winners, table_size)
        number += 1
    champion = winners[0]
    standings = knockout_standings(game, players, [r.tables for r in played], champion)
    return KnockoutEvent(game, tuple(played), champion, tuple(standings))


@dataclass(slots=True)
class BotTables:
    """Plays tables of bots: ``entries[p]`` is player ``p``'s bot spec.

    **Duplicate deals, Mitchell style**: every table of round ``r`` plays the same
    ``deals`` deals (seeds ``seed + r * deals``, ``+ 1``, ...), each once per rotation
    of the seating, so that every player plays every deal from every seat and a table's
    totals compare skill rather than cards.

    In a game of partnerships (Burraco for four) a player is a team: both partners play
    its bot, a table seats one player per team, and the teams change sides over the
    rotations; the player's total is its team's.
    """

    game: str
    rules: Any
    entries: Sequence[str]
    deals: int = 1
    seed: int = 0
    workers: int = 1
    backend: Backend | None = None
    on_game: Callable[[TaskResult], None] | None = None
    games_played: int = field(default=0, init=False)

    def seeds_of_round(self, number: int) -> list[int]:
        return [self.seed + number * self.deals + deal for deal in range(self.deals)]

    def __call__(self, number: int, tables: Sequence[tuple[int, ...]]) -> list[TableResult]:
        rules_json = rules_to_json(self.rules)
        teams = seat_teams(self.game, rules_json)
        tasks: list[GameTask] = []
        for table_number, table in enumerate(tables):
            specs = tuple(self.entries[player] for player in table)
            rotations = seatings(len(teams), len(table), teams)
            for deal_seed in self.seeds_of_round(number):
                for seating in rotations:
                    tasks.append(
                        GameTask(
                            index=len(tasks),
                            game=self.game,
                            rules=rules_json,
                            entries=specs,
                            seed=deal_seed,
                            seating=seating,
                            unit=table_number,
                        )
                    )
        results = run_tasks(
            tasks, workers=self.workers, backend=self.backend, on_result=self.on_game
        )
        self.games_played += len(results)
        totals = [[0.0] * len(table) for table in tables]
        for result in results:
            table_totals = totals[result.task.unit]
            counted: set[int] = set()
            for seat, member in enumerate(result.task.seating):
                if member not in counted:  # a team's total once, not once a partner
                    counted.add(member)
                    table_totals[member] += result.totals[seat]
        return [
            TableResult(players=tuple(table), totals=tuple(totals[number_]))
            for number_, table in enumerate(tables)
        ]
