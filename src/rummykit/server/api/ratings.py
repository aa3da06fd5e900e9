"""The rating routes: ``GET /api/leaderboard`` and ``GET /api/players/{player_id}``.

Both are public (no session needed): a leaderboard and a profile show names, ratings
and public games only (``leaderboard.py`` says what is left out).
"""

from __future__ import annotations

import re
from typing import Final

from fastapi import APIRouter

from rummykit.server.api.context import ApiError, Context
from rummykit.server.api.lobby import ERRORS
from rummykit.server.competition.leaderboard import (
    Leaderboard,
    Period,
    Profile,
    leaderboard,
    profile,
)
from rummykit.server.protocol.lobby import GameName

router = APIRouter(prefix="/api", responses=ERRORS)

PLAYER_ID: Final = re.compile(r"[0-9a-f]{1,32}")


@router.get("/leaderboard", response_model=Leaderboard)
async def game_leaderboard(server: Context, game: GameName, period: Period = "all") -> Leaderboard:
    """The game's leaderboard, one board per pool: ``all`` time, or the players of the
    last 30 days (``30d``)."""
    return await leaderboard(server.storage, game, period, server.tables.clock.now())


@router.get("/players/{player_id}", response_model=Profile)
async def player_profile(player_id: str, server: Context) -> Profile:
    """A player's ratings per pool, their rating history and their recent public games."""
    found = await profile(server.storage, player_id) if PLAYER_ID.fullmatch(player_id) else None
    if found is None:
        raise ApiError(404, "unknown_player", "there is no such player")
    return found
