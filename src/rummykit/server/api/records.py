"""What ``GET /api/tables/{id}/record`` answers, built off the event loop.

Once a game is over its answer is the full record (``rummykit-record``: seed revealed,
what ``rummykit replay`` and ``rummykit verify`` read) with ``table_id``, ``nonce``,
``commitment`` and ``chat`` added; while it runs, the game as the reader sees it
(``rummykit-view``: a seat's own observation and events, or a watcher's common view).
Either way the engine replays every stored action, a tenth of a second for a long game,
which the event loop serving every live table must not wait for: :func:`build` takes
only plain values (:class:`RecordSource`, read out of the database rows in the loop)
so that it can run in a worker thread.  This module decides nothing about who may read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.games.core import rules_from_json
from rummykit.games.record import GameRecord
from rummykit.games.registry import game_named
from rummykit.server.bots.names import seat_names
from rummykit.server.storage.store import StoredTable
from rummykit.server.table.views import watcher_events, watcher_observation


@dataclass(frozen=True, kw_only=True)
class RecordSource:
    """A stored table as plain values, safe to hand to another thread."""

    table_id: str
    game: str
    rules: dict[str, Any]
    seed: int
    nonce: str
    commitment: str
    over: bool
    actions: tuple[str, ...]
    players: tuple[str, ...]
    chat: tuple[dict[str, Any], ...]
    # how the game ended when it was not played to its end (``abandoned``, ``aborted``)
    ended_by: str | None = None
    winners: tuple[int, ...] | None = None

    @classmethod
    def of(cls, stored: StoredTable) -> RecordSource:
        table = stored.table
        return cls(
            table_id=table.id,
            game=table.game,
            rules=dict(table.rules),
            seed=table.seed,
            nonce=table.nonce,
            commitment=table.commitment,
            over=table.revealed,
            actions=tuple(row.action for row in stored.actions),
            players=seat_names(stored.seats),
            chat=tuple(
                {"seat": c.seat, "name": c.name, "text": c.text, "at": c.at} for c in stored.chat
            ),
            ended_by=table.ended_by,
            winners=None if table.winners is None else tuple(table.winners),
        )


def build(source: RecordSource, seat: int | None) -> dict[str, Any]:
    """The full record once the game is over; before, the view of ``seat`` (a watcher's
    common view when ``None``)."""
    game = game_named(source.game)
    rules = rules_from_json(game.rules_type, source.rules)
    state = game.new_state(rules, source.seed)
    for action in source.actions:
        state.apply(game.parse_action(action))
    chat = [dict(line) for line in source.chat]
    if source.over:
        full = GameRecord(
            game=game.name,
            rules=rules,
            seed=source.seed,
            actions=source.actions,
            totals=tuple(state.totals),
            players=source.players,
        ).to_json()
        full.update(
            table_id=source.table_id,
            nonce=source.nonce,
            commitment=source.commitment,
            chat=chat,
        )
        if source.ended_by is not None:  # not played to its end: its actions stop short
            full.update(ended_by=source.ended_by, winners=list(source.winners or ()))
        return full
    if seat is None:
        seats = range(state.num_players)
        observation = watcher_observation([state.observation(p).to_json() for p in seats])
        events = watcher_events([[e.to_json() for e in state.events_for(p)] for p in seats])
    else:
        observation = state.observation(seat).to_json()
        events = [e.to_json() for e in state.events_for(seat)]
    return {
        "format": "rummykit-view",
        "format_version": 1,
        "table_id": source.table_id,
        "game": game.name,
        "rules": source.rules,
        "players": list(source.players),
        "seat": seat,
        "state_number": len(source.actions),
        "actions": list(source.actions),
        "events": events,
        "observation": observation,
        "commitment": source.commitment,
        "chat": chat,
    }
