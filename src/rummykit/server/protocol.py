"""The table protocol: every WebSocket message, both directions, as pydantic models.

These models are the protocol's single source: the server validates what clients send
with them, builds what it sends with them, and :func:`json_schema` publishes their JSON
Schema (``GET /api/protocol/schema``, docs/protocol.md).  The protocol is versioned by
:data:`PROTOCOL_VERSION`: adding an optional field or a message type keeps it; renaming,
removing or changing the meaning of a field bumps it.  This module describes messages
only; it never touches a table, a socket or the database.

Observations and events inside ``state`` messages are the engine's own JSON
(docs/observations.md): the protocol carries them untouched.

>>> parse_client_message('{"type": "action", "state_number": 3, "action": "draw"}')
ActionMessage(type='action', state_number=3, action='draw')
>>> try:
...     parse_client_message('{"type": "dance"}')
... except ProtocolError as error:
...     print(error.code, "-", error.message)
unknown_type - unknown message type 'dance'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION: Final = 1
MAX_ACTION_TEXT: Final = 200
MAX_CHAT_TEXT: Final = 300
MAX_NAME: Final = 32

JsonObject = dict[str, Any]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------------------------
# Client -> server


class ActionMessage(_Message):
    """Play ``action`` (the engine's action notation) against state ``state_number``."""

    type: Literal["action"] = "action"
    state_number: Annotated[int, Field(ge=0, le=10_000_000)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_TEXT)]


class ChatMessage(_Message):
    """Say ``text`` to everyone at the table (players and watchers)."""

    type: Literal["chat"] = "chat"
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_TEXT)]


class HintRequest(_Message):
    """Ask for the strongest bot's move; only the seat to move may ask."""

    type: Literal["hint"] = "hint"


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    ActionMessage | ChatMessage | HintRequest | Ping, Field(discriminator="type")
]
CLIENT_TYPES: Final = ("action", "chat", "hint", "ping")

# ---------------------------------------------------------------------------------------
# Server -> client


class PlayerInfo(_Message):
    """Who sits at ``seat``: a human (``level`` null) or a bot of ``level``.

    ``connected`` is whether the human has a live connection (bots are always
    connected); ``substitute`` is true while a bot plays for an absent human.
    """

    seat: int
    name: str
    kind: Literal["human", "bot"]
    level: str | None = None
    connected: bool
    substitute: bool = False


class TurnInfo(_Message):
    """Whose turn it is; ``deadline`` (unix seconds) and ``seconds_left`` are null when
    the table has no turn timer."""

    player: int
    deadline: float | None = None
    seconds_left: float | None = None


class LastAction(_Message):
    """The action that produced this state and who made it: ``human`` (the seat's
    player), ``bot`` (a bot seat), ``timeout`` (greedy after the turn timer ran out) or
    ``substitute`` (a bot for an absent player)."""

    seat: int
    action: str
    actor: Literal["human", "bot", "timeout", "substitute"]
    reason: str | None = None


class StateMessage(_Message):
    """The table after a change, as one seat (or a watcher, ``seat`` null) may see it.

    ``observation`` is the engine's observation JSON for ``seat``; a watcher receives
    what every seat sees alike (fields that differ between seats, such as ``hand``,
    are null).  ``events`` are the events this seat may see, in order, starting at
    index ``events_start`` of that seat's event log (on connecting, the latest few).
    ``legal_actions`` is non-empty only for the seat to move.
    """

    type: Literal["state"] = "state"
    protocol_version: int = PROTOCOL_VERSION
    table_id: str
    game: str
    status: Literal["waiting", "playing", "over"]
    state_number: int
    seat: int | None
    observation: JsonObject
    events_start: int
    events: list[JsonObject]
    legal_actions: list[str]
    players: list[PlayerInfo]
    turn: TurnInfo | None
    last_action: LastAction | None = None


class ErrorMessage(_Message):
    """A refusal.  Engine refusals keep the engine's ``code`` and ``params``; the
    server's own codes are listed in docs/protocol.md.  ``state_number`` is the table's
    state number when the refusal was made (null when there is no table context)."""

    type: Literal["error"] = "error"
    code: str
    params: JsonObject = Field(default_factory=dict)
    message: str
    state_number: int | None = None


class ChatBroadcast(_Message):
    """A chat line said at the table; ``seat`` is null for a watcher; ``at`` unix seconds."""

    type: Literal["chat"] = "chat"
    seat: int | None
    name: str
    text: str
    at: float


class ReasonPhrase(_Message):
    """One phrase of a bot's reason: a code of :data:`rummykit.bots.reasons.PHRASES`
    and its parameters (``card``/``cards`` hold card names, ``action``/``usual`` moves
    in the game's notation), for a client to say in its player's language."""

    code: str
    params: dict[str, int | str | list[str]]


class HintMessage(_Message):
    """The strongest bot's suggestion for the position at ``state_number``: ``reason``
    in English, ``reason_phrases`` the same as codes."""

    type: Literal["hint"] = "hint"
    state_number: int
    action: str
    reason: str
    reason_phrases: list[ReasonPhrase] = []


class GameOverMessage(_Message):
    """The game ended: final ``totals``, ``winners`` (seats), and the fair-deal proof:
    the ``seed`` and ``nonce`` whose SHA-256 ``commitment`` was published at creation
    (docs/protocol.md says how to check it; ``rummykit verify`` does)."""

    type: Literal["game_over"] = "game_over"
    table_id: str
    totals: list[int]
    winners: list[int]
    seed: int
    nonce: str
    commitment: str
    record_url: str


class Pong(_Message):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[
    StateMessage | ErrorMessage | ChatBroadcast | HintMessage | GameOverMessage | Pong,
    Field(discriminator="type"),
]

_CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
_SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)


class ProtocolError(ValueError):
    """A client message that is not valid: a server error ``code`` and an English message."""

    def __init__(self, code: str, message: str, params: JsonObject | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.params = params or {}

    def to_message(self, state_number: int | None = None) -> ErrorMessage:
        return ErrorMessage(
            code=self.code, params=self.params, message=self.message, state_number=state_number
        )


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one client message; :class:`ProtocolError` says what is wrong.

    Codes: ``bad_json`` (not JSON, or not an object), ``unknown_type`` (no or unknown
    ``type``), ``invalid_message`` (a field missing, extra or out of range).
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {kind!r}"[:120],
            {"type": kind if isinstance(kind, str) else None},
        )
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError(
            "invalid_message", f"{where}: {first['msg']}", {"field": where}
        ) from None


def parse_server_message(data: object) -> ServerMessage:
    """Validate a server message (used by clients and tests)."""
    return _SERVER_ADAPTER.validate_python(data)


def json_schema() -> JsonObject:
    """The protocol's JSON Schema: ``client`` and ``server`` message unions."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rummykit table protocol",
        "protocol_version": PROTOCOL_VERSION,
        "client": _CLIENT_ADAPTER.json_schema(),
        "server": _SERVER_ADAPTER.json_schema(),
    }
