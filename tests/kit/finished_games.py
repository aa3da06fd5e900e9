"""Finished games stored as a server stores them, for tests of what happens after a game
(its fair-play assessment): a short Three-Thirteen game played by bots, each seat a
person's (``player_id`` given) or a bot's, every action stored with who made it and when."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from rummykit.bots.base import Bot
from rummykit.bots.levels import make_bot
from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.storage.models import SeatRow
from rummykit.server.storage.store import Storage
from tests.kit.factories import three_thirteen_row

RULES = {"first_round": 3, "last_round": 4, "players": 2}
STARTED = 1_700_000_000.0
"""When the stored games start (the kit's fake clock starts here too)."""
SECONDS_A_MOVE = 2.5


async def store_finished_game(
    storage: Storage,
    players: Sequence[str | None],
    *,
    rated: bool = True,
    ended_by: str | None = None,
    seed: int = 1,
    bots: Sequence[Bot] | None = None,
) -> str:
    """A finished game of two seats (``players``: a player id, or ``None`` for a bot's
    seat) played by ``bots`` (by default greedy against random); its table id."""
    info = game_named("three-thirteen")
    state = info.new_state(rules_from_json(info.rules_type, RULES), seed)
    row = three_thirteen_row(
        creator_id=None, rules=RULES, seed=seed, rated=rated, created_at=STARTED,
        started_at=STARTED, commitment=secrets.token_hex(32),
    )  # fmt: skip
    seats = [
        SeatRow(table_id=row.id, seat=seat, kind="human", player_id=player, name=player)
        if player is not None
        else SeatRow(table_id=row.id, seat=seat, kind="bot", level="greedy")
        for seat, player in enumerate(players)
    ]
    await storage.add_table(row, seats)
    players_bots = list(bots or [make_bot(info.name, "greedy"), make_bot(info.name, "random")])
    rng = random.Random(seed)
    at = STARTED
    number = 0
    while state.current_player is not None:
        seat = state.current_player
        legal = list(state.legal_actions())
        action = players_bots[seat].decide(state.observation(seat), legal, rng).action
        state.apply(action)
        at += SECONDS_A_MOVE * (1 + number % 3)
        actor = "human" if players[seat] is not None else "bot"
        await storage.append_action(row.id, number, seat, info.format_action(action), actor, at)
        number += 1
    await storage.finish_table(
        row.id, at, list(state.totals), list(state.winners), ended_by=ended_by
    )
    return str(row.id)
