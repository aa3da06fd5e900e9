"""The fair-play assessment of finished games on the server: every person's seat of a
rated or tournament game is assessed once, whichever process gets to it first, a claim
left by a dead or frozen process is taken over after its lease, a player past the
thresholds is reported to the moderators once (never sanctioned), and only moderators see
any of it.  On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from rummykit.cli.app import app
from rummykit.fairplay.seat import SeatAssessment
from rummykit.server.bots.service import BotRunner
from rummykit.server.clock import FakeClock
from rummykit.server.competition.assessment_jobs import AssessmentJobs
from rummykit.server.operations.metrics import REGISTRY
from rummykit.server.settings import Settings
from rummykit.server.storage.assessments import Backlog, DueSeat, file_assessment_report
from rummykit.server.storage.models import AssessmentRow, ReportRow
from rummykit.server.storage.player_locks import holding_player
from rummykit.server.storage.store import Storage
from tests.kit.finished_games import STARTED, store_finished_game
from tests.kit.passwords import FakeHashes
from tests.kit.players import registered
from tests.kit.storage import open_storage
from tests.kit.wait import wait_until_async

ITERATIONS = 30


def jobs_for(storage: Storage, runner: BotRunner, settings: Settings, clock: FakeClock) -> Any:
    quick = settings.model_copy(update={"assessment_iterations": ITERATIONS})
    return AssessmentJobs(storage, runner, quick, clock)


async def rows(storage: Storage) -> list[AssessmentRow]:
    async with storage._sessions() as session:
        return list((await session.scalars(select(AssessmentRow))).all())


def test_each_persons_seat_of_a_rated_game_is_assessed_once_by_racing_processes(
    database: dict[str, Any], settings: Settings, bot_runner: BotRunner
) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        other = await open_storage(**database)  # a second process, its own engine
        clock = FakeClock(STARTED + 3600)
        try:
            rated = await store_finished_game(storage, ["ann", "bob"])
            alone = await store_finished_game(storage, ["ann", None], seed=2)  # and a bot
            await store_finished_game(storage, ["ann", "bob"], rated=False, seed=3)
            await store_finished_game(storage, ["ann", "bob"], ended_by="aborted", seed=4)
            first = jobs_for(storage, bot_runner, settings, clock)
            second = jobs_for(other, bot_runner, settings, clock)
            ends = []
            for table_id in (rated, alone):
                stored = await storage.load_table(table_id)
                assert stored is not None and stored.table.finished_at is not None
                ends.append(stored.table.finished_at)
            assert await storage.assessment_backlog(clock.now(), 1800.0) == Backlog(3, min(ends))
            done = await asyncio.gather(first.work_once(), second.work_once())
            assert sum(done) == 3
            assert await storage.assessment_backlog(clock.now(), 1800.0) == Backlog(0, None)
            # the metrics of the backlog, as the processes' last look found it
            assert REGISTRY.get_sample_value("rummykit_assessments_due") == 0
            found = await rows(storage)
            assert sorted((r.player_id, r.status) for r in found) == [
                ("ann", "done"), ("ann", "done"), ("bob", "done")
            ]  # fmt: skip
            assert {r.table_id for r in found if r.player_id == "bob"} == {rated}
            for row in found:
                figures = row.figures or {}
                assert figures["decisions"] > 0 and figures["iterations"] == ITERATIONS
                assert figures["time_cv"] is not None  # the stored moves' times were read
                assert row.verdict == figures["verdict"]
            assert await first.work_once() == 0 and await second.work_once() == 0
        finally:
            await storage.close()
            await other.close()

    asyncio.run(run())


def test_a_claim_left_by_a_dead_process_is_taken_over_once_its_lease_runs_out(
    database: dict[str, Any], settings: Settings, bot_runner: BotRunner
) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        clock = FakeClock(STARTED + 3600)
        try:
            table = await store_finished_game(storage, ["ann", None])
            dead = jobs_for(storage, bot_runner, settings, clock)
            due = await storage.assessments_due(clock.now(), 1800.0, 10)
            assert due == [DueSeat(table, 0, "ann")]
            assert await storage.claim_assessment(due[0], dead.worker, clock.now())
            assert not await storage.claim_assessment(due[0], "someone else", clock.now())
            alive = jobs_for(storage, bot_runner, settings, clock)
            assert await alive.work_once() == 0  # the claim still holds
            assert REGISTRY.get_sample_value("rummykit_assessments_due") == 0
            clock.advance(settings.assessment_lease_seconds + 1)
            # the claim is stale: its seat is due again (its game no longer unclaimed)
            lease = settings.assessment_lease_seconds
            assert await storage.assessment_backlog(clock.now(), lease) == Backlog(1, None)
            assert await alive.work_once() == 1
            [row] = await rows(storage)
            assert (row.status, row.claimed_by, row.attempts) == ("done", alive.worker, 2)
            late = await storage.finish_assessment(
                table, 0, dead.worker, _telling("ann", 9.0), clock.now()
            )
            assert not late  # the dead process's result, if it ever came, is not stored
        finally:
            await storage.close()

    asyncio.run(run())


async def assessed_before(
    storage: Storage, player_id: str, assessments: list[dict[str, Any]]
) -> None:
    """A finished game of the player's for each of ``assessments`` (a seat's figures),
    stored as assessed."""
    tables = [
        await store_finished_game(storage, [player_id, None], seed=seed)
        for seed in range(len(assessments))
    ]
    async with storage._sessions.begin() as session:
        for number, (table, figures) in enumerate(zip(tables, assessments, strict=True)):
            session.add(
                AssessmentRow(
                    table_id=table, seat=0, player_id=player_id, status="done",
                    claimed_by="earlier", claimed_at=STARTED, attempts=1,
                    done_at=STARTED + number, verdict=figures["verdict"],
                    evidence=figures["evidence"], figures=figures,
                )
            )  # fmt: skip


def _telling(player: str, evidence: float) -> dict[str, Any]:
    return SeatAssessment(
        game="three-thirteen", seat=0, player=player, outcome="won", iterations=1,
        decisions=60, real_choices=40, matched=38, telling=12, telling_matched=10,
        mean_loss=0.2, evidence=evidence, verdict="suspicious",
    ).to_json()  # fmt: skip


def test_a_player_past_the_thresholds_is_reported_once_and_only_moderators_see_it(
    any_client: TestClient, hashes: FakeHashes, bot_runner: BotRunner
) -> None:
    client = any_client
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    storage: Storage = server.storage
    mod, mod_id = registered(client, "mod")
    ann, ann_id = registered(client, "ann")
    client.portal.call(storage.grant_role, mod_id, "moderator", 0.0)  # type: ignore[union-attr]
    clock = FakeClock(STARTED + 3600)
    jobs = jobs_for(storage, bot_runner, server.settings, clock)
    call: Any = client.portal.call  # type: ignore[union-attr]

    async def earlier_games() -> None:  # nine suspicious games assessed before
        await assessed_before(storage, ann_id, [_telling("ann", 5.0)] * 9)

    async def one_more_game(seed: int) -> int:
        await store_finished_game(storage, [ann_id, None], seed=seed)
        return int(await jobs.work_once())

    call(earlier_games)
    assert call(one_more_game, 20) == 1
    assert call(one_more_game, 21) == 1  # still past the thresholds: no second report

    def as_(cookie: str) -> TestClient:
        client.cookies.clear()
        client.cookies.set("rummykit_session", cookie)
        return client

    queue = as_(mod).get("/api/mod/reports").json()
    [report] = [r for r in queue if r["reported_id"] == ann_id]
    assert (report["reason"], report["reporter"]) == ("assessment", "")
    case = as_(mod).get(f"/api/mod/players/{ann_id}").json()
    assert len(case["assessments"]) == 11
    assert case["account"]["reported"] and case["account"]["games"] == 11
    assert case["sanctions"] == []  # a report, never an automatic measure
    assert as_(ann).get(f"/api/mod/players/{ann_id}").status_code == 403
    standing = as_(ann).get("/api/me/standing").json()
    assert "assessment" not in str(standing).lower()

    async def reports() -> list[ReportRow]:
        async with storage._sessions() as session:
            return list((await session.scalars(select(ReportRow))).all())

    assert [r.reason for r in call(reports)] == ["assessment"]


def test_the_command_line_gives_the_servers_figures_from_the_games_record(
    client: TestClient, bot_runner: BotRunner, tmp_path: Path
) -> None:
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    storage: Storage = server.storage
    call: Any = client.portal.call  # type: ignore[union-attr]
    table = call(store_finished_game, storage, ["ann", None])
    jobs = jobs_for(storage, bot_runner, server.settings, FakeClock(STARTED + 3600))
    assert call(jobs.work_once) == 1
    [row] = call(rows, storage)
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    path = tmp_path / "game.json"
    path.write_text(record.text)
    result = CliRunner().invoke(
        app, ["fairplay", "assess", str(path), "--iterations", str(ITERATIONS), "--json"]
    )
    assert result.exit_code == 0, result.output
    [seat] = [g for g in json.loads(result.stdout)["games"] if g["seat"] == 0]
    figures = dict(row.figures or {})
    times = ("time_cv", "time_difficulty", "focus_losses_per_turn")  # not in a record
    assert {k: v for k, v in seat.items() if k not in (*times, "record", "player")} == {
        k: v for k, v in figures.items() if k not in (*times, "player")
    }


def test_two_processes_pooling_one_player_at_once_file_one_report(
    database: dict[str, Any],
) -> None:
    async def run() -> None:
        stores = [await open_storage(**database) for _ in range(4)]

        async def file(storage: Storage) -> bool:
            async with holding_player(storage, "ann") as session:
                return await file_assessment_report(session, "ann", STARTED)

        try:
            filed = await asyncio.gather(*(file(storage) for storage in stores))
            assert sorted(filed) == [False, False, False, True]
            async with stores[0]._sessions() as session:
                found = (await session.scalars(select(ReportRow))).all()
            assert [(r.reported_id, r.reason, r.open) for r in found] == [
                ("ann", "assessment", True)
            ]
        finally:
            for storage in stores:
                await storage.close()

    asyncio.run(run())


def test_the_background_loop_assesses_a_game_once_it_is_over(
    database: dict[str, Any], settings: Settings, bot_runner: BotRunner
) -> None:
    async def run() -> None:
        storage = await open_storage(**database)
        clock = FakeClock(STARTED + 3600)
        looking = settings.model_copy(update={"fairplay": True})
        jobs = jobs_for(storage, bot_runner, looking, clock)
        try:
            jobs.start()
            table = await store_finished_game(storage, ["ann", None])
            stored = await storage.load_table(table)
            assert stored is not None
            jobs.game_over(stored.table)  # a table of this process ended

            async def assessed() -> bool:
                return [r.status for r in await rows(storage)] == ["done"]

            await wait_until_async(assessed, 60, what="the seat assessed")
        finally:
            await jobs.close()
            await storage.close()

    asyncio.run(run())


def test_a_shutdown_waits_for_a_database_read_under_way_and_claims_nothing_after(
    database: dict[str, Any], settings: Settings, bot_runner: BotRunner
) -> None:
    """Cancelling a statement half-way can leave its connection to be collected unclosed:
    the loop is stopped at its next safe point instead, here once the read it is in
    returns, and it claims nothing after that (the seat waits for the next process)."""

    async def run() -> None:
        storage = await open_storage(**database)
        clock = FakeClock(STARTED + 3600)
        looking = settings.model_copy(update={"fairplay": True})
        jobs = jobs_for(storage, bot_runner, looking, clock)
        reading, release = asyncio.Event(), asyncio.Event()
        cancelled: list[bool] = []
        due_now = storage.assessments_due

        async def slow_read(*args: Any) -> list[DueSeat]:
            reading.set()
            try:
                await release.wait()  # the database answers late
            except asyncio.CancelledError:
                cancelled.append(True)
                raise
            return await due_now(*args)

        try:
            await store_finished_game(storage, ["ann", None])
            storage.assessments_due = slow_read  # type: ignore[method-assign,assignment]
            jobs.start()
            await asyncio.wait_for(reading.wait(), 30)
            closing = asyncio.create_task(jobs.close())
            for _ in range(20):
                await asyncio.sleep(0)  # yields to the loop, no wall time
            assert not closing.done() and not cancelled  # it waits for the read
            release.set()
            await asyncio.wait_for(closing, 30)
            assert not cancelled
            assert await rows(storage) == []  # nothing claimed: the seat is due still
            lease = looking.assessment_lease_seconds
            assert [seat.player_id for seat in await due_now(clock.now(), lease, 10)] == ["ann"]
        finally:
            release.set()
            await jobs.close()
            await storage.close()

    asyncio.run(run())


def test_a_moderator_sees_the_partner_evidence_that_reports_a_player_at_four(
    any_client: TestClient, hashes: FakeHashes
) -> None:
    client = any_client
    storage: Storage = client.app.state.server.storage  # type: ignore[attr-defined]
    mod, mod_id = registered(client, "mod")
    _, bea_id = registered(client, "bea")
    call: Any = client.portal.call  # type: ignore[union-attr]
    call(storage.grant_role, mod_id, "moderator", 0.0)
    seeing = replace(
        SeatAssessment.from_json(_telling("bea", 0.0)), telling=0, telling_matched=0,
        partner_telling=4, partner_matched=4, partner_gain=6.0, partner_evidence=2.5,
    ).to_json()  # fmt: skip

    # the plain search finds nothing in these games; the partner's hand does
    call(assessed_before, storage, bea_id, [seeing] * 10)
    client.cookies.set("rummykit_session", mod)
    case = client.get(f"/api/mod/players/{bea_id}").json()
    assert [a["partner_evidence"] for a in case["assessments"]] == [2.5] * 10
    account = case["account"]
    assert (account["evidence"], account["partner_telling"]) == (0.0, 40)
    assert account["partner_evidence"] == 25.0 and account["reported"]
