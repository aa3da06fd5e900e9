"""A tournament's results and standings, worked out from its stored round tables: each
table's result (its forfeits placing their players last), the Swiss record, who goes
through a knockout table, whether a round is the event's last, and the standing lines
the tournament's page shows.

Pure functions of the rows they are given, on the simulator's rules
(:mod:`rummykit.pairings.swiss`, :mod:`rummykit.pairings.knockout`,
:mod:`rummykit.pairings.standings`): nothing here reads or writes the database, reads the
clock or sees a table's cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.pairings.knockout import winner_of
from rummykit.pairings.standings import EventRecord, TableResult, points_differences
from rummykit.server.protocol.tournaments import StandingLine
from rummykit.server.storage.models import TournamentRow, TournamentTableRow


def table_result(row: TournamentTableRow) -> TableResult:
    """A finished table's result: its players' entry numbers, totals and forfeits."""
    return TableResult(
        players=tuple(row.entries),
        totals=tuple(row.totals or ()),
        forfeits=frozenset(row.forfeits or ()),
    )


def is_bye(row: TournamentTableRow) -> bool:
    """A bye: a round's "table" of one entrant, with no game played."""
    return row.table_id is None


def round_over(rows: Sequence[TournamentTableRow]) -> bool:
    """Every table of these (one round's) has a result; byes count as over."""
    return all(is_bye(row) or row.totals is not None for row in rows)


def swiss_record(game: str, entrants: int, rows: Sequence[TournamentTableRow]) -> EventRecord:
    """The Swiss record of every table with a result and every bye."""
    record = EventRecord(game, entrants)
    for row in rows:
        if is_bye(row):
            record.add_bye(row.entries[0])
        elif row.totals is not None:
            record.add_table(table_result(row))
    return record


def knockout_winner(game: str, row: TournamentTableRow) -> int | None:
    """Who goes through from this table: its only player for a bye, else the winner
    once it has a result."""
    if is_bye(row):
        return row.entries[0]
    if row.totals is None:
        return None
    return winner_of(game, table_result(row))


def last_round(tournament: TournamentRow, current: Sequence[TournamentTableRow]) -> bool:
    """The round under way (``current``, its tables) is the event's last: a Swiss
    event's rounds are all played, or a knockout round had one table (the final)."""
    if tournament.format == "swiss":
        return tournament.round + 1 >= tournament.rounds
    return len(current) == 1


def swiss_standings(
    game: str, names: dict[int, str], played: Sequence[TournamentTableRow]
) -> list[StandingLine]:
    """Points, then Buchholz, then points difference (the record's standings)."""
    if not names:
        return []
    record = swiss_record(game, len(names), played)
    return [
        StandingLine(
            place=line.place,
            entry=line.player,
            name=names[line.player],
            points=line.points,
            buchholz=line.buchholz,
            points_difference=line.points_difference,
            out=None,
        )
        for line in record.standings()
    ]


def knockout_standings(
    game: str, names: dict[int, str], played: Sequence[TournamentTableRow]
) -> list[StandingLine]:
    """Players still in (or the champion) first, then by the round they went out in,
    latest first; then by rounds won, points difference and seed."""
    won = dict.fromkeys(names, 0)
    out: dict[int, int] = {}
    difference = dict.fromkeys(names, 0.0)
    for row in played:
        winner = knockout_winner(game, row)
        if winner is None:
            continue
        won[winner] += 1
        if is_bye(row):
            continue
        result = table_result(row)
        for player, diff in zip(row.entries, points_differences(game, result.totals), strict=True):
            difference[player] += diff
            if player != winner:
                out[player] = row.round

    def key(player: int) -> tuple[int, int, float, int]:
        return (-out.get(player, 1_000_000), -won[player], -difference[player], player)

    ordered = sorted(names, key=key)
    lines: list[StandingLine] = []
    for index, player in enumerate(ordered):
        tied = index > 0 and key(ordered[index - 1])[:3] == key(player)[:3]
        lines.append(
            StandingLine(
                place=lines[-1].place if tied else index + 1,
                entry=player,
                name=names[player],
                points=float(won[player]),
                buchholz=None,
                points_difference=difference[player],
                out=out.get(player),
            )
        )
    return lines
