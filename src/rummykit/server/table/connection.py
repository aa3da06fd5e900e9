"""One client connection at a table: who it is, what it was sent, and its outbox.

A connection's seat is written only by its table host (``TableHost`` binds it when it
attaches and whenever its player takes or gives up a seat); nothing outside the host
may set it.  The host never awaits a client: messages go into the outbox, which the
transport drains.  A connection whose outbox overflows is closed (``closed`` is set
and a ``None`` is queued for the transport).
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

OUTBOX_LIMIT = 512

CLOSE_NORMAL = 1000
CLOSE_SERVICE_RESTART = 1012
"""The table moved (its host here stopped, or the worker serving it is cut off): connect
again now, through any server process, to reach its next host."""
CLOSE_TRY_AGAIN = 1013
"""The table exists but cannot be reached at the moment: connect again after a while."""


class Connection:
    """A player's (or watcher's) connection to one table."""

    def __init__(self, *, player_id: str, name: str, token: str | None = None) -> None:
        self.player_id = player_id
        self.name = name
        # the invitation token the client came with (checked by the host for a private table)
        self.token = token
        # the seat whose views this connection is sent; ``None`` for a watcher or before
        # the host has attached it (set by the host only)
        self.seat: int | None = None
        self.attached = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.events_sent = 0
        self.closed = False
        # the WebSocket close code the transport ends the socket with (see CLOSE_*)
        self.close_code = CLOSE_NORMAL

    def send(self, message: BaseModel) -> None:
        if not self.closed:
            self.send_text(message.model_dump_json())

    def send_text(self, text: str) -> None:
        """Queue a message already serialised."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self, close_code: int = CLOSE_NORMAL) -> None:
        """Close the connection; the transport ends the socket with ``close_code``."""
        if not self.closed:
            self.closed = True
            self.close_code = close_code
            self.outbox.put_nowait(None)
