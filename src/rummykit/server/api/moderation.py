"""Reports and moderation: ``POST /api/reports`` for any player, ``/api/mod/...`` for
moderators only (``rummykit admin grant NAME moderator`` makes one), and
``GET /api/me/standing``, what a player is told of the measures against them.

Every moderator route checks the role before it reads anything (403 ``not_moderator``
for anyone else), and nothing here shows one player's reports, links or sanctions to
another player.  A report is limited per reporter and day (``reports_per_day``), counted
under the reporter's lock, so the limit holds across requests and processes.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel

from rummykit.fairplay.account import assess_account
from rummykit.server.api.context import ApiError, Context, Player
from rummykit.server.competition.assessment_jobs import seat_of
from rummykit.server.protocol.moderation import (
    AccountView,
    AssessmentView,
    CloseReport,
    LinkedAccount,
    LogEntry,
    ModeratorAction,
    NewReport,
    PlayerCase,
    ReportView,
    SanctionView,
    Standing,
)
from rummykit.server.storage.account_links import DAY, window_start
from rummykit.server.storage.assessments import FAIRPLAY_REPORTER
from rummykit.server.storage.models import PlayerRow, ReportRow
from rummykit.server.storage.moderation import MARKS, reports_since
from rummykit.server.storage.player_locks import holding_player

router = APIRouter(prefix="/api", tags=["moderation"])

MODERATOR: Final = "moderator"
LISTED: Final = 200
PlayerId = Annotated[str, Path(pattern=r"^[0-9a-f]{1,32}$")]
# what each action puts in force (or lifts)
SANCTION_OF: Final = {
    "mark_engine": "engine",
    "mark_booster": "booster",
    "mute": "mute",
    "close": "closed",
}


async def current_moderator(player: Player, server: Context) -> PlayerRow:
    if not await server.storage.has_role(player.id, MODERATOR):
        raise ApiError(403, "not_moderator", "only moderators may do this")
    return player


Moderator = Annotated[PlayerRow, Depends(current_moderator)]


@router.post("/reports")
async def report(body: NewReport, player: Player, server: Context) -> dict[str, bool]:
    """Report a player (cheating, abuse in chat, a name), at most ``reports_per_day`` a
    day; only moderators see reports."""
    if body.player_id == player.id:
        raise ApiError(422, "report_self", "you cannot report yourself")
    if await server.storage.player(body.player_id) is None:
        raise ApiError(404, "unknown_player", "there is no such player")
    now = server.tables.clock.now()
    limit = server.settings.reports_per_day
    async with holding_player(server.storage, player.id) as session:
        if await reports_since(session, player.id, now - DAY) >= limit:
            raise ApiError(429, "report_limit", "too many reports today", {"limit": limit})
        session.add(
            ReportRow(
                reporter_id=player.id,
                reported_id=body.player_id,
                reason=body.reason,
                text=body.text,
                table_id=body.table_id,
                at=now,
                open=True,
            )
        )
    return {"ok": True}


@router.get("/me/standing", response_model=Standing)
async def standing(player: Player, server: Context) -> Standing:
    """The measures in force against the caller (marks, a mute), and their role."""
    sanctions = await server.storage.sanctions(player.id, server.tables.clock.now())
    mutes = [s.until for s in sanctions if s.kind == "mute" and s.until is not None]
    return Standing(
        moderator=await server.storage.has_role(player.id, MODERATOR),
        marks=sorted({s.kind for s in sanctions if s.kind in MARKS}),  # type: ignore[misc]
        muted_until=max(mutes) if mutes else None,
    )


@router.get("/mod/reports", response_model=list[ReportView])
async def report_queue(moderator: Moderator, server: Context) -> list[ReportView]:
    """The open reports, oldest first."""
    return [_report_view(row, by, on) for row, by, on in await server.storage.open_reports(LISTED)]


@router.post("/mod/reports/{report_id}/close")
async def close_report(
    report_id: Annotated[int, Path(ge=1)], body: CloseReport, moderator: Moderator, server: Context
) -> dict[str, bool]:
    """Close an open report, with the reason (logged)."""
    reported = await server.storage.close_report(report_id)
    if reported is None:
        raise ApiError(404, "unknown_report", "there is no such open report")
    await server.storage.moderate(
        moderator.id, reported, "close_report", body.reason, server.tables.clock.now()
    )
    return {"ok": True}


@router.get("/mod/players/{player_id}", response_model=PlayerCase)
async def player_case(player_id: PlayerId, moderator: Moderator, server: Context) -> PlayerCase:
    """One player as a moderator sees them: reports, sanctions, linked accounts, log."""
    player = await server.storage.player(player_id)
    if player is None:
        raise ApiError(404, "unknown_player", "there is no such player")
    now = server.tables.clock.now()
    since = window_start(now, server.settings.link_days)
    by_account: dict[str, list[Any]] = {}
    for other, kind in await server.storage.links_of(player_id, since=since):
        by_account.setdefault(other, []).append(kind)
    linked = []
    for other, kinds in by_account.items():
        found = await server.storage.player(other)
        linked.append(
            LinkedAccount(player_id=other, name=found.name if found else "", by=sorted(kinds))
        )
    names = {player_id: player.name, FAIRPLAY_REPORTER: ""}
    reports = []
    for row in await server.storage.reports_about(player_id, LISTED):
        if row.reporter_id not in names:
            reporter = await server.storage.player(row.reporter_id)
            names[row.reporter_id] = reporter.name if reporter else ""
        reports.append(_report_view(row, names[row.reporter_id], player.name))
    return PlayerCase(
        player_id=player_id,
        name=player.name,
        registered=player.login_name is not None,
        reports=reports,
        sanctions=[
            SanctionView(kind=s.kind, at=s.at, until=s.until)  # type: ignore[arg-type]
            for s in await server.storage.sanctions(player_id, now)
        ],
        linked=linked,
        log=await _log(server, LISTED, player_id),
        **await _assessed(server, player_id, player.name),
    )


@router.post("/mod/players/{player_id}/actions", response_model=PlayerCase)
async def act(
    player_id: PlayerId, body: ModeratorAction, moderator: Moderator, server: Context
) -> PlayerCase:
    """Mark, mute, close or lift, with the reason; every action is logged."""
    player = await server.storage.player(player_id)
    if player is None:
        raise ApiError(404, "unknown_player", "there is no such player")
    now = server.tables.clock.now()
    if body.action == "lift":
        if body.kind is None:
            raise ApiError(422, "invalid_request", "lift names the kind", {"field": "kind"})
        await server.storage.moderate(
            moderator.id, player_id, f"lift_{body.kind}", body.reason, now, lift=body.kind
        )
    else:
        if body.action == "mute" and body.minutes is None:
            raise ApiError(422, "invalid_request", "a mute lasts minutes", {"field": "minutes"})
        until = now + body.minutes * 60 if body.action == "mute" and body.minutes else None
        await server.storage.moderate(
            moderator.id,
            player_id,
            body.action,
            body.reason,
            now,
            sanction=SANCTION_OF[body.action],
            until=until,
        )
        if body.action == "close":  # every session of theirs ends, on every device
            epoch = await server.storage.end_sessions(player_id)
            server.sessions.revoke(player_id, epoch)
            await server.tables.sign_out(player_id)
    return await player_case(player_id, moderator, server)


@router.get("/mod/log", response_model=list[LogEntry])
async def moderation_log(moderator: Moderator, server: Context) -> list[LogEntry]:
    """Every moderator's latest actions, newest first."""
    return await _log(server, LISTED)


async def _log(server: Any, limit: int, player_id: str | None = None) -> list[LogEntry]:
    return [
        LogEntry(
            moderator=by,
            player_id=row.player_id,
            player=on,
            action=row.action,
            reason=row.reason,
            at=row.at,
        )
        for row, by, on in await server.storage.moderation_log(limit, player_id)
    ]


async def _assessed(server: Any, player_id: str, name: str) -> dict[str, Any]:
    """The player's assessed games and their pooling, as the fair-play jobs pool them."""
    rows = await server.storage.assessments_of(player_id, server.settings.assessment_games)
    seats = [seat_of(row) for row in rows]
    account = assess_account(name, seats)
    views = []
    for row, seat in zip(rows, seats, strict=True):
        figures = seat.to_json()
        views.append(
            AssessmentView(
                table_id=row.table_id,
                done_at=row.done_at,
                **_fields_of(AssessmentView, figures),
            )
        )
    return {
        "assessments": views,
        "account": AccountView(**_fields_of(AccountView, account.to_json())),
    }


def _fields_of(view: type[BaseModel], figures: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``view`` that ``figures`` (a fair-play ``to_json``) holds."""
    return {key: figures[key] for key in view.model_fields if key in figures}


def _report_view(row: ReportRow, reporter: str, reported: str) -> ReportView:
    return ReportView(
        id=row.id,
        reporter=reporter,
        reported_id=row.reported_id,
        reported=reported,
        reason=row.reason,  # type: ignore[arg-type]
        text=row.text,
        table_id=row.table_id,
        at=row.at,
    )
