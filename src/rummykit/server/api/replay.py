"""The replay endpoint (``GET /api/tables/{id}/replay``): a game step by step, as views.

A browser knows no rules, so it cannot turn a record's seed and actions into positions;
this endpoint replays the stored actions with the engine and answers the observation
after each one.  While the game runs, a player gets their own seat's views only; once it
is over anyone who may read the record gets any seat's views, and with ``full=true``
every hand at every step (the seed is public by then, so nothing is hidden any more).
The replay runs in a worker thread: a long game takes a noticeable fraction of a second,
which the event loop, serving every live table, must not wait for.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, NamedTuple

from fastapi import APIRouter

from rummykit.games.core import rules_from_json
from rummykit.games.registry import AnyGame, game_named
from rummykit.server.api.context import ApiError
from rummykit.server.api.lobby import ERRORS, Context, Player
from rummykit.server.api.table_access import TableId, check_read

router = APIRouter(prefix="/api", responses=ERRORS)

MAX_STEPS = 5000


@router.get("/tables/{table_id}/replay")
async def replay(
    table_id: TableId,
    player: Player,
    server: Context,
    seat: int | None = None,
    full: bool = False,
    token: str | None = None,
) -> dict[str, Any]:
    """Every position of the game as ``seat`` saw it (your own seat by default), with the
    action that led to it; ``full`` adds every player's hand once the game is over.  A
    private table is replayed only for its players or with its ``token``."""
    stored = await server.storage.load_table(table_id)
    if stored is None:
        raise ApiError(404, "not_found", "there is no such table")
    table = stored.table
    over = table.revealed
    own = check_read(table, stored.seats, player.id, token)
    viewer = own if seat is None else seat
    if viewer is None:
        if not over:
            raise ApiError(403, "not_a_player", "a running game is replayed by its players")
        viewer = 0
    if not 0 <= viewer < len(stored.seats):
        raise ApiError(400, "no_such_seat", "there is no such seat", {"seat": viewer})
    if not over and viewer != own:
        raise ApiError(403, "not_your_seat", "a running game shows only your own seat")
    if len(stored.actions) > MAX_STEPS:
        raise ApiError(400, "too_long", "this game is too long to replay here")
    game = game_named(table.game)
    rules = rules_from_json(game.rules_type, table.rules)
    rows = [Row(row.seat, row.action, row.actor) for row in stored.actions]
    build = partial(
        _steps, game, game.new_state(rules, table.seed), rows, viewer=viewer, hands=full and over
    )
    steps = await asyncio.to_thread(build)
    players = [
        {"seat": s.seat, "name": s.name or "", "kind": s.kind, "level": s.level}
        for s in stored.seats
    ]
    return {
        "table_id": table.id,
        "game": game.name,
        "rules": table.rules,
        "players": players,
        "seat": viewer,
        "own_seat": own,
        "over": over,
        "steps": steps,
    }


class Row(NamedTuple):
    """One stored action, read out of the database row before the replay leaves the
    event loop."""

    seat: int
    action: str
    actor: str


def _steps(
    game: AnyGame, state: Any, rows: list[Row], *, viewer: int, hands: bool
) -> list[dict[str, Any]]:
    """Each position from the deal ``state`` on as ``viewer`` sees it, with the action
    that led to it; with ``hands``, every player's hand too."""
    seats = range(state.num_players)

    def step(row: Row | None) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "state_number": len(state.actions),
            "seat": None if row is None else row.seat,
            "action": None if row is None else row.action,
            "actor": None if row is None else row.actor,
            "observation": state.observation(viewer).to_json(),
        }
        if hands:
            entry["hands"] = [state.observation(p).to_json()["hand"] for p in seats]
        return entry

    steps = [step(None)]
    for row in rows:
        state.apply(game.parse_action(row.action))
        steps.append(step(row))
    return steps
