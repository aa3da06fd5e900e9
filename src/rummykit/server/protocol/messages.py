"""The table protocol: every WebSocket message, both directions, as pydantic models.

These models are the protocol's single source: the server validates what clients send
with them, builds what it sends with them, and :func:`json_schema` publishes their JSON
Schema (``GET /api/protocol/schema``, docs/protocol.md).  The protocol is versioned by
:data:`PROTOCOL_VERSION`: adding an optional field or a message type keeps it; renaming,
removing, or changing the meaning or the JSON type of a field bumps it.  This module
describes messages only; it never touches a table, a socket or the database.

Client messages are strict: a number must be a JSON integer (``"3"``, ``3.0`` and
``true`` are not), so a client that sends text where a number belongs hears
``invalid_message`` rather than being understood by chance.  The server's own error
codes, their parameters and English messages are :data:`ERROR_CODES` (from
:mod:`rummykit.server.protocol.error_codes`); the seed revealed in ``game_over`` is a decimal
string, because it does not fit in a JavaScript number.

Observations and events inside ``state`` messages are the engine's own JSON
(docs/observations.md): the protocol carries them untouched.

>>> parse_client_message('{"type": "action", "state_number": 3, "action": "draw"}')
ActionMessage(type='action', state_number=3, action='draw')
>>> try:
...     parse_client_message('{"type": "dance"}')
... except ProtocolError as error:
...     print(error.code, "-", error.message)
unknown_type - unknown message type 'dance'
>>> try:
...     parse_client_message('{"type": "action", "state_number": "3", "action": "draw"}')
... except ProtocolError as error:
...     print(error.code, error.params)
invalid_message {'field': 'state_number'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    Strict,
    StrictInt,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)

from rummykit.server.protocol import error_codes
from rummykit.server.protocol.error_codes import ErrorCode, english

PROTOCOL_VERSION: Final = 2
MAX_ACTION_TEXT: Final = 200
MAX_CHAT_TEXT: Final = 300
MAX_NAME: Final = 32
CLIENT_ID_PATTERN: Final = r"^[A-Za-z0-9_-]{1,64}$"
ERROR_CODES: Final[Mapping[str, ErrorCode]] = error_codes.ERROR_CODES
"""The server's own error codes (:mod:`rummykit.server.protocol.error_codes`), by code."""

JsonObject = dict[str, Any]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ClientMessage(_Message):
    """What a client sends: validated strictly (no text or boolean taken for a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---------------------------------------------------------------------------------------
# Client -> server


class ActionMessage(_ClientMessage):
    """Play ``action`` (the engine's action notation) against state ``state_number``."""

    type: Literal["action"] = "action"
    state_number: Annotated[StrictInt, Field(ge=0, le=10_000_000)]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_TEXT)]


class ChatMessage(_ClientMessage):
    """Say ``text`` to everyone at the table (players and watchers)."""

    type: Literal["chat"] = "chat"
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_TEXT)]
    client_id: Annotated[str, Field(pattern=CLIENT_ID_PATTERN)] | None = None
    """The client's own id for this line (letters, digits, ``-``, ``_``; at most 64):
    sent again with the same id, after a reconnect that showed no echo of it, the line is
    said once."""


class HintRequest(_ClientMessage):
    """Ask for the strongest bot's move; only the seat to move may ask, and not while a
    rated or tournament game is played (``hint_not_allowed``)."""

    type: Literal["hint"] = "hint"


class ClaimRequest(_ClientMessage):
    """Claim the win over a side that abandoned a rated game (a seat ``gone``): the game
    ends at once, rated as a loss for the side that is gone; refused with
    ``nothing_to_claim`` when no other side is gone or the claimer is."""

    type: Literal["claim"] = "claim"


class SubstituteRequest(_ClientMessage):
    """At a turn-based table whose mover's time ran out, let a stand-in play that move
    (the other choice is ``claim``); refused with ``nothing_to_substitute`` when the
    time has not run out, a stand-in plays it already, or the sender is a watcher or
    the late player."""

    type: Literal["substitute"] = "substitute"


class FocusLost(_ClientMessage):
    """The page lost the player's attention (another window or tab) during their turn
    at state ``state_number``.  Counted once a turn, at rated and tournament tables
    only, for the fair-play assessment (a player never hears of it); never refused."""

    type: Literal["focus_lost"] = "focus_lost"
    state_number: int = Field(ge=0)


class Ping(_ClientMessage):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    ActionMessage | ChatMessage | HintRequest | ClaimRequest | SubstituteRequest | FocusLost | Ping,
    Field(discriminator="type"),
]
CLIENT_TYPES: Final = ("action", "chat", "hint", "claim", "substitute", "focus_lost", "ping")

# ---------------------------------------------------------------------------------------
# Server -> client


class PlayerInfo(_Message):
    """Who sits at ``seat``: a human (``level`` null) or a bot of ``level``.

    ``connected`` is whether the human has a live connection (bots are always
    connected); ``substitute`` is true while a bot plays for an absent human; ``gone``
    is true when, at a rated table, that human counts as having abandoned the game
    (away past the grace period, or a stand-in played their last ``abandon_turns``
    turns): the other side may claim the win (``claim``); ``kept`` is true for a
    rematch's free seat kept for the player who held it at the finished table (nobody
    else may take it).
    """

    seat: int
    name: str
    kind: Literal["human", "bot"]
    level: str | None = None
    connected: bool
    substitute: bool = False
    gone: bool = False
    kept: bool = False


class TurnInfo(_Message):
    """Whose turn it is; ``deadline`` (unix seconds) and ``seconds_left`` are null when
    the table has no turn timer.  At a table with a time bank, ``banks`` holds each
    seat's bank (seconds) as it stood when this turn began: the deadline is the turn
    time plus the mover's bank, so the mover's turn time is spent once
    ``seconds_left`` is at most ``banks[player]``.

    At a turn-based table ``expired`` is true once the mover's time per move ran out:
    the other players may claim the win (``claim``) or hand the move to a stand-in
    (``substitute``); ``vacation_until`` (unix seconds) is the end of the mover's
    vacation under way, during which their clock stands still (null: not away)."""

    player: int
    deadline: float | None = None
    seconds_left: float | None = None
    banks: list[float] | None = None
    expired: bool = False
    vacation_until: float | None = None


class LastAction(_Message):
    """The action that produced this state and who made it: ``human`` (the seat's
    player), ``bot`` (a bot seat), ``timeout`` (greedy after the turn timer ran out) or
    ``substitute`` (a bot for an absent player).  ``reason`` is the bot's reason in
    English; it is worked out from the seat's hand, so only that seat's own player is
    sent it (every other seat and every watcher gets null)."""

    seat: int
    action: str
    actor: Literal["human", "bot", "timeout", "substitute"]
    reason: str | None = None


class ArrangedMeld(_Message):
    """One meld of an arrangement: ``kind`` ``"set"`` or ``"run"``, its ``cards`` (a run
    low to high with its wilds at their places, a set's naturals first) and, card by
    card, what a wild stands for: in a run the card of its place (``"6h"``), in a set
    the set's rank (``"9"``); null for a natural card."""

    kind: Literal["set", "run"]
    cards: list[str]
    stands_for: list[str | None]


class DiscardChoice(_Message):
    """A card the player may discard and the ``deadwood`` the rest of the hand leaves."""

    card: str
    deadwood: int


class HandArrangement(_Message):
    """The seat's own hand as the game would score it now (the engine's exact
    arrangement): its ``melds``, the ``unmelded`` cards (sorted) and their ``deadwood``
    points; in the seat's discard phase, ``discards`` gives each distinct card of the
    hand with the deadwood left after discarding it, least first (else empty)."""

    melds: list[ArrangedMeld]
    unmelded: list[str]
    deadwood: int
    discards: list[DiscardChoice]


class StateMessage(_Message):
    """The table after a change, as one seat (or a watcher, ``seat`` null) may see it.

    ``observation`` is the engine's observation JSON for ``seat``; a watcher receives
    what every seat sees alike (fields that differ between seats, such as ``hand``,
    are null).  ``events`` are the events this seat may see, in order, starting at
    index ``events_start`` of that seat's event log (on connecting, the latest few).
    ``legal_actions`` is non-empty only for the seat to move.  ``arrangement`` is the
    seat's own hand arranged as the game scores it (Three-Thirteen), made from that
    seat's observation alone; null for a watcher and in a game without one.
    ``hints`` says whether the table's players may ask for hints: false while a rated
    or tournament game is played (a hint is then refused with ``hint_not_allowed``),
    true at casual tables and against the computer.  ``days_per_move`` is a turn-based
    table's time per move in days (null at a live table).
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
    arrangement: HandArrangement | None = None
    hints: bool = True
    days_per_move: int | None = None


class ErrorMessage(_Message):
    """A refusal.  Engine refusals keep the engine's ``code`` and ``params``; the
    server's own codes are :data:`ERROR_CODES` (docs/protocol.md).  ``state_number`` is
    the table's state number when the refusal was made (null when there is no table
    context)."""

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
    client_id: str | None = None
    """The id its client gave the line (a random id the client made, so that it knows
    the echo of a line it sent); null for a line sent without one."""


class ChatHistory(_Message):
    """The table's chat so far (its latest lines, oldest first), sent on connecting when
    anything was said, so a page that reloads shows the conversation again; a client
    replaces the lines it holds with these."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[ChatBroadcast]


class RematchOffer(_Message):
    """A player of this finished table (seat ``by``) asked for a rematch: the new table
    ``table_id``, private, joined with ``invite_token``: an invitation, sent to the
    table's seated players only (each is offered the seat the rematch keeps for them),
    never to its watchers."""

    type: Literal["rematch"] = "rematch"
    table_id: str
    invite_token: str | None
    by: int


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


SEED_PATTERN: Final = r"^(0|[1-9][0-9]{0,18})$"


def _seed_from_text(value: object) -> object:
    """A seed sent as decimal text becomes its int; other values are left to the int
    check (so an int passes and anything else is refused)."""
    if isinstance(value, str):
        if re.fullmatch(SEED_PATTERN, value) is None:
            raise ValueError("a seed is written in decimal, without sign or leading zeros")
        return int(value)
    return value


Seed = Annotated[
    int,
    Strict(),
    Field(ge=0, le=2**63 - 1),
    BeforeValidator(_seed_from_text),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": SEED_PATTERN,
            "description": "the seed in decimal (up to 2**63 - 1, more than a JavaScript"
            " number holds exactly)",
        }
    ),
]
"""A seed held as an int, sent as decimal text, read from either."""


EndedBy = Literal["abandoned", "aborted"]
"""How a game ended when it was not played to its end (``table/abandonment.py``)."""


class GameOverMessage(_Message):
    """The game ended: final ``totals``, ``winners`` (seats), and the fair-deal proof:
    the ``seed`` and ``nonce`` whose SHA-256 ``commitment`` was published at creation
    (docs/protocol.md says how to check it; ``rummykit verify`` does).  ``seed`` is an
    int here and the decimal text the commitment hashes on the wire; reading takes both.
    Both are null while a tournament round whose tables share the deal is still being
    played elsewhere; the table's record shows them once the round is over.

    >>> over = GameOverMessage(table_id="t", totals=[1, 2], winners=[1], seed=2**63 - 1,
    ...     nonce="00", commitment="c", record_url="/r")
    >>> over.model_dump_json()
    '{"type":"game_over","table_id":"t","totals":[1,2],"winners":[1],"ended_by":null,"seed":"9223372036854775807","nonce":"00","commitment":"c","record_url":"/r"}'
    """

    type: Literal["game_over"] = "game_over"
    table_id: str
    totals: list[int]
    winners: list[int]
    # how the game ended when it was not played to its end: "abandoned" (the win
    # claimed over a side that was gone) or "aborted" (every person gone: unrated)
    ended_by: EndedBy | None = None
    seed: Seed | None
    nonce: str | None
    commitment: str
    record_url: str


class Pong(_Message):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[
    StateMessage
    | ErrorMessage
    | ChatBroadcast
    | ChatHistory
    | RematchOffer
    | HintMessage
    | GameOverMessage
    | Pong,
    Field(discriminator="type"),
]

_CLIENT_ADAPTER: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
_SERVER_ADAPTER: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)


class ProtocolError(ValueError):
    """A client message that is not valid: a server error ``code`` (one of
    :data:`ERROR_CODES`), its params and an English message (by default the
    catalogue's, filled with the params)."""

    def __init__(
        self, code: str, message: str | None = None, params: JsonObject | None = None
    ) -> None:
        self.code = code
        self.params = params or {}
        self.message = english(code, self.params) if message is None else message
        super().__init__(f"{code}: {self.message}")

    def to_message(self, state_number: int | None = None) -> ErrorMessage:
        return ErrorMessage(
            code=self.code, params=self.params, message=self.message, state_number=state_number
        )


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one client message; :class:`ProtocolError` says what is wrong.

    Codes: ``bad_json`` (not JSON, or not an object), ``unknown_type`` (no or unknown
    ``type``), ``invalid_message`` (a field missing, extra, of the wrong JSON type or out
    of range; ``params.field`` names it).
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
