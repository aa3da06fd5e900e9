"""Chat and hints at one table.

Chat is limited per player (all of a player's connections together), stored, then
sent to everyone at the table; its latest lines are kept (rebuilt from storage when a
table is restored) and sent to each new connection, so a reload keeps the chat.  A
hint is the strongest bot's move for the seat to move, worked out in the bot workers
from that seat's observation only, with a budget of iterations and a seed made of that
observation and the table's public seed commitment (so a position always gets the same
hint, and the game's review agrees with it); one hint at a time per seat (however many
connections the seat has), and the answer goes back through the host so it reaches a
connection only if it still speaks for that seat.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import TYPE_CHECKING

from rummykit.server.commands import HintReady
from rummykit.server.connection import Connection
from rummykit.server.events_log import log_event
from rummykit.server.models import ChatRow
from rummykit.server.protocol import (
    ChatBroadcast,
    ChatHistory,
    ErrorMessage,
    HintMessage,
    ReasonPhrase,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from rummykit.server.host import TableHost

CHAT_WINDOW_SECONDS = 60.0
# the chat lines a new connection is sent
CHAT_KEPT = 100


class TableTalk:
    """Chat and hints of one table."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self._chat_times: dict[str, deque[float]] = {}
        self._hinting: set[int] = set()
        self._said: deque[ChatBroadcast] = deque(maxlen=CHAT_KEPT)

    def remember(self, rows: list[ChatRow]) -> None:
        """Keep the latest of a restored table's stored chat lines."""
        for row in rows[-CHAT_KEPT:]:
            self._said.append(ChatBroadcast(seat=row.seat, name=row.name, text=row.text, at=row.at))

    def history(self) -> ChatHistory | None:
        """The chat so far for a new connection (``None`` when nothing was said)."""
        return ChatHistory(messages=list(self._said)) if self._said else None

    async def chat(self, connection: Connection, text: str) -> None:
        host = self.host
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
        if not clean:
            host.views.refuse(connection, "chat_empty", "the chat message is empty")
            return
        times.append(now)
        await host.storage.add_chat(
            ChatRow(
                table_id=host.table_id,
                seat=connection.seat,
                player_id=connection.player_id,
                name=connection.name,
                text=clean,
                at=now,
            )
        )
        log_event(host.table_id, "chat", seat=connection.seat, length=len(clean))
        line = ChatBroadcast(seat=connection.seat, name=connection.name, text=clean, at=now)
        self._said.append(line)
        host.views.send_all(line)

    def hint(self, connection: Connection) -> None:
        host = self.host
        seat = connection.seat
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
