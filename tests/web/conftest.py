"""Browser tests: a real server in a background thread and Debian's Chromium, driven by
Playwright.  The browser is ``/usr/bin/chromium`` (apt package ``chromium``), launched by
its path; a machine without it fails these tests instead of skipping them."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ViewportSize, sync_playwright

from tests.web.driver import Player, open_page

CHROMIUM = Path(os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(os.environ.get("RUMMYKIT_SCREENSHOTS", "test-output/screenshots"))
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """``rummykit``'s server app under uvicorn in a thread, on a fresh SQLite file."""

    def __init__(self, database: Path) -> None:
        import uvicorn

        from rummykit.server.app import create_app
        from rummykit.server.settings import Settings

        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{database}",
            secret_key="browser-test-secret",
            bot_pause_seconds=0.0,
            bot_workers=2,
            hint_iterations=24,
            messages_per_second=1000.0,
            message_burst=1000,
            # every page comes from 127.0.0.1: the limits per address are for a crowd here
            guest_sessions_per_hour=10_000,
            registrations_per_hour=1_000,
        )
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("server") / "rummykit.sqlite3")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        pytest.fail(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        yield chromium
        chromium.close()


MakePage = Callable[..., Player]


@pytest.fixture
def new_page(browser: Browser, live_server: LiveServer) -> Iterator[MakePage]:
    """Make pages in fresh browser contexts (separate cookies: separate players)."""
    contexts: list[BrowserContext] = []

    def make(
        *, viewport: ViewportSize | None = None, language: str = "en", pace: str = "instant"
    ) -> Player:
        context = browser.new_context(viewport=viewport or DESKTOP)
        contexts.append(context)
        return open_page(context, live_server.url, language=language, pace=pace)

    yield make
    for context in contexts:
        context.close()
