"""The bodies of reports and of the moderators' routes (pydantic; the OpenAPI page)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints

from rummykit.server.protocol.lobby import visible_characters

ReportReason = Literal["cheating", "abuse", "name"]
Reason = Annotated[
    str, BeforeValidator(visible_characters), StringConstraints(min_length=3, max_length=500)
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewReport(_Body):
    """A player's report of another: why (``reason``), in their words (``text``), from
    one of their games (``table_id``) or their profile."""

    player_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{1,32}$")]
    reason: ReportReason
    text: Annotated[str, BeforeValidator(visible_characters), StringConstraints(max_length=500)] = (
        ""
    )
    table_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")] | None = None


class ReportView(BaseModel):
    """A report: a player's (``reporter`` their name), or the fair-play assessment's
    (reason ``assessment``, ``reporter`` empty)."""

    id: int
    reporter: str
    reported_id: str
    reported: str
    reason: ReportReason | Literal["assessment"]
    text: str
    table_id: str | None
    at: float


class SanctionView(BaseModel):
    kind: Literal["engine", "booster", "mute", "closed"]
    at: float
    until: float | None


class LinkedAccount(BaseModel):
    player_id: str
    name: str
    by: list[Literal["browser", "address"]]


class LogEntry(BaseModel):
    moderator: str
    player_id: str | None
    player: str | None
    action: str
    reason: str
    at: float


class AssessmentView(BaseModel):
    """One assessed game of the player (``fairplay/seat.py`` names the figures)."""

    table_id: str
    seat: int
    game: str
    done_at: float | None
    verdict: Literal["nothing", "unclear", "suspicious", "very_likely"]
    evidence: float
    outcome: str
    decisions: int
    real_choices: int
    match_share: float | None
    telling: int
    telling_matched: int
    mean_loss: float
    time_cv: float | None
    time_difficulty: float | None
    focus_losses_per_turn: float | None = None
    partner_telling: int | None = None
    partner_matched: int | None = None
    partner_gain: float | None = None
    partner_evidence: float | None = None


class AccountView(BaseModel):
    """The player's assessed games pooled, and whether that reports them."""

    games: int
    flagged_games: int
    telling: int
    telling_matched: int
    evidence: float
    reported: bool
    partner_telling: int = 0
    partner_evidence: float | None = None


class PlayerCase(BaseModel):
    """What a moderator sees of one player: the reports about them, the sanctions in
    force, the accounts linked to theirs, and the moderators' actions on them."""

    player_id: str
    name: str
    registered: bool
    reports: list[ReportView]
    sanctions: list[SanctionView]
    linked: list[LinkedAccount]
    log: list[LogEntry]
    assessments: list[AssessmentView]
    account: AccountView


class ModeratorAction(_Body):
    """A moderator's action on a player, with its reason: ``mark_engine`` and
    ``mark_booster`` (out of the leaderboards and tournaments), ``mute`` (for
    ``minutes``), ``close`` (the account may not sign in; its sessions end), or ``lift``
    of a sanction (``kind``)."""

    action: Literal["mark_engine", "mark_booster", "mute", "close", "lift"]
    reason: Reason
    minutes: Annotated[int, Field(ge=1, le=60 * 24 * 365)] | None = None
    kind: Literal["engine", "booster", "mute", "closed"] | None = None


class CloseReport(_Body):
    reason: Reason


class Standing(BaseModel):
    """What moderators did that the player themselves is told: marks and a mute in
    force, and whether they are a moderator."""

    moderator: bool
    marks: list[Literal["engine", "booster"]]
    muted_until: float | None
