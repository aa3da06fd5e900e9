"""The tournament API's bodies and answers (``api/tournaments.py``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field, StringConstraints

from rummykit.server.protocol.lobby import GameName, _Body, visible_characters

Format = Literal["swiss", "knockout"]
TournamentStatus = Literal["registering", "running", "over", "cancelled"]


class CreateTournament(_Body):
    """A new tournament.  ``capacity``: entrants at most (the event starts when it is
    full, or at ``starts_at``, a Unix time, or when its creator starts it); ``bot_level``
    fills the seats still empty at the start with computer players (null: none).
    ``rounds`` is a Swiss event's; an elimination event plays until one is left.
    ``rules`` and the clock are every table's, as for a table (``CreateTable``)."""

    name: Annotated[
        str,
        BeforeValidator(visible_characters),
        StringConstraints(strip_whitespace=True, min_length=1, max_length=64),
    ]
    game: GameName
    format: Format = "swiss"
    rounds: Annotated[int, Field(ge=1, le=12)] = 3
    table_size: Annotated[int, Field(ge=2, le=4)] = 2
    capacity: Annotated[int, Field(ge=2, le=64)] = 8
    bot_level: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = "greedy"
    rules: dict[str, Any] = Field(default_factory=dict)
    turn_seconds: Annotated[float, Field(ge=5)] | None = None
    time_bank_seconds: Annotated[float, Field(ge=0)] | None = None
    starts_at: Annotated[float, Field(ge=0)] | None = None
    enter: bool = True


class Entrant(BaseModel):
    """One entrant: ``entry`` is its seeding number once the event started.  In a
    tournament of pairs (Burraco for four) an entrant is a pair: ``name`` its first
    player (``player_id``: a person's, whom a partner names to join the pair),
    ``partner`` the second (null: a place for a partner, still free), of
    ``partner_kind`` (a computer of ``partner_level``); ``you`` is true for either of
    them.  A pair's first player alone is shown its link's token (``pair_token``), whom
    it invited (``invited``) and who withdrew from the pair, leaving it to them
    (``partner_left``); ``invites_you`` tells the invited player."""

    entry: int | None
    name: str
    kind: Literal["human", "bot"]
    level: str | None
    you: bool
    player_id: str | None = None
    partner: str | None = None
    partner_kind: Literal["human", "bot"] | None = None
    partner_level: str | None = None
    pair_token: str | None = None
    invited: str | None = None
    invites_you: bool = False
    partner_left: str | None = None


class RegisterTournament(_Body):
    """An entry: alone (or as a new pair), or as a pair's partner with its consent:
    ``partner``, the player id of a pair's first player who invited the caller, or
    ``pair``, the token of a pair's link."""

    partner: Annotated[str, StringConstraints(min_length=1, max_length=32)] | None = None
    pair: Annotated[str, StringConstraints(min_length=1, max_length=32)] | None = None


class InvitePartner(_Body):
    """The registered player (by login name) a pair's first player invites as partner."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class RoundTable(BaseModel):
    """One table of a round (``table_id`` null: a bye); results once it is over."""

    number: int
    table_id: str | None
    entries: list[int]
    totals: list[float] | None
    points: list[float] | None
    forfeits: list[int]


class TournamentRound(BaseModel):
    number: int
    tables: list[RoundTable]
    over: bool


class StandingLine(BaseModel):
    """A line of the standings: Swiss points, Buchholz and points difference; in an
    elimination event ``points`` counts the rounds won and ``out`` the round a player
    went out in (null: still in, or the champion)."""

    place: int
    entry: int
    name: str
    points: float
    buchholz: float | None
    points_difference: float
    out: int | None


class TournamentSummary(BaseModel):
    id: str
    name: str
    game: str
    format: Format
    rounds: int
    table_size: int
    capacity: int
    entrants: int
    status: TournamentStatus
    round: int
    starts_at: float | None
    bot_level: str | None


class TournamentView(TournamentSummary):
    """A tournament as the caller sees it: ``your_table`` is the table of the round
    under way where the caller sits, while it is being played."""

    rules: dict[str, Any]
    turn_seconds: float | None
    time_bank_seconds: float | None
    creator: bool
    registered: bool
    entries: list[Entrant]
    round_list: list[TournamentRound]
    standings: list[StandingLine]
    your_table: str | None
