"""Reading a tournament's rows: the tournament under its row lock, its entrants in the
order they registered, the tables of its rounds; and :class:`TournamentError`, the
refusal of a tournament request.

Every function here reads within the session it is given and never writes, commits or
decides anything: the modules that move an event on do that with what they read.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.games.registry import game_named
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import TournamentEntryRow, TournamentRow, TournamentTableRow


class TournamentError(TableError):
    """A tournament request refused: a stable code, a message and parameters."""


async def locked(session: AsyncSession, tournament_id: str) -> TournamentRow:
    """The tournament, under its row lock on PostgreSQL (``FOR UPDATE``) until the
    session ends: requests and moves of one event are taken one at a time."""
    query = select(TournamentRow).where(TournamentRow.id == tournament_id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    row = (await session.scalars(query.execution_options(populate_existing=True))).first()
    if row is None:
        raise TournamentError("unknown_tournament", "there is no such tournament")
    return row


async def entries_of(session: AsyncSession, tournament_id: str) -> list[TournamentEntryRow]:
    """The tournament's entrants in the order they registered (people, then bots)."""
    query = (
        select(TournamentEntryRow)
        .where(TournamentEntryRow.tournament_id == tournament_id)
        .order_by(TournamentEntryRow.registered_at, TournamentEntryRow.id)
    )
    return list((await session.scalars(query)).all())


async def tables_of(
    session: AsyncSession, tournament_id: str, round_: int | None = None
) -> list[TournamentTableRow]:
    """The tables (and byes) of every round, or of round ``round_``, in round and table
    order."""
    query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
    if round_ is not None:
        query = query.where(TournamentTableRow.round == round_)
    query = query.order_by(TournamentTableRow.round, TournamentTableRow.number)
    return list((await session.scalars(query)).all())


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
