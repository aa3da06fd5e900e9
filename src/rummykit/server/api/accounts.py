"""Sessions and accounts over HTTP+JSON: ``/api/session`` (to start one, or to ask who
is signed in), ``/me``, ``/register``, ``/login``, ``/logout``.

Every attempt that costs the server (a password to hash or check, a player to store) is
counted before any ``await``: a flood of concurrent requests finds the limit exactly
where a slow one-by-one attacker would.  Logins are limited per login name and per client
address (failed and pending ones count; a successful one gives its attempt back),
registrations and guest sessions per client address.  A throttled request is answered
429 with ``retry_after`` (seconds) in the error's params.  Logging out revokes the
player's every session cookie (see ``auth.py``).

Names: a login name is unique whatever its case and is found in any case; a guest may
not go by a registered name; a name some guest goes by may be registered by that guest
only.  Handlers translate between HTTP and storage; they hold no state of their own.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request, Response

from rummykit.server.accounts import links
from rummykit.server.accounts.auth import COOKIE_NAME, SESSION_MAX_AGE
from rummykit.server.accounts.throttles import LimitsUnavailable, Taken, Throttled, Window
from rummykit.server.api.context import ApiError, Context, Player, ServerContext, session_player
from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol import names
from rummykit.server.protocol.lobby import Credentials, ErrorResponse, Me, SessionRequest
from rummykit.server.storage.account_links import window_start
from rummykit.server.storage.errors import StorageError
from rummykit.server.storage.models import PlayerRow

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse} for status in (401, 409, 422, 429, 503)
}

router = APIRouter(prefix="/api", responses=ERRORS)


def client_address(request: Request) -> str:
    """The address the request came from (the proxy's, behind a reverse proxy)."""
    return request.client.host if request.client else "unknown"


async def _reserve(window: Window, code: str, message: str, *keys: str) -> Taken:
    try:
        return await window.take(*keys)
    except Throttled as throttled:
        raise ApiError(429, code, message, {"retry_after": throttled.retry_after}) from None
    except LimitsUnavailable:
        raise ApiError(
            503, "limits_unavailable", "the server cannot check this now; try again shortly"
        ) from None


async def _trace(
    request: Request, response: Response, server: ServerContext, player: PlayerRow
) -> None:
    """Note the browser and the address the player's session was opened from
    (``accounts/links.py``): what links accounts of one person."""
    browser = links.browser_id(request, response, secure=server.settings.secure_cookies)
    now = server.tables.clock.now()
    await server.storage.record_traces(
        player.id,
        links.traces(server.sessions, browser, client_address(request)),
        at=now,
        forget_before=window_start(now, server.settings.link_days),
    )


def _set_session(response: Response, server: ServerContext, player: PlayerRow) -> None:
    response.set_cookie(
        COOKIE_NAME,
        server.sessions.sign(player.id, player.session_epoch),
        max_age=SESSION_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=server.settings.secure_cookies,
        path="/",
    )


def _me(player: PlayerRow) -> Me:
    return Me(player_id=player.id, name=player.name, registered=player.login_name is not None)


def _name_taken(name: str, like: str | None = None) -> ApiError:
    """The refusal of a name another player goes by (``like``): the same name in any
    case is taken, a name that only looks the same is confusable with it."""
    if like is None or like.casefold() == name.casefold():
        return ApiError(409, "name_taken", "that name is taken", {"name": name})
    return ApiError(
        409,
        "name_confusable",
        "that name looks like another player's",
        {"name": name, "like": like},
    )


def _refuse_computer_name(name: str) -> None:
    """Refuse a new name that would pass for a seat's computer player (422
    ``name_like_computer``), before any limit is spent on it."""
    if names.reads_as_computer(name):
        raise ApiError(
            422, "name_like_computer", "that name reads as a computer player's", {"name": name}
        )


@router.post("/session", response_model=Me)
async def start_session(
    body: SessionRequest, request: Request, response: Response, server: Context
) -> Me:
    """Play as a guest under ``nickname``: a new player and a signed session cookie.

    A registered player's name (in any case) is refused with 409 ``name_reserved``, one
    that reads as a computer player's with 422 ``name_like_computer``.
    With ``keep_session`` a live session the request carries is kept and answered."""
    if body.keep_session:
        held = await session_player(server, request.cookies.get(COOKIE_NAME))
        if held is not None:
            await _trace(request, response, server, held)
            return _me(held)
    _refuse_computer_name(body.nickname)
    reservation = await _reserve(
        server.limits.guest_sessions,
        "guest_throttled",
        "too many guest sessions from this address; try again later",
        f"address:{client_address(request)}",
    )
    player = PlayerRow(
        id=secrets.token_hex(12),
        name=body.nickname,
        login_name=None,
        password_hash=None,
        created_at=time.time(),
        session_epoch=0,
    )
    if not await server.storage.add_guest(player):
        await reservation.give_back()
        raise ApiError(
            409,
            "name_reserved",
            "that name belongs to a registered player: log in, or pick another",
            {"name": body.nickname},
        )
    _set_session(response, server, player)
    await _trace(request, response, server, player)
    log_event(None, "guest", player=player.id)
    return _me(player)


@router.get("/me", response_model=Me)
async def me(player: Player) -> Me:
    return _me(player)


@router.get("/session", response_model=Me | None)
async def current_session(request: Request, server: Context) -> Me | None:
    """Who the caller is, or null without a session: a page's first look, which is no
    error when nobody has signed in yet (``GET /me`` answers 401 ``no_session`` then)."""
    player = await session_player(server, request.cookies.get(COOKIE_NAME))
    return None if player is None else _me(player)


@router.post("/register", response_model=Me)
async def register(body: Credentials, request: Request, response: Response, server: Context) -> Me:
    """Give your guest player (or a new one) a login name and password.

    The name must be free whatever its case: neither registered nor used by a guest
    other than you (409 ``name_taken``), nor read as a computer player's (422
    ``name_like_computer``)."""
    _refuse_computer_name(body.name)
    reservation = await _reserve(
        server.limits.registrations,
        "registration_throttled",
        "too many registrations from this address; try again later",
        f"address:{client_address(request)}",
    )
    player = await session_player(server, request.cookies.get(COOKIE_NAME))
    if player is not None and player.login_name is not None:
        await reservation.give_back()
        raise ApiError(409, "already_registered", "this player is already registered")
    besides = None if player is None else player.id
    like = await server.storage.name_like(body.name, besides=besides)
    if like is not None:
        await reservation.give_back()
        raise _name_taken(body.name, like)
    password_hash = await server.passwords.hash(body.password)
    try:
        if player is None:
            player = PlayerRow(
                id=secrets.token_hex(12),
                name=body.name,
                login_name=body.name,
                password_hash=password_hash,
                created_at=time.time(),
                session_epoch=0,
            )
            await server.storage.register(player, body.name, password_hash)
        else:
            await server.storage.register(player.id, body.name, password_hash)
    except StorageError:
        raise _name_taken(body.name) from None
    _set_session(response, server, player)
    await _trace(request, response, server, player)
    log_event(None, "registered", player=player.id)
    return Me(player_id=player.id, name=body.name, registered=True)


@router.post("/login", response_model=Me)
async def login(body: Credentials, request: Request, response: Response, server: Context) -> Me:
    """Log in with a login name in any case.  At most ``login_attempts_per_minute``
    attempts per name and per address are checked in a minute; the others (a right
    password among them) are refused with 429 ``login_throttled``."""
    reservation = await _reserve(
        server.limits.logins,
        "login_throttled",
        "too many failed logins; try again later",
        f"name:{body.name.lower()}",
        f"address:{client_address(request)}",
    )
    player = await server.storage.player_by_login(body.name)
    password_hash = None if player is None else player.password_hash
    if not await server.passwords.check(password_hash, body.password) or player is None:
        log_event(None, "login_failed")
        raise ApiError(401, "bad_login", "wrong name or password")
    await reservation.give_back()
    sanctions = await server.storage.sanctions(player.id, server.tables.clock.now())
    if any(s.kind == "closed" for s in sanctions):
        raise ApiError(403, "account_closed", "this account is closed")
    _set_session(response, server, player)
    await _trace(request, response, server, player)
    log_event(None, "login", player=player.id)
    return _me(player)


@router.post("/logout")
async def logout(request: Request, response: Response, server: Context) -> dict[str, bool]:
    """End the session: every session cookie of the player (on any device) stops
    working.  A guest who logs out cannot come back as that guest."""
    player = await session_player(server, request.cookies.get(COOKIE_NAME))
    if player is not None:
        epoch = await server.storage.end_sessions(player.id)
        server.sessions.revoke(player.id, epoch)
        await server.tables.sign_out(player.id)
        if server.tables.cluster is not None:
            server.tables.cluster.signed_out(player.id)
        log_event(None, "logout", player=player.id)
    response.delete_cookie(COOKIE_NAME, path="/")
    return {"ok": True}
