"""The server a page is connected to goes away mid-game (killed, so a table is
unreachable for a while): the page says it is reconnecting, in the player's language,
keeps trying through refused connections, and when the server is back the table
resumes where it was, and the player plays on."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.server.storage.test_recovery_process import ServerProcess, free_port
from tests.web.conftest import DESKTOP, PHONE, SCREENSHOTS
from tests.web.driver import open_page

SHORT = {"first_round": 3, "last_round": 4}
RECONNECTING = {
    "en": "reconnecting",
    "hu": "újrakapcsolódás",
    "ru": "переподключение",
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    env = dict(os.environ)
    env.update(
        RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'rummykit.sqlite3'}",
        RUMMYKIT_SECRET_KEY="reconnect-test",
        RUMMYKIT_BOT_PAUSE_SECONDS="0",
        RUMMYKIT_BOT_WORKERS="1",
    )
    env.pop("RUMMYKIT_REDIS_URL", None)
    process = ServerProcess(env, free_port(), tmp_path / "server.log")
    try:
        process.start()
        yield process
    finally:
        if process.process is not None and process.process.poll() is None:
            process.kill()


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_page_reconnects_until_its_server_is_back(
    browser: Browser, server: ServerProcess, language: str
) -> None:
    # Russian, the longest words, on a phone
    context = browser.new_context(viewport=PHONE if language == "ru" else DESKTOP)
    try:
        player = open_page(
            context, f"http://127.0.0.1:{server.port}", language=language, pace="instant"
        )
        player.new_table("three-thirteen", SHORT)
        # the first dealer is drawn from the seed, so the bot may open the round
        before = player.wait_turn_or_end()
        assert before["legal"], "the player's turn has come at a new table with a bot"

        server.kill()
        banner = player.page.locator(".banner[data-status=reconnecting]")
        banner.wait_for(timeout=15_000)
        assert RECONNECTING[language] in banner.inner_text().lower()
        # refused attempts (nothing listens) go on: it is still trying a while later
        player.page.wait_for_timeout(3_000)
        assert banner.is_visible()
        assert player.table()["status"] == "reconnecting"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(SCREENSHOTS / f"reconnecting-{language}.png"))

        server.start()  # the same port, the same database: the table is restored
        banner.wait_for(state="detached", timeout=30_000)
        after = player.wait_settled()
        assert after["status"] == "open"
        assert after["stateNumber"] == before["stateNumber"]
        assert after["view"]["hand"] == before["view"]["hand"]
        # the player plays on: a move is answered by the restored table
        player.page.click(".action-bar button[data-action='draw']")
        player.page.wait_for_function(
            "n => window.rummykitTable.store.get().message.state_number > n",
            arg=before["stateNumber"],
        )
    finally:
        context.close()
