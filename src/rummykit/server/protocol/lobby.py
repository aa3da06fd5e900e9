"""The lobby's HTTP request and response bodies (pydantic; they make the OpenAPI page)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from rummykit.games.registry import GAMES
from rummykit.server.protocol import names
from rummykit.server.protocol.messages import MAX_NAME, ReasonPhrase

MARKUP: Final = frozenset("<>&\"'`")
DAYS_PER_MOVE: Final = (1, 2, 3, 5, 7, 14)
"""The times per move, in days, a turn-based table may have."""
# Codes of the validation errors the API answers under their own code (422) rather
# than as ``invalid_request``.
NAMED_VALIDATION_ERRORS: Final = frozenset({"bad_nickname", "bad_login_name", "bad_password"})


def name_characters(value: object) -> object:
    """A name in Unicode's compatibility form (NFKC: full-width letters, ligatures and
    look-alike signs such as the Kelvin sign become plain letters) without the
    whitespace around it, refused with ``bad_nickname`` if it holds a control, format,
    private-use or unassigned character (category C*, NUL among them), a line or
    paragraph separator, or a markup character (``<``, ``>``, ``&``, a quote, an
    apostrophe or a backtick).

    >>> name_characters("\uff21nn\u212a")
    'AnnK'
    >>> name_characters("a<b")
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: a name may not hold < > & " ' or `
    """
    value = visible_characters(value)
    if isinstance(value, str) and any(character in MARKUP for character in value):
        raise PydanticCustomError("bad_nickname", "a name may not hold < > & \" ' or `")
    return value


def visible_characters(value: object) -> object:
    """A text in NFKC without the whitespace around it, refused with ``bad_nickname`` if
    it holds a control, format, private-use or unassigned character (NUL among them) or
    a line or paragraph separator: what every name shown to others must pass (a
    tournament's name may hold markup characters, shown as text).

    >>> visible_characters("Cup <b>")
    'Cup <b>'
    >>> visible_characters("a\\x00b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: a name may not hold control ...
    """
    if not isinstance(value, str):
        return value
    value = unicodedata.normalize("NFKC", value).strip()
    for character in value:
        if unicodedata.category(character)[0] == "C" or character in "\u2028\u2029":
            raise PydanticCustomError(
                "bad_nickname", "a name may not hold control or invisible characters"
            )
    return value


Nickname = Annotated[
    str,
    BeforeValidator(name_characters),
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME),
]
LoginName = Annotated[str, BeforeValidator(names.login_name)]
"""A registered player's name (:mod:`~rummykit.server.protocol.names`): letters of one
script, digits and ``_ . -``, 3 to 32 characters."""
Password = Annotated[str, BeforeValidator(names.password), StringConstraints(max_length=200)]
Token = Annotated[str, StringConstraints(min_length=1, max_length=100)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionRequest(_Body):
    """A guest session under ``nickname``.  With ``keep_session`` a session the request
    already carries is kept: it is answered, and no new cookie replaces it (a page's own
    guest start-up asks so, and never loses a signed-in account to it)."""

    nickname: Nickname
    keep_session: bool = False


class Credentials(_Body):
    name: LoginName
    password: Password


class Me(BaseModel):
    player_id: str
    name: str
    registered: bool


class SeatRequest(_Body):
    """A seat of a new table: a human seat, or a bot of ``level`` (a bot spec such as
    ``greedy`` or ``ismcts:seconds=1``)."""

    kind: Literal["human", "bot"]
    level: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


def known_game(name: str) -> str:
    """``name`` if it names a game of the registry (the catalog lists them)."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(GAMES)}")
    return name


GameName = Annotated[str, StringConstraints(max_length=40), AfterValidator(known_game)]
"""A game's name, as the catalog lists them (checked against the games' registry)."""


class CreateTable(_Body):
    """A new table.  ``rules`` holds the engine's rule options (see the catalog); for
    Three-Thirteen ``players`` follows from ``seats``.  ``turn_seconds`` null means no
    turn timer; omitted, the server's default at a table of several people and none
    against bots only.  ``time_bank_seconds`` is each seat's reserve for the game, drawn
    on when a turn runs past its turn time (null or 0: none; omitted, the server's
    default at a table of several people).  ``sit``: the creator takes the first human
    seat."""

    game: GameName
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatRequest], Field(min_length=2, max_length=4)] | None = None
    private: bool = False
    turn_seconds: Annotated[float, Field(ge=5)] | None = None
    time_bank_seconds: Annotated[float, Field(ge=0)] | None = None
    # a turn-based table (a game over days): each move's time in days, 1, 2, 3, 5, 7 or
    # 14 (``bad_days_per_move``); null or omitted, a live table with ``turn_seconds``
    days_per_move: StrictInt | None = None
    sit: bool = True
    # whether the result changes the players' ratings; omitted, a table of people made
    # by a registered player is rated and any other casual (docs/competition.md)
    rated: bool | None = None


class PlayNow(_Body):
    game: GameName
    level: Annotated[str, StringConstraints(min_length=1, max_length=40)] = "greedy"
    players: Annotated[int, Field(ge=2, le=4)] = 2


class JoinRequest(_Body):
    seat: Annotated[int, Field(ge=0, le=3)] | None = None
    token: Token | None = None


class WatchRequest(_Body):
    token: Token | None = None


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str | None
    taken: bool
    # a seated person's player id (their profile: GET /api/players/{player_id})
    player_id: str | None = None
    # a rematch's free seat kept for the player of this id, who held it at the finished
    # table (nobody else may take it)
    kept_for: str | None = None


class RatingChange(BaseModel):
    """A seat's rating after a rated table, the change the table made (display points,
    rounded) and whether the rating is still provisional."""

    seat: int
    rating: int
    change: int
    provisional: bool


class TableSummary(BaseModel):
    """A table as the lobby and its pages show it; ``rating_changes``, by seat, once a
    rated table is over (empty otherwise)."""

    table_id: str
    game: str
    rules: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    private: bool
    seats: list[SeatInfo]
    turn_seconds: float | None
    time_bank_seconds: float | None = None
    commitment: str
    created_at: float
    totals: list[int] | None = None
    winners: list[int] | None = None
    rated: bool = False
    rating_changes: list[RatingChange] = []
    # when the game ended (null before), and the tournament whose round it is a table of
    finished_at: float | None = None
    tournament_id: str | None = None
    # how the game ended when it was not played to its end: "abandoned" or "aborted"
    ended_by: Literal["abandoned", "aborted"] | None = None
    # a turn-based table: its time per move in days (null at a live table); while it is
    # played, the seat to move and when its time runs out (unix seconds; later by the
    # mover's vacation), and until when the mover is on vacation (null: not away)
    days_per_move: int | None = None
    turn_seat: int | None = None
    turn_deadline: float | None = None
    vacation_until: float | None = None
    # in the caller's list of current games: whether it is the caller's turn there
    your_turn: bool = False


class VacationRequest(_Body):
    """Days away from turn-based games, whole days from ``starts_at`` (unix seconds;
    omitted, now): the clocks of the player's turn-based games stand still meanwhile."""

    days: Annotated[StrictInt, Field(ge=1, le=366)]
    starts_at: Annotated[float, Field(allow_inf_nan=False)] | None = None


class Vacation(BaseModel):
    """A vacation: from ``starts_at`` to ``ends_at`` (unix seconds), ``declared`` in
    advance or taken when a turn's time would have run out."""

    starts_at: float
    ends_at: float
    declared: bool


class VacationStatus(BaseModel):
    """A player's vacations: the yearly allowance in days, the whole days left of it
    this year (UTC), until when they are away now (null: not away), and their vacations
    not over yet."""

    allowance_days: int
    days_left: int
    away_until: float | None
    vacations: list[Vacation]


class TableCreated(BaseModel):
    table_id: str
    seat: int | None
    invite_token: str | None
    invite_url: str | None
    commitment: str
    ws_url: str


class Joined(BaseModel):
    table_id: str
    seat: int | None
    ws_url: str


class RuleOption(BaseModel):
    name: str
    type: Literal["int", "bool", "choice"]
    default: Any
    choices: list[Any] | None = None


class GameEntry(BaseModel):
    """A game the server offers; ``points``: the point tables a client shows (Burraco's
    card points and burraco bonuses), null for a game without them."""

    name: str
    title: str
    player_counts: list[int]
    options: list[RuleOption]
    bot_levels: list[str]
    points: dict[str, Any] | None = None
    # the bot levels' published ladder ratings (random = 1,000), for the measured levels
    bot_ratings: dict[str, int] = Field(default_factory=dict)


class Catalog(BaseModel):
    games: list[GameEntry]
    protocol_version: int
    default_turn_seconds: float
    default_time_bank_seconds: float = 0.0
    # the times per move a turn-based table may have, in days
    days_per_move: list[int] = Field(default_factory=list)


class ErrorBody(BaseModel):
    code: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)


class ErrorResponse(BaseModel):
    error: ErrorBody


class ReviewRequest(_Body):
    """Which seat to review: only the caller's own (the default)."""

    seat: Annotated[int, Field(ge=0, le=3)] | None = None


class ReviewItem(BaseModel):
    """The strongest bot's verdict on one of the seat's decisions (its ``decision``-th,
    at ``state_number``), searched as the hint there would have been.  ``suggested`` is
    null when the bot would have played the same move.  ``value``: how much better the
    bot's move did than the played one on the same simulated deals (reward units);
    ``points``: the same in the game's points; ``error``: the standard error of
    ``value`` (null below two deals); ``simulations``: paired deals compared (0 when
    nothing was compared, and then ``value`` is 0).  ``points_low`` .. ``points_high``:
    the 95% interval of ``points`` (null below two deals).  ``mistake``: the interval is
    above 0 and ``points`` at least ``threshold``, the game's smallest loss called a
    mistake; any other difference is no clear difference.  ``reason``: the bot's reason
    in English, ``reason_phrases`` the same as codes."""

    decision: int
    state_number: int
    played: str
    suggested: str | None
    value: float
    points: float
    error: float | None
    simulations: int
    points_low: float | None = None
    points_high: float | None = None
    mistake: bool = False
    threshold: float = 0.0
    reason: str
    reason_phrases: list[ReasonPhrase] = []


class Review(BaseModel):
    """A review's progress (``done`` of ``total`` decisions) and the items so far."""

    table_id: str
    seat: int
    status: Literal["running", "done", "failed"]
    done: int
    total: int
    items: list[ReviewItem]
