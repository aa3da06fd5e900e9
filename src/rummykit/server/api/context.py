"""What the HTTP and WebSocket handlers share: the server's parts, typed API errors and
the caller's session (the ``Context`` and ``Player`` dependencies)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from rummykit.server.accounts.auth import COOKIE_NAME, Passwords, Sessions
from rummykit.server.accounts.socket_caps import SocketCap
from rummykit.server.accounts.throttles import AccountLimits
from rummykit.server.bots.service import BotService
from rummykit.server.competition.review_jobs import ReviewJobs
from rummykit.server.competition.tournaments import Tournaments
from rummykit.server.notify.sender import Notifier
from rummykit.server.settings import Settings
from rummykit.server.storage.models import PlayerRow
from rummykit.server.storage.store import Storage
from rummykit.server.table.registry import TableRegistry


class ApiError(Exception):
    """An HTTP error answered as ``{"error": {"code", "message", "params"}}``."""

    def __init__(
        self, status: int, code: str, message: str, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass
class ServerContext:
    settings: Settings
    storage: Storage
    runner: BotService
    tables: TableRegistry
    sessions: Sessions
    passwords: Passwords
    limits: AccountLimits
    reviews: ReviewJobs
    tournaments: Tournaments
    sockets: SocketCap
    notifier: Notifier


async def context(request: Request) -> ServerContext:
    """The server's parts (a coroutine, so that FastAPI does not hand it to a thread)."""
    server: ServerContext = request.app.state.server
    return server


Context = Annotated[ServerContext, Depends(context)]


async def session_player(server: ServerContext, cookie: str | None) -> PlayerRow | None:
    """The player whose session ``cookie`` is, or ``None`` for a missing, forged, expired
    or revoked one (signed before the player's stored session epoch)."""
    found = server.sessions.open(cookie)
    if found is None:
        return None
    player = await server.storage.player(found.player_id)
    if player is None:
        return None
    server.sessions.revoke(player.id, player.session_epoch)
    return player if found.epoch == player.session_epoch else None


async def current_player(request: Request, server: Context) -> PlayerRow:
    """The caller's player; 401 ``no_session`` without a valid session."""
    player = await session_player(server, request.cookies.get(COOKIE_NAME))
    if player is None:
        raise ApiError(401, "no_session", "start a session first (POST /api/session)")
    return player


Player = Annotated[PlayerRow, Depends(current_player)]
