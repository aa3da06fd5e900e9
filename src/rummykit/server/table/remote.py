"""The two ends of a table whose host runs in another server process.

A client's WebSocket lands on whichever process the load balancer picks (its
*gateway*); the table's host runs in the process holding the table's lease (its
*owner*).  At the gateway a :class:`RemoteTable` stands for the host: the socket
handler and the lobby hand it the same commands they hand a local host, and it sends
them on the owner's channel.  At the owner a :class:`RemoteConnection` stands for the
client: the host attaches it, binds its seat and sends it views exactly as it does a
local connection, and whatever it is sent goes back on the gateway's channel.

So what a seat may see is still decided by the owner's host alone, at the moment of
sending: the gateway passes on the player id of the signed session, never a seat.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rummykit.server.clock import Clock, SystemClock, Timer
from rummykit.server.protocol.messages import ErrorMessage
from rummykit.server.protocol.refusals import TableError
from rummykit.server.storage.models import SeatRow, TableRow
from rummykit.server.table.commands import (
    Attach,
    ClientAction,
    ClientChat,
    ClientClaim,
    ClientFocusLost,
    ClientHint,
    ClientSubstitute,
    Command,
    Detach,
    Join,
    Leave,
    RematchMade,
)
from rummykit.server.table.connection import CLOSE_NORMAL, CLOSE_SERVICE_RESTART, Connection

Publish = Callable[[str, dict[str, Any]], None]
"""Send an envelope (a JSON object) on a worker's channel, named by the worker's id."""

REPLY_SECONDS = 10.0
"""How long a gateway waits for the owner's answer to a join or leave."""

ANSWER_SECONDS = 5.0
"""How long a gateway waits for the owner to send anything to a client that sent an
action or a chat line before it takes the command as lost: the client is told
``table_unavailable`` and its socket is closed with "service restart", so it reconnects
and reads the table's state afresh (an owner that applied the command sends the new
state then; one that never heard it is asked again by the client)."""


class RemoteConnection(Connection):
    """A client connected through another process (``gateway``), as its table's host sees
    it: what it is sent is published to the gateway, tagged with the connection's id."""

    def __init__(
        self,
        *,
        connection_id: str,
        gateway: str,
        player_id: str,
        name: str,
        token: str | None,
        publish: Publish,
    ) -> None:
        super().__init__(player_id=player_id, name=name, token=token)
        self.connection_id = connection_id
        self.gateway = gateway
        self._publish = publish

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        self._publish(self.gateway, {"k": "send", "c": self.connection_id, "x": text})

    def close(self, close_code: int = CLOSE_NORMAL) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = close_code
            self._publish(self.gateway, {"k": "close", "c": self.connection_id, "cd": close_code})


class RemoteTable:
    """A table hosted by the process ``owner``, as the gateway's handlers use it.

    It answers what the handlers ask before they hand a command over (``may_watch``,
    ``seat_of``) from the table's stored row and seats; the owner's host checks again
    when the command arrives.  Join and leave wait for the owner's answer, at most
    :data:`REPLY_SECONDS`.
    """

    def __init__(
        self,
        *,
        row: TableRow,
        seats: list[SeatRow],
        owner: str,
        gateway: str,
        publish: Publish,
        connections: dict[str, tuple[Connection, RemoteTable]],
        replies: dict[str, asyncio.Future[Any]],
        clock: Clock | None = None,
    ) -> None:
        self.table_id = row.id
        self.clock: Clock = clock or SystemClock()
        self.row = row
        self._seats = seats
        self.owner = owner
        self.gateway = gateway
        self._publish = publish
        self._connections = connections
        self._replies = replies
        self._ids: dict[int, str] = {}  # id(connection) -> connection id
        self.state_number = 0
        self.stopped = False
        # between owners (the owner let the table go, the next one not yet known): the
        # commands of this table's clients wait here, to go to the next owner
        self.held: list[tuple[str, dict[str, Any]]] | None = None
        self.asked: set[asyncio.Future[Any]] = set()  # joins and leaves not yet answered
        # connection id -> the watch on its action or chat line that nothing answered yet
        self._unanswered: dict[str, Timer] = {}
        # connection id -> that command, as sent to the owner (sent again after a move)
        self._unsure: dict[str, tuple[str, dict[str, Any]]] = {}

    def seat_of(self, player_id: str) -> int | None:
        for seat in self._seats:
            if seat.player_id == player_id:
                return seat.seat
        return None

    def may_watch(self, player_id: str, token: str | None) -> bool:
        """As :meth:`TableHost.may_watch`, from the stored seats."""
        if not self.row.private or self.seat_of(player_id) is not None:
            return True
        if any(seat.kept_for == player_id for seat in self._seats):
            return True
        return self.row.invites(token)

    def submit(self, command: Command) -> None:
        """Send ``command`` to the owner (a join or leave: its answer sets the result)."""
        match command:
            case Attach(connection):
                connection_id = secrets.token_hex(8)
                self._ids[id(connection)] = connection_id
                self._connections[connection_id] = (connection, self)
                self._attach(connection_id, connection)
            case Detach(connection):
                connection_id = self._ids.pop(id(connection), "")
                self.answered(connection_id)
                if self._connections.pop(connection_id, None) is not None:
                    self._send("detach", c=connection_id)
            case ClientAction(connection, state_number, action):
                self._send_watched("act", connection, sn=state_number, a=action)
            case ClientChat(connection, text, client_id):
                self._send_watched("chat", connection, x=text, i=client_id)
            case ClientHint(connection):
                self._send("hint", c=self._ids.get(id(connection)))
            case ClientClaim(connection):
                self._send_watched("claim", connection)
            case ClientSubstitute(connection):
                self._send_watched("sub", connection)
            case ClientFocusLost(connection, state_number):
                self._send("blur", c=self._ids.get(id(connection)), sn=state_number)
            case Join(player_id, name, seat, result):
                self._ask(result, "join", p=player_id, n=name, s=seat)
            case Leave(player_id, result):
                self._ask(result, "leave", p=player_id)
            case RematchMade(table_id, invite_token, by):
                self._send("rematch", nt=table_id, tok=invite_token, by=by)
            case _:  # pragma: no cover - the handlers send nothing else
                raise TypeError(f"a remote table takes no {type(command).__name__}")

    def _attach(self, connection_id: str, connection: Connection) -> None:
        """Attach a client at the owner, under ``connection_id`` (the player id of its
        signed session, never a seat: the owner's host seats it)."""
        self._send(
            "attach",
            c=connection_id,
            p=connection.player_id,
            n=connection.name,
            tok=connection.token,
        )

    def _send_watched(self, kind: str, connection: Connection, **fields: Any) -> None:
        """Send a client's command that the owner must answer: watched, and kept until
        answered so that a move to another owner sends it there too."""
        connection_id = self._watch(connection)
        if connection_id is not None and self.held is None:
            self._unsure[connection_id] = (kind, fields)
        self._send(kind, c=connection_id, **fields)

    def _watch(self, connection: Connection) -> str | None:
        """The id of ``connection``, whose command is about to go out: unless something
        reaches it from the owner within :data:`ANSWER_SECONDS`, the command is lost."""
        connection_id = self._ids.get(id(connection))
        if connection_id is not None and connection_id not in self._unanswered:
            self._arm(connection_id)
        return connection_id

    def _arm(self, connection_id: str) -> None:
        """Watch ``connection_id`` for an answer from now, for :data:`ANSWER_SECONDS`."""
        watch = self._unanswered.get(connection_id)
        if watch is not None:
            watch.cancel()
        self._unanswered[connection_id] = self.clock.call_at(
            self.clock.now() + ANSWER_SECONDS, lambda: self._lost(connection_id)
        )

    def answered(self, connection_id: str) -> None:
        """The owner sent the client ``connection_id`` something: it is heard."""
        self._unsure.pop(connection_id, None)
        watch = self._unanswered.pop(connection_id, None)
        if watch is not None:
            watch.cancel()

    def _lost(self, connection_id: str) -> None:
        if self.held is not None:  # between owners: the next one will answer
            self._arm(connection_id)
            return
        self._unanswered.pop(connection_id, None)
        self._unsure.pop(connection_id, None)
        found = self._connections.get(connection_id)
        if found is None or found[1] is not self:
            return
        connection = found[0]
        connection.send(
            ErrorMessage(
                code="table_unavailable",
                message="the table is busy; try again",
                state_number=self.state_number,
            )
        )
        connection.close(CLOSE_SERVICE_RESTART)

    def _send(self, kind: str, **fields: Any) -> None:
        if self.held is not None and kind != "attach":
            self.held.append((kind, fields))
            return
        self._publish(self.owner, {"k": kind, "t": self.table_id, "g": self.gateway, **fields})

    def between_owners(self) -> None:
        """The owner let the table go: hold the clients' commands (and their sockets)
        until :meth:`move_to` names the next owner, or :meth:`owner_gone` gives up."""
        if self.held is None:
            self.held = []

    def move_to(self, owner: str) -> None:
        """The table's lease moved to ``owner``: attach this table's clients there under
        their connection ids, then send it the commands the former owner did not answer
        (it may never have played them: the new owner refuses one it did as stale) and
        those held meanwhile.  The clients keep their sockets; the new owner's host
        sends each its view at once, and has the whole :data:`ANSWER_SECONDS` for every
        command still unanswered (a slow hand-over is not the new owner's silence).  A
        join or leave still waiting for the former owner gets no answer from it: its
        caller is told to try again."""
        self.owner = owner
        held, self.held = self.held or [], None
        for connection_id, (connection, table) in list(self._connections.items()):
            if table is self:
                self._attach(connection_id, connection)
        for connection_id in list(self._unanswered):
            self._arm(connection_id)
        for connection_id, (kind, fields) in list(self._unsure.items()):
            self._send(kind, c=connection_id, **fields)
        for result in list(self.asked):  # asked of the former owner, or held: retried
            _give_up(result)
        for kind, fields in held:
            if kind not in ("join", "leave"):
                self._send(kind, **fields)

    def _ask(self, result: asyncio.Future[Any], kind: str, **fields: Any) -> None:
        request_id = secrets.token_hex(8)
        self._replies[request_id] = result
        self.asked.add(result)
        result.add_done_callback(lambda _: self._replies.pop(request_id, None))
        result.add_done_callback(self.asked.discard)
        self.clock.call_at(self.clock.now() + REPLY_SECONDS, lambda: _give_up(result))
        self._send(kind, r=request_id, **fields)

    def owner_gone(self) -> None:
        """The owner died or let the table go, or this gateway can no longer reach it:
        close this table's clients here with "service restart" (they reconnect, through
        any process, to the table's next owner)."""
        self.stopped = True
        self.held = None
        self._unsure.clear()
        for watch in self._unanswered.values():
            watch.cancel()
        self._unanswered.clear()
        for connection, table in list(self._connections.values()):
            if table is self:
                connection.close(CLOSE_SERVICE_RESTART)
        for result in list(self.asked):  # no answer will come: the caller tries again
            _give_up(result)


@dataclass(frozen=True)
class Refusal:
    """An owner's refusal of a join or leave, as it crosses a channel (the fields of
    the ``TableError`` the owner's host raised, raised again at the gateway)."""

    code: str
    message: str
    params: dict[str, Any]

    @classmethod
    def of(cls, error: TableError) -> dict[str, Any]:
        return {"code": error.code, "message": error.message, "params": error.params}

    @classmethod
    def read(cls, data: object) -> TableError:
        """The error ``data`` (from :meth:`of`) stands for; a garbled one is a
        ``table_unavailable`` (the caller may retry)."""
        fields = data if isinstance(data, dict) else {}
        code, message = fields.get("code"), fields.get("message")
        params = fields.get("params")
        if not isinstance(code, str) or not isinstance(message, str):
            return TableError("table_unavailable", "the table is busy; try again")
        refusal = cls(code, message, params if isinstance(params, dict) else {})
        return TableError(refusal.code, refusal.message, refusal.params)


def _give_up(result: asyncio.Future[Any]) -> None:
    """No answer from the owner (it died, or the table moved): the caller may retry."""
    if not result.done():
        result.set_exception(TableError("table_unavailable", "the table is busy; try again"))


def envelope(data: bytes | str) -> dict[str, Any] | None:
    """An envelope read from a channel; ``None`` for anything that is not a JSON object
    with a kind (the channels are the workers' own, so this is only a guard)."""
    try:
        found = json.loads(data)
    except ValueError:
        return None
    return found if isinstance(found, dict) and isinstance(found.get("k"), str) else None
