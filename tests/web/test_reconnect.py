"""The server a page is connected to goes away mid-game (killed, so a table is
unreachable for a while): the page says it is reconnecting, in the player's language,
keeps trying through refused connections, and when the server is back the table
resumes where it was, and the player plays on."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.kit.processes import ServerProcess
from tests.kit.threaded import free_port
from tests.web.conftest import DESKTOP, PHONE, page_maker

SHORT = {"first_round": 3, "last_round": 4}
RECONNECTING = {
    "en": "reconnecting",
    "hu": "újrakapcsolódás",
    "ru": "переподключение",
}


@pytest.fixture(scope="module")
def process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server process for the module's tests (each kills it and starts it again)."""
    folder = tmp_path_factory.mktemp("reconnect")
    env = dict(os.environ)
    env.update(
        RUMMYKIT_DATABASE_URL=f"sqlite+aiosqlite:///{folder / 'rummykit.sqlite3'}",
        RUMMYKIT_SECRET_KEY="reconnect-test",
        RUMMYKIT_BOT_PAUSE_SECONDS="0",
        RUMMYKIT_BOT_WORKERS="1",
    )
    env.pop("RUMMYKIT_REDIS_URL", None)
    process = ServerProcess(env, free_port(), folder / "server.log")
    try:
        process.start()
        yield process
    finally:
        process.stop()


@pytest.fixture
def server(process: ServerProcess) -> ServerProcess:
    """The module's server process, running (started again if a test left it killed)."""
    if process.process is None or process.process.poll() is not None:
        process.start()
    return process


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_page_reconnects_until_its_server_is_back(
    browser: Browser, server: ServerProcess, language: str, request: pytest.FixtureRequest
) -> None:
    # Russian, the longest words, on a phone
    with page_maker(browser, f"http://127.0.0.1:{server.port}", request) as new_page:
        player = new_page(viewport=PHONE if language == "ru" else DESKTOP, language=language)
        player.new_table("three-thirteen", SHORT)
        # the first dealer is drawn from the seed, so the bot may open the round
        before = player.wait_turn_or_end()
        assert before["legal"], "the player's turn has come at a new table with a bot"

        server.kill()
        banner = player.page.locator(".banner[data-status=reconnecting]")
        banner.wait_for(timeout=15_000)
        assert RECONNECTING[language] in banner.inner_text().lower()
        # refused attempts (nothing listens) go on: it is still trying two attempts later
        for _ in range(2):
            player.page.wait_for_event("websocket", timeout=15_000)
        assert banner.is_visible()
        assert player.table()["status"] == "reconnecting"
        player.shoot(f"reconnecting-{language}")

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
