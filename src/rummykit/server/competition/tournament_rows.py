"""A tournament's entries as the events see them (pairs, entries per table, who plays
in an entry, the name pages show), the tournament under its row lock, and
:class:`TournamentError`, the refusal of a tournament request.

The rows are read and written by storage (:mod:`~rummykit.server.storage.tournaments`);
nothing here reads the database but :func:`locked`, through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.games.registry import game_named
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import TournamentEntryRow, TournamentRow
from rummykit.server.storage.tournaments import locked_tournament


class TournamentError(TableError):
    """A tournament request refused: a stable code, a message and parameters."""


async def locked(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament, under its row lock on PostgreSQL (``FOR UPDATE``) until the
    session ends: requests and moves of one event are taken one at a time."""
    row = await locked_tournament(session, tournament_id)
    if row is None:
        raise TournamentError("unknown_tournament", "there is no such tournament")
    return row


def pair_size(tournament: TournamentRow) -> int:
    """How many players an entry is: 2 in a tournament of pairs (the game seats partners
    at its table size: Burraco for four), else 1."""
    team_of = game_named(tournament.game).team_of
    if team_of is None:
        return 1
    sides = len(set(map(team_of, range(tournament.table_size))))
    return tournament.table_size // sides


def entries_per_table(tournament: TournamentRow) -> int:
    """How many entries a table seats: its players, or its pairs."""
    return tournament.table_size // pair_size(tournament)


def holds(entry: TournamentEntryRow, player_id: str | None) -> bool:
    """Whether ``player_id`` plays in ``entry`` (alone, or as either of a pair)."""
    return player_id is not None and player_id in (entry.player_id, entry.partner_id)


def shown_name(entry: TournamentEntryRow) -> str:
    """An entry's name as pages show it: a pair's two names."""
    return entry.name if entry.partner_name is None else f"{entry.name} & {entry.partner_name}"


def by_entry(rows: Sequence[TournamentEntryRow]) -> dict[int, TournamentEntryRow]:
    """The entrants by seeding number (numbered once the event started)."""
    return {row.entry: row for row in rows if row.entry is not None}
