"""The lobby over HTTP+JSON (``/api``): tables, history, records (sessions and accounts
are ``accounts.py``).

Every error is ``{"error": {"code", "message", "params"}}`` with a fitting status.
Handlers only translate between HTTP and the table registry and storage.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from fastapi import APIRouter

from rummykit.games.registry import game_named
from rummykit.server.api import context, records, turn_based
from rummykit.server.api.catalog import catalog_entries, new_table
from rummykit.server.api.context import ApiError, ServerContext
from rummykit.server.api.table_access import MaybePlayer, TableId, check_read
from rummykit.server.bots.admission import admit_table, check_levels
from rummykit.server.bots.names import seat_names
from rummykit.server.competition.leaderboard import table_rating_changes
from rummykit.server.protocol.lobby import (
    DAYS_PER_MOVE,
    Catalog,
    CreateTable,
    ErrorResponse,
    Joined,
    JoinRequest,
    PlayNow,
    SeatInfo,
    SeatRequest,
    TableCreated,
    TableSummary,
    WatchRequest,
)
from rummykit.server.protocol.messages import ERROR_CODES, PROTOCOL_VERSION, json_schema
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import PlayerRow, SeatRow, TableRow
from rummykit.server.table.commands import Join, Leave
from rummykit.server.table.host import TableHost
from rummykit.server.table.remote import RemoteTable

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse},
    401: {"model": ErrorResponse},
    403: {"model": ErrorResponse},
    404: {"model": ErrorResponse},
    409: {"model": ErrorResponse},
    429: {"model": ErrorResponse},
}

router = APIRouter(prefix="/api", responses=ERRORS)

# the caller's server parts and player (context.py), named here for every table route
Context = context.Context
Player = context.Player


def table_error(error: TableError) -> ApiError:
    """A table's refusal answered over HTTP, with its code's status (``ERROR_CODES``)."""
    entry = ERROR_CODES.get(error.code)
    status = 400 if entry is None or entry.status is None else entry.status
    return ApiError(status, error.code, error.message, error.params)


def _summary(table: TableRow, seats: list[SeatRow]) -> TableSummary:
    return TableSummary(
        table_id=table.id,
        game=table.game,
        rules=table.rules,
        status=table.status,  # type: ignore[arg-type]
        private=table.private,
        seats=[
            SeatInfo(
                seat=s.seat,
                kind="bot" if s.kind == "bot" else "human",
                level=s.level,
                name=name if s.kind == "bot" else s.name,
                taken=s.kind == "bot" or s.player_id is not None,
                player_id=s.player_id if s.kind == "human" else None,
                kept_for=s.kept_for if s.kind == "human" and s.player_id is None else None,
            )
            for s, name in zip(seats, seat_names(seats), strict=True)
        ],
        turn_seconds=table.turn_seconds,
        time_bank_seconds=table.time_bank_seconds,
        commitment=table.commitment,
        created_at=table.created_at,
        totals=table.totals,
        winners=table.winners,
        rated=bool(table.rated),
        finished_at=table.finished_at,
        tournament_id=table.tournament_id,
        ended_by=table.ended_by,  # type: ignore[arg-type]
        days_per_move=table.days_per_move,
    )


def _ws_url(table_id: str, token: str | None = None) -> str:
    return f"/ws/tables/{table_id}" + (f"?token={token}" if token else "")


async def _host(server: ServerContext, table_id: str) -> TableHost | RemoteTable:
    try:
        host = await server.tables.host(table_id)
    except TableError as error:  # between owners, or unreachable from here
        raise table_error(error) from None
    if host is None:
        raise ApiError(404, "not_found", "there is no such table", {"table_id": table_id[:64]})
    return host


def _check_token(host: TableHost | RemoteTable, token: str | None, player_id: str) -> None:
    if not host.may_watch(player_id, token):
        raise ApiError(403, "private_table", "this table is private: use its invitation link")


# -- games and tables ------------------------------------------------------------------


@router.get("/games/catalog", response_model=Catalog)
async def catalog(server: Context) -> Catalog:
    """Both games: rule options (name, type, default, choices), player counts, bot levels."""
    return Catalog(
        games=catalog_entries(),
        protocol_version=PROTOCOL_VERSION,
        default_turn_seconds=server.settings.default_turn_seconds,
        default_time_bank_seconds=server.settings.default_time_bank_seconds,
        days_per_move=list(DAYS_PER_MOVE),
    )


@router.get("/protocol/schema")
async def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every WebSocket message (docs/protocol.md)."""
    return json_schema()


@router.get("/tables", response_model=list[TableSummary])
async def open_tables(server: Context) -> list[TableSummary]:
    """Public tables waiting for players, but not those whose seated players have all
    been away for the grace period."""
    found = await server.storage.open_tables()
    hidden = await server.tables.hidden_from_lobby([table.id for table, _ in found])
    return [_summary(table, seats) for table, seats in found if table.id not in hidden]


async def create_for(
    server: ServerContext, request: CreateTable, player: PlayerRow, **made: Any
) -> tuple[TableHost | RemoteTable, int | None]:
    """Make the table ``request`` asks for, as ``player``'s: its bots held to the
    player's limits, the request checked against the catalog (:func:`new_table`), and
    the player's limits checked with the insert (``made``: what else the registry is
    told, a rematch's finished table and kept seats)."""
    levels = [seat.level for seat in request.seats or [] if seat.kind == "bot"]
    check_levels(request.game, levels, player, server.settings)
    table = new_table(
        request, creator_registered=player.login_name is not None, settings=server.settings
    )
    admit = partial(
        admit_table,
        player=player,
        bot_levels=levels,
        settings=server.settings,
        turn_based=table.days_per_move is not None,
    )
    return await server.tables.create(
        table,
        creator_id=player.id,
        creator_name=player.name,
        admit=admit,
        **made,
    )


async def _create(server: ServerContext, body: CreateTable, player: PlayerRow) -> TableCreated:
    try:
        host, seat = await create_for(server, body, player)
    except TableError as error:
        raise table_error(error) from None
    token = host.row.invite_token
    return TableCreated(
        table_id=host.table_id,
        seat=seat,
        invite_token=token,
        invite_url=f"/?table={host.table_id}&token={token}" if token else None,
        commitment=host.row.commitment,
        ws_url=_ws_url(host.table_id),
    )


@router.post("/tables", response_model=TableCreated)
async def create_table(body: CreateTable, player: Player, server: Context) -> TableCreated:
    """Create a table: game, rule options, seats (human or bot level), private, turn time.

    The answer carries the SHA-256 ``commitment`` to the table's secret deal."""
    return await _create(server, body, player)


@router.post("/play-now", response_model=TableCreated)
async def play_now(body: PlayNow, player: Player, server: Context) -> TableCreated:
    """A table against bots of ``level``, the caller in seat 0, starting at once."""
    game = game_named(body.game)
    if body.players not in game.player_counts:
        counts = " or ".join(map(str, game.player_counts))
        raise ApiError(400, "bad_rules", f"{game.title} is for {counts} players")
    seats = [SeatRequest(kind="human")] + [
        SeatRequest(kind="bot", level=body.level) for _ in range(body.players - 1)
    ]
    return await _create(server, CreateTable(game=body.game, seats=seats), player)


@router.get("/tables/{table_id}", response_model=TableSummary)
async def table_summary(
    table_id: TableId, server: Context, player: MaybePlayer, token: str | None = None
) -> TableSummary:
    """The table's summary; a private table's only for its players or with its ``token``.
    No session is needed: an invitation's page names the game, the host and the rules
    before its visitor picks a nickname."""
    host = server.tables.hosts.get(table_id)
    if host is not None:
        found: tuple[TableRow, list[SeatRow]] | None = (host.row, host.seat_rows())
    else:
        found = await server.storage.table_with_seats(table_id)
    if found is None:
        raise ApiError(404, "not_found", "there is no such table")
    check_read(*found, player.id if player is not None else None, token)
    now = server.tables.clock.now()
    vacations = await turn_based.mover_vacations(server.storage, [found], now)
    summary = turn_based.add_turn(
        _summary(*found), *found, vacations, now, None if player is None else player.id
    )
    if found[0].rated and found[0].status == "over":
        summary.rating_changes = await table_rating_changes(server.storage, table_id)
    return summary


@router.post("/tables/{table_id}/join", response_model=Joined)
async def join(table_id: TableId, body: JoinRequest, player: Player, server: Context) -> Joined:
    """Take a seat (a given one, or the first free human seat)."""
    host = await _host(server, table_id)
    _check_token(host, body.token, player.id)
    if host.row.rated and player.login_name is None:
        raise ApiError(403, "rated_needs_account", "rated tables are for registered players")
    result: Any = asyncio.get_running_loop().create_future()
    host.submit(Join(player.id, player.name, body.seat, result))
    try:
        seat = await result
    except TableError as error:
        raise table_error(error) from None
    return Joined(table_id=host.table_id, seat=seat, ws_url=_ws_url(host.table_id))


@router.post("/tables/{table_id}/watch", response_model=Joined)
async def watch(table_id: TableId, body: WatchRequest, player: Player, server: Context) -> Joined:
    """Check that you may watch; the answer has the WebSocket address to use."""
    host = await _host(server, table_id)
    _check_token(host, body.token, player.id)
    return Joined(
        table_id=host.table_id,
        seat=host.seat_of(player.id),
        ws_url=_ws_url(host.table_id, body.token if host.row.private else None),
    )


@router.post("/tables/{table_id}/leave")
async def leave(table_id: TableId, player: Player, server: Context) -> dict[str, bool]:
    """Give up your seat (before the start), or let a bot play it (during the game)."""
    host = await _host(server, table_id)
    result: Any = asyncio.get_running_loop().create_future()
    host.submit(Leave(player.id, result))
    try:
        await result
    except TableError as error:
        raise table_error(error) from None
    return {"ok": True}


@router.get("/current", response_model=list[TableSummary])
async def current_games(player: Player, server: Context) -> list[TableSummary]:
    """Your tables not over (waiting for players or under way): where to come back to
    after leaving one (a bot plays your seat meanwhile), and the rematches waiting with
    a seat kept for you.  The turn-based games where it is your turn come first (least
    time left first), then the live tables (newest first), then the other turn-based
    games (least time left first)."""
    found = await server.storage.tables_of(player.id, finished=False, kept=True)
    now = server.tables.clock.now()
    vacations = await turn_based.mover_vacations(server.storage, found, now)
    summaries = [
        turn_based.add_turn(_summary(t, s), t, s, vacations, now, player.id) for t, s in found
    ]
    return turn_based.current_order(summaries)


@router.get("/history", response_model=list[TableSummary])
async def history(player: Player, server: Context) -> list[TableSummary]:
    """Your finished games, newest first."""
    return [_summary(t, s) for t, s in await server.storage.tables_of(player.id, finished=True)]


@router.get("/tables/{table_id}/record")
async def record(
    table_id: TableId, server: Context, player: MaybePlayer, token: str | None = None
) -> dict[str, Any]:
    """The game as you see it; once it is over, the full record (seed revealed), in the
    format ``rummykit replay`` and ``rummykit verify`` read.  No session is needed: a
    public table's record is anyone's (a session only tells your seat), a private
    table's needs a seat at it or its ``token``."""
    stored = await server.storage.load_table(table_id)
    if stored is None:
        raise ApiError(404, "not_found", "there is no such table")
    seat = check_read(stored.table, stored.seats, None if player is None else player.id, token)
    return await asyncio.to_thread(records.build, records.RecordSource.of(stored), seat)
