"""Reports and moderation in the browser: a player reports another from their profile
(the words stay text); a moderator, made so from the command line, finds the report in
the queue, opens the player's case and mutes them with a reason, which the log keeps;
the muted player's own profile says so; anyone else is refused the moderators' pages.
A player the fair-play assessment reports reaches the queue, and their case lists their
assessed games.  On a desktop and on a phone, in three languages."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from rummykit.fairplay.seat import SeatAssessment
from rummykit.server.storage.assessments import file_assessment_report
from rummykit.server.storage.models import AssessmentRow
from rummykit.server.storage.player_locks import holding_player
from tests.kit.finished_games import store_finished_game
from tests.kit.storage import open_storage
from tests.web.catalogs import MESSAGES
from tests.web.conftest import PHONE, LiveServer, MakePage, page_maker
from tests.web.scenes import register

HOSTILE = "<img src=x onerror=window.pwned=1>cheats"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    database = tmp_path_factory.mktemp("moderated") / "rummykit.sqlite3"
    with LiveServer(database) as server:
        yield server, database


@pytest.fixture
def pages(
    browser: Browser, site: tuple[LiveServer, Path], request: pytest.FixtureRequest
) -> Iterator[MakePage]:
    with page_maker(browser, site[0].url, request) as make:
        yield make


def _grant(database: Path, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "admin", "grant", name, "moderator",
         "--database", f"sqlite+aiosqlite:///{database}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("language", "phone"), [("en", False), ("hu", True), ("ru", False)])
def test_a_report_reaches_a_moderator_who_mutes_the_player(
    pages: MakePage, site: tuple[LiveServer, Path], language: str, phone: bool
) -> None:
    words = MESSAGES[language]
    viewport = PHONE if phone else None
    ann, bob, mod = (pages(language=language, viewport=viewport) for _ in range(3))
    for player, name in ((ann, "ann"), (bob, "bob"), (mod, "mod")):
        register(player, f"{name}_{language}")
        player.page.reload()  # the page learns who is signed in as it starts
    _grant(site[1], f"mod_{language}")
    ann_id = ann.api("GET", "/api/me")["player_id"]
    # Bob reports Ann from her profile
    bob.goto(f"/#/player/{ann_id}")
    bob.page.locator("[data-testid=report-player]").click()
    bob.page.locator("input[name=reason][value=abuse]").check()
    bob.page.locator("[data-testid=report-text]").fill(HOSTILE)
    bob.shoot(f"report-form-{language}-{'phone' if phone else 'desktop'}")
    bob.page.locator(".report-form button[type=submit]").click()
    assert bob.page.locator("[data-testid=report-sent]").inner_text() == words["report.sent"]
    # anyone but a moderator is refused the moderators' pages
    bob.goto("/#/mod")
    refused = bob.page.locator("[data-testid=mod-error]")
    refused.wait_for()
    assert refused.inner_text() == words["error.not_moderator"]
    # the moderator finds the report, its words as text, and opens Ann's case
    mod.goto("/#/mod")
    queued = mod.page.locator("[data-testid=queued-report]", has_text=f"ann_{language}")
    queued.wait_for()
    assert HOSTILE in queued.inner_text()
    mod.shoot(f"moderation-queue-{language}-{'phone' if phone else 'desktop'}")
    queued.locator("a").click()
    assert mod.page.locator("[data-testid=case-name]").inner_text().startswith(f"ann_{language}")
    mod.page.locator("[data-testid=mod-action]").select_option("mute")
    mod.page.locator("[data-testid=mod-minutes]").fill("30")
    mod.page.locator("[data-testid=mod-reason]").fill("rude in chat")
    mod.page.locator("[data-testid=mod-apply]").click()
    mod.page.locator("[data-testid=sanction][data-kind=mute]").wait_for()
    entry = mod.page.locator("[data-testid=log-entry]").first
    assert f"mod_{language}" in entry.inner_text() and "rude in chat" in entry.inner_text()
    mod.shoot(f"moderation-case-{language}-{'phone' if phone else 'desktop'}")
    # Ann's own profile says she is muted
    ann.goto(f"/#/player/{ann_id}")
    ann.page.locator("[data-testid=muted]").wait_for()
    assert not ann.page.locator("[data-testid=moderation-link]").count()
    for player in (ann, bob, mod):
        assert player.page.evaluate("() => window.pwned") is None
        assert not player.errors, player.errors


def _assessed(database: Path, player_id: str, name: str, *, at_four: bool) -> None:
    """Ten suspicious games of the player's, assessed, and the report that files (at
    four, with the partner figures of a player who sees the partner's hand)."""

    async def store() -> None:
        storage = await open_storage(f"sqlite+aiosqlite:///{database}")
        try:
            for number in range(10):
                table = await store_finished_game(storage, [player_id, None], seed=number)
                row = SeatAssessment(
                    game="three-thirteen", seat=0, player=name, outcome="won", iterations=1,
                    decisions=40, real_choices=30, matched=29, telling=8, telling_matched=7,
                    mean_loss=0.4, evidence=3.1, verdict="suspicious",
                    **PARTNER_FIGURES if at_four else {},
                ).to_json()  # fmt: skip
                async with storage._sessions.begin() as session:
                    session.add(
                        AssessmentRow(
                            table_id=table, seat=0, player_id=player_id, status="done",
                            claimed_by="test", claimed_at=0.0, attempts=1, done_at=float(number),
                            verdict="suspicious", evidence=3.1, figures=row,
                        )
                    )  # fmt: skip
            async with holding_player(storage, player_id) as session:
                await file_assessment_report(session, player_id, 1.0)
        finally:
            await storage.close()

    with ThreadPoolExecutor(1) as thread:  # the browser's driver holds this thread's loop
        thread.submit(asyncio.run, store()).result()


PARTNER_FIGURES: dict[str, Any] = {
    "partner_telling": 3, "partner_matched": 3, "partner_gain": 4.0, "partner_evidence": 1.8,
}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "phone", "at_four"), [("en", False, False), ("ru", True, True)]
)
def test_a_moderator_sees_the_fair_play_report_and_the_assessed_games(
    pages: MakePage, site: tuple[LiveServer, Path], language: str, phone: bool, at_four: bool
) -> None:
    words = MESSAGES[language]
    name = f"eve_{language}"
    eve, mod = (pages(language=language, viewport=PHONE if phone else None) for _ in range(2))
    register(eve, name)
    register(mod, f"fpmod_{language}")
    mod.page.reload()
    _grant(site[1], f"fpmod_{language}")
    eve_id = eve.api("GET", "/api/me")["player_id"]
    _assessed(site[1], eve_id, name, at_four=at_four)
    mod.goto("/#/mod")
    queued = mod.page.locator("[data-testid=queued-report]", has_text=name)
    queued.wait_for()
    assert words["report.reason.assessment"] in queued.inner_text()
    queued.locator("a").click()
    games = mod.page.locator("[data-testid=assessment]")
    games.first.wait_for()
    assert games.count() == 10
    assert words["mod.verdict.suspicious"] in games.first.inner_text()
    account = mod.page.locator("[data-testid=assessment-account]").inner_text()
    assert words["mod.account_reported"] in account
    seeing = words["mod.account_partner_line"].format(telling=30, evidence="18.0")
    assert (seeing in account) == at_four
    partner_line = words["mod.partner_line"].format(
        telling=3, matched=3, gain="4.0", evidence="1.8"
    )
    assert (partner_line in games.first.inner_text()) == at_four
    mod.shoot(
        f"moderation-assessments-{language}-{'phone' if phone else 'desktop'}",
        of=mod.page.locator("section[aria-labelledby=case-assessments]"),
    )
    # the player is never shown any of it
    eve.goto("/#/mod")
    eve.page.locator("[data-testid=mod-error]").wait_for()
    for player in (eve, mod):
        assert player.page.evaluate("() => window.pwned") is None
        assert not player.errors, player.errors
