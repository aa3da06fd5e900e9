"""Browser tests: a real server in a background thread and Debian's Chromium, driven by
Playwright.  The browser is Chromium's headless shell, ``/usr/bin/chromium-headless-shell``
(apt package ``chromium-headless-shell``), the same engine without the desktop browser's
windowing, which takes about a sixth less of the processor for a game played in the
page; the tests of what only the whole browser has (a notification's permission) use
``/usr/bin/chromium`` (apt package ``chromium``).  Each is launched by its path; a machine
without it fails these tests instead of skipping them.

One server and one browser serve every test of a worker (session scope); each test
makes its own players in fresh browser contexts (``new_page``), so that no cookie, storage
or page is shared between tests.  When a test fails, each of its pages is left in its
temporary folder as it was at the end (``page-N.png``, ``page-N.html``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Playwright,
    ViewportSize,
    sync_playwright,
)

from tests.kit.threaded import ThreadedServer
from tests.web.driver import Player, open_page, sign_in

CHROMIUM = Path(os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium-headless-shell"))
WHOLE_CHROMIUM = Path(os.environ.get("RUMMYKIT_WHOLE_CHROMIUM", "/usr/bin/chromium"))
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}


class LiveServer(ThreadedServer):
    """``rummykit``'s server app under uvicorn in a thread, on a fresh SQLite file
    (``overrides``: settings of its own, such as a shorter grace period)."""

    def __init__(self, database: Path, **overrides: Any) -> None:
        from rummykit.server.app import create_app
        from rummykit.server.settings import Settings

        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{database}",
            secret_key="browser-test-secret",
            bot_pause_seconds=0.0,
            bot_workers=2,
            hint_iterations=24,
            assessment_iterations=24,
            fairplay=False,
            messages_per_second=1000.0,
            message_burst=1000,
            # every page comes from 127.0.0.1: the limits per address are for a crowd here
            guest_sessions_per_hour=10_000,
            registrations_per_hour=1_000,
        ).model_copy(update=overrides)
        super().__init__(create_app(settings))

    def __enter__(self) -> LiveServer:
        self.start()
        return self


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("server") / "rummykit.sqlite3") as server:
        yield server


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as started:
        yield started


@contextmanager
def launched(playwright: Playwright, executable: Path, package: str) -> Iterator[Browser]:
    """The Chromium at ``executable`` (of the apt ``package``), closed at the end."""
    if not executable.is_file():
        pytest.fail(f"the browser tests need {executable} (apt-get install {package})")
    chromium = playwright.chromium.launch(
        executable_path=str(executable), args=["--no-sandbox", "--disable-gpu"]
    )
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    with launched(playwright, CHROMIUM, "chromium-headless-shell") as chromium:
        yield chromium


@pytest.fixture(scope="session")
def whole_browser(playwright: Playwright) -> Iterator[Browser]:
    """The desktop browser, headless: what the headless shell lacks (a notification's
    permission granted to the page) is there."""
    with launched(playwright, WHOLE_CHROMIUM, "chromium") as chromium:
        yield chromium


MakePage = Callable[..., Player]


CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Mark a test whose call failed, for its fixtures' teardown to see."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[CALL_FAILED] = True
    return report


def _leave_pages(players: list[Player], folder: Path) -> None:
    """Each page as it is now, for a failed test's reader: a screenshot and the DOM."""
    for index, player in enumerate(players):
        with suppress(Exception):  # a page the test closed or crashed has nothing to show
            (folder / f"page-{index}.html").write_text(player.page.content())
            player.page.screenshot(path=folder / f"page-{index}.png", full_page=True)


@contextmanager
def page_maker(
    browser: Browser, base_url: str, request: pytest.FixtureRequest
) -> Iterator[MakePage]:
    """Make pages of the server at ``base_url`` in fresh browser contexts (separate
    cookies: separate players), closed at the end: a touch phone with ``touch=True``
    (mobile, touch events) as a tester holds one, a page signed in to ``session`` (a
    session cookie made elsewhere), ``init_script`` run first in every document.

    When the test of ``request`` fails, in the ``with`` block (a test that makes its
    pages itself) or after it (a fixture's), its pages are left in its ``tmp_path``."""
    folder: Path = request.getfixturevalue("tmp_path")
    contexts: list[BrowserContext] = []
    players: list[Player] = []

    def make(
        *,
        viewport: ViewportSize | None = None,
        language: str = "en",
        pace: str = "instant",
        touch: bool = False,
        session: str | None = None,
        init_script: str | None = None,
    ) -> Player:
        context = browser.new_context(
            viewport=viewport or DESKTOP, is_mobile=touch, has_touch=touch
        )
        contexts.append(context)
        if init_script is not None:
            context.add_init_script(init_script)
        if session is not None:
            sign_in(context, base_url, session)
        player = open_page(context, base_url, language=language, pace=pace)
        players.append(player)
        return player

    failed = False
    try:
        yield make
    except BaseException:
        failed = True
        raise
    finally:
        if failed or request.node.stash.get(CALL_FAILED, False):
            _leave_pages(players, folder)
        for context in contexts:
            context.close()


@pytest.fixture
def new_page(
    browser: Browser, live_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[MakePage]:
    """Make pages of the test server (see :func:`page_maker`)."""
    with page_maker(browser, live_server.url, request) as make:
        yield make
