"""The tournament routes (``/api/tournaments``): list and read them without a session;
create, register (a pair's partner by invitation or link), invite, withdraw and start
with one.  ``tournaments.py`` does the work."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Path

from rummykit.server.api.context import ApiError, Context, Player
from rummykit.server.api.lobby import ERRORS, table_error
from rummykit.server.api.table_access import MaybePlayer
from rummykit.server.protocol.refusals import TableError
from rummykit.server.protocol.tournaments import (
    CreateTournament,
    InvitePartner,
    RegisterTournament,
    TournamentSummary,
    TournamentView,
)

router = APIRouter(prefix="/api/tournaments", responses=ERRORS)

TournamentId = Annotated[str, Path(pattern=r"^[0-9a-f]{16}$")]
T = TypeVar("T")


async def _answer(work: Awaitable[T]) -> T:
    try:
        return await work
    except TableError as error:  # a TournamentError, or a bad bot level
        raise table_error(error) from None


@router.get("", response_model=list[TournamentSummary])
async def tournaments(server: Context) -> list[TournamentSummary]:
    """The tournaments still to be played, newest first, then the latest ones over."""
    return await server.tournaments.listing()


@router.post("", response_model=TournamentView)
async def create(body: CreateTournament, player: Player, server: Context) -> TournamentView:
    """Make a tournament (its creator entered unless ``enter`` is false)."""
    tournament_id = await _answer(server.tournaments.create(body, player))
    return await _answer(server.tournaments.view(tournament_id, player.id))


@router.get("/{tournament_id}", response_model=TournamentView)
async def tournament(
    tournament_id: TournamentId, server: Context, player: MaybePlayer
) -> TournamentView:
    """A tournament: its entrants, rounds, tables, standings and the caller's table."""
    return await _answer(
        server.tournaments.view(tournament_id, None if player is None else player.id)
    )


@router.post("/{tournament_id}/register", response_model=TournamentView)
async def register(
    tournament_id: TournamentId,
    player: Player,
    server: Context,
    body: RegisterTournament | None = None,
) -> TournamentView:
    """Enter the tournament (the event starts when this fills it): alone, as a pair
    awaiting a partner, or as a pair's partner with its consent (``partner``: the first
    player of a pair that invited you; ``pair``: the token of a pair's link)."""
    partner = None if body is None else body.partner
    pair = None if body is None else body.pair
    await _answer(server.tournaments.register(tournament_id, player, partner, pair))
    return await _answer(server.tournaments.view(tournament_id, player.id))


@router.post("/{tournament_id}/invite", response_model=TournamentView)
async def invite(
    tournament_id: TournamentId, body: InvitePartner, player: Player, server: Context
) -> TournamentView:
    """Invite a registered player (by login name) to be your pair's partner: they see
    the invitation on the tournament's page and accept it by registering with
    ``partner``, your player id."""
    invited = await server.storage.player_by_login(body.name)
    if invited is None:
        raise ApiError(404, "unknown_player", "there is no such player")
    await _answer(server.tournaments.invite(tournament_id, player, invited))
    return await _answer(server.tournaments.view(tournament_id, player.id))


@router.post("/{tournament_id}/withdraw", response_model=TournamentView)
async def withdraw(tournament_id: TournamentId, player: Player, server: Context) -> TournamentView:
    """Leave the tournament before it starts."""
    await _answer(server.tournaments.withdraw(tournament_id, player))
    return await _answer(server.tournaments.view(tournament_id, player.id))


@router.post("/{tournament_id}/start", response_model=TournamentView)
async def start(tournament_id: TournamentId, player: Player, server: Context) -> TournamentView:
    """Start the tournament now, with the entrants it has (its creator only)."""
    await _answer(server.tournaments.start_event(tournament_id, by=player))
    return await _answer(server.tournaments.view(tournament_id, player.id))
