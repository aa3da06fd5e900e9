"""Chat and hints at one table.

Chat is limited per player (all of a player's connections together), its words a host
blocks masked (``chat_filter.py``), stored, then sent to everyone at the table (a
muted player's lines reach only themselves); its latest lines are kept (rebuilt from storage when a
table is restored) and sent to each new connection, so a reload keeps the chat.  A
hint is the strongest bot's move for the seat to move, worked out in the bot workers
from that seat's observation only, with a budget of iterations and a seed made of that
observation and the table's public seed commitment (so a position always gets the same
hint, and the game's review agrees with it); one hint at a time per seat (however many
connections the seat has), and the answer goes back through the host so it reaches a
connection only if it still speaks for that seat.  No hint is given while a rated or
tournament game is played (:mod:`~rummykit.server.table.fair_play`).
"""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING, Protocol

from rummykit.server.operations.events_log import log_event
from rummykit.server.protocol.messages import (
    ChatBroadcast,
    ChatHistory,
    ErrorMessage,
    HintMessage,
    ReasonPhrase,
)
from rummykit.server.storage.models import ChatRow
from rummykit.server.table.broadcast import TableViews
from rummykit.server.table.chat_filter import blocked_keys, mask
from rummykit.server.table.commands import HintReady
from rummykit.server.table.connection import Connection
from rummykit.server.table.fair_play import hints_allowed
from rummykit.server.table.parts import TableCore

if TYPE_CHECKING:
    from pydantic import BaseModel


CHAT_WINDOW_SECONDS = 60.0
# the chat lines a new connection is sent
CHAT_KEPT = 100


class TalkingTable(TableCore, Protocol):
    """What chat and hints ask of their table: its views, to send and to refuse."""

    views: TableViews


class TableTalk:
    """Chat and hints of one table."""

    def __init__(self, host: TalkingTable) -> None:
        self.host = host
        self._chat_times: dict[str, deque[float]] = {}
        self._hinting: set[int] = set()
        self._said: deque[ChatBroadcast] = deque(maxlen=CHAT_KEPT)
        # the lines said with a client's id, by player and id: said again, one is echoed
        self._by_client_id: dict[tuple[str, str], ChatBroadcast] = {}
        # the host's word filter, as look-alike keys
        self._blocked = blocked_keys(host.settings.chat_blocked_words)

    def remember(self, rows: list[ChatRow]) -> None:
        """Keep the latest of a restored table's stored chat lines."""
        for row in rows[-CHAT_KEPT:]:
            line = ChatBroadcast(
                seat=row.seat, name=row.name, text=row.text, at=row.at, client_id=row.client_id
            )
            self._said.append(line)
            if row.client_id is not None:
                self._by_client_id[row.player_id, row.client_id] = line

    def history(self) -> ChatHistory | None:
        """The chat so far for a new connection (``None`` when nothing was said)."""
        return ChatHistory(messages=list(self._said)) if self._said else None

    async def chat(self, connection: Connection, text: str, client_id: str | None = None) -> None:
        """Say ``text`` to everyone: limited per player, stored (under the table's lease),
        then sent.  A line its client sends again with the same ``client_id`` is said
        once; the sender is sent its echo again."""
        host = self.host
        if client_id is not None:
            said = self._by_client_id.get((connection.player_id, client_id))
            if said is not None:
                connection.send(said)
                return
        now = host.clock.now()
        times = self._chat_times.setdefault(connection.player_id, deque())
        while times and times[0] < now - CHAT_WINDOW_SECONDS:
            times.popleft()
        limit = host.settings.chat_per_minute
        if len(times) >= limit:
            host.views.refuse(
                connection,
                "chat_rate",
                "too many chat messages; wait a little",
                {"per_minute": limit},
            )
            return
        clean = "".join(ch for ch in text if ch.isprintable()).strip()
        clean = mask(clean, self._blocked)
        if not clean:
            host.views.refuse(connection, "chat_empty", "the chat message is empty")
            return
        times.append(now)
        sanctions = await host.storage.sanctions(connection.player_id, now)
        if any(s.kind == "mute" for s in sanctions):
            # a muted player's line reaches nobody else, and is not kept
            connection.send(
                ChatBroadcast(
                    seat=connection.seat,
                    name=connection.name,
                    text=clean,
                    at=now,
                    client_id=client_id,
                )
            )
            return
        row = ChatRow(
            table_id=host.table_id,
            seat=connection.seat,
            player_id=connection.player_id,
            name=connection.name,
            text=clean,
            at=now,
            client_id=client_id,
        )
        line = ChatBroadcast(
            seat=connection.seat, name=connection.name, text=clean, at=now, client_id=client_id
        )
        if not await host.storage.add_chat(row, lease=host.write_lease()):
            # stored already, by an owner of this table that stopped before sending it
            connection.send(line)
            return
        log_event(host.table_id, "chat", seat=connection.seat, length=len(clean))
        self._said.append(line)
        if client_id is not None:
            if len(self._by_client_id) >= 4 * CHAT_KEPT:
                self._by_client_id.clear()  # the database's unique index still holds
            self._by_client_id[connection.player_id, client_id] = line
        host.views.send_all(line)

    def hint(self, connection: Connection) -> None:
        host = self.host
        seat = connection.seat
        if not hints_allowed(host.row):
            host.views.refuse(
                connection,
                "hint_not_allowed",
                "no hints while a rated or tournament game is played",
            )
            return
        if seat is None or seat != host.mover():
            host.views.refuse(connection, "hint_not_your_turn", "hints are for the player to move")
            return
        if seat in self._hinting:
            host.views.refuse(connection, "hint_pending", "a hint is already being worked out")
            return
        self._hinting.add(seat)
        number = host.state_number
        observation = host.views.observation(seat)
        legal = host.views.legal_texts()
        iterations = host.settings.hint_iterations
        salt = host.row.commitment
        player = connection.player_id

        async def work() -> None:
            message: BaseModel
            try:
                action, reason = await host.runner.hint(
                    host.game.name, observation, legal, iterations, salt, owner=player
                )
            except Exception as error:
                code = getattr(error, "code", None)
                if not isinstance(code, str):
                    log_event(host.table_id, "hint_failed", level=logging.ERROR, error=repr(error))
                    code = "hint_failed"
                message = ErrorMessage(
                    code=code, message="no hint could be made now", state_number=number
                )
            else:
                message = HintMessage(
                    state_number=number,
                    action=action,
                    reason=reason.text,
                    reason_phrases=[ReasonPhrase.model_validate(p) for p in reason.to_json()],
                )
            host.submit(HintReady(connection, seat, message))

        log_event(host.table_id, "hint", seat=seat, n=number)
        host.spawn(work())

    def hint_ready(self, command: HintReady) -> None:
        self._hinting.discard(command.seat)
        if self.host.seating.may_see(command.connection, command.seat):
            command.connection.send(command.message)
