"""Hostile data in the browser.

A nickname and a chat line full of markup show as text wherever the client puts them
(the lobby, the open tables, a table's seats and chat, past games, a replay, the end of
a game) and never run; the rules route fetches only the project's own rule pages, whatever
game name the address holds; the Content-Security-Policy blocks an inline script put into
the page; and the client, used normally (the lobby, a table of each game, the rule pages
in every language, the API's documentation page), causes no policy violation at all.

Nicknames with markup are refused by the server, so the hostile name is written into the
database directly, as an older server might have left it: a guest is made through the
API, the server is stopped, the name is changed in the SQLite file, and a new server on
the same file (same signing key, so the same cookie) serves the tests.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Request, Route, expect

from tests.kit import http_clients
from tests.web.conftest import LiveServer, page_maker
from tests.web.driver import Player
from tests.web.scenes import draw_rather_than_take, play_seat

HOSTILE_NAME = "<img src=x onerror=window.__pwned=1>"
HOSTILE_CHAT = '<script>window.__pwned=2</script><img src=x onerror="window.__pwned=3">'
SHORT = {"first_round": 3, "last_round": 3}

# Records every policy violation of a document, from its first script on.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push({directive: event.violatedDirective, blocked: event.blockedURI,
                            sample: event.sample});
});
"""


@dataclass
class HostileServer:
    server: LiveServer
    cookie: str  # the session of the player whose nickname is HOSTILE_NAME

    @property
    def url(self) -> str:
        return self.server.url

    def api(self, method: str, path: str, body: Any = None) -> Any:
        response = http_clients.request(
            method,
            self.url + path,
            json=body,
            cookies={"rummykit_session": self.cookie},
            timeout=30,
        )
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostileServer]:
    database = tmp_path_factory.mktemp("hostile") / "rummykit.sqlite3"
    with LiveServer(database) as first:
        guest = http_clients.post(f"{first.url}/api/session", json={"nickname": "Mallory"})
        assert guest.status_code == 200, guest.text
        cookie = guest.cookies["rummykit_session"]
        player_id = guest.json()["player_id"]
    with sqlite3.connect(database) as db:
        changed = db.execute("UPDATE players SET name = ? WHERE id = ?", (HOSTILE_NAME, player_id))
        assert changed.rowcount == 1
    with LiveServer(database) as server:
        yield HostileServer(server, cookie)


@pytest.fixture
def pages(
    browser: Browser, hostile: HostileServer, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """Make a page on the hostile server; ``mallory=True`` signs it in as the player with
    the hostile nickname.  Every document records its policy violations."""
    with page_maker(browser, hostile.url, request) as make:

        def page(*, mallory: bool = False, language: str = "en") -> Player:
            session = hostile.cookie if mallory else None
            return make(language=language, session=session, init_script=WATCH_VIOLATIONS)

        yield page


def violations(player: Player) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = player.page.evaluate("window.__violations || []")
    return found


def assert_harmless(player: Player, where: str) -> None:
    """Nothing injected ran or became an element, and the policy was never violated."""
    page = player.page
    assert page.evaluate("window.__pwned") is None, where
    assert page.locator("img[src='x']").count() == 0, where
    assert page.locator("script:not([src])").count() == 0, where
    assert violations(player) == [], where
    assert player.errors == [], where


def assert_shows_text(player: Player, text: str, where: str) -> None:
    player.page.wait_for_function(
        "text => document.body.textContent.includes(text)", arg=text, timeout=20_000
    )
    assert_harmless(player, where)


def test_markup_in_a_nickname_and_in_chat_is_shown_as_text(
    hostile: HostileServer, pages: Any
) -> None:
    seats_vs_bot = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    finished = hostile.api(
        "POST",
        "/api/tables",
        {"game": "three-thirteen", "rules": SHORT, "seats": seats_vs_bot, "turn_seconds": None},
    )["table_id"]
    play_seat(hostile.url, finished, hostile.cookie, draw_rather_than_take)
    waiting = hostile.api(
        "POST",
        "/api/tables",
        {"game": "three-thirteen", "seats": [{"kind": "human"}] * 2, "turn_seconds": None},
    )["table_id"]

    mallory = pages(mallory=True)
    mallory.goto("/")
    assert_shows_text(mallory, HOSTILE_NAME, "the lobby's own name")
    mallory.page.locator(".history-list li").first.wait_for()
    assert_harmless(mallory, "past games")

    bob = pages()
    bob.goto("/")
    bob.sit_down("Bob")
    bob.page.locator(f".table-row[data-table='{waiting}']").wait_for()
    assert_shows_text(bob, HOSTILE_NAME, "the open tables")

    mallory.page.goto(f"{hostile.url}/#/table/{waiting}")
    mallory.page.locator("[data-testid=waiting-room]").wait_for()
    assert_shows_text(mallory, HOSTILE_NAME, "a table's seats")

    bob.page.click(f".table-row[data-table='{waiting}'] button.primary")
    bob.wait_table()
    assert_shows_text(bob, HOSTILE_NAME, "a table's seats, as seen by another")
    bob.page.click(".side-tabs [data-tab=chat]")
    mallory.page.click(".side-tabs [data-tab=chat]")
    mallory.page.fill(".chat-form input", HOSTILE_CHAT)
    mallory.page.keyboard.press("Enter")
    assert_shows_text(mallory, HOSTILE_CHAT, "the chat, as said")
    assert_shows_text(bob, HOSTILE_CHAT, "the chat, as heard")

    mallory.page.goto(f"{hostile.url}/#/replay/{finished}")
    mallory.page.locator("[data-testid=replay-step]").wait_for()
    mallory.page.click("[data-testid=replay-next]")
    assert_shows_text(mallory, HOSTILE_NAME, "a replay")

    mallory.page.goto(f"{hostile.url}/#/table/{finished}")
    mallory.page.locator("[data-testid=result-headline]").wait_for()
    assert_shows_text(mallory, HOSTILE_NAME, "the end of a game")


@pytest.mark.parametrize(
    "route",
    [
        "#/rules/../../api/tables",
        "#/rules/%2e%2e%2fapi",
        "#/rules/..%2F..%2Fapi%2Ftables%3F",
        "#/rules/..%2F..%2Fapi%2Ftables",
        "#/rules/chess",
        "#/rules/__proto__",
    ],
)
def test_the_rules_route_fetches_only_the_projects_rule_pages(
    hostile: HostileServer, pages: Any, route: str
) -> None:
    # a public table whose seat carries the hostile name: what /api/tables would show
    hostile.api("POST", "/api/tables", {"game": "burraco", "seats": [{"kind": "human"}] * 2})
    visitor = pages()
    fetched: list[str] = []
    visitor.page.on("request", lambda request: fetched.append(request.url))
    visitor.goto(f"/{route}")
    visitor.page.locator("[data-testid=rules-unknown]").wait_for()
    assert visitor.page.locator(".rules-body").count() == 0
    assert not [url for url in fetched if "/api/tables" in url or "/rules/" in url], fetched
    assert_harmless(visitor, route)


def test_the_policy_blocks_inline_script(hostile: HostileServer, pages: Any) -> None:
    visitor = pages()
    visitor.goto("/")
    blocked = visitor.page.evaluate(
        """() => new Promise((resolve) => {
          document.addEventListener("securitypolicyviolation",
            (event) => resolve(event.violatedDirective), {once: true});
          const script = document.createElement("script");
          script.textContent = "window.__inline = 1";
          document.body.append(script);
          setTimeout(() => resolve(null), 5000);  // a time limit: the event resolves at once
        })"""
    )
    assert blocked in ("script-src-elem", "script-src")
    assert visitor.page.evaluate("window.__inline") is None
    # an inline event handler and a style attribute are refused too
    visitor.page.evaluate(
        """() => {
          const image = document.createElement("img");
          image.setAttribute("onerror", "window.__handler = 1");
          image.src = "img/none.png";
          document.body.append(image);
          document.body.setAttribute("style", "outline: 7px solid red");
        }"""
    )
    visitor.page.wait_for_function("() => window.__violations.length >= 3")
    directives = {v["directive"] for v in violations(visitor)}
    assert {"script-src-attr", "style-src-attr"} <= directives, directives
    assert visitor.page.evaluate("window.__handler") is None
    outline = visitor.page.evaluate("getComputedStyle(document.body).outlineWidth")
    assert outline != "7px"


def _take_a_turn(player: Player) -> None:
    """Draw from the stock if it is the player's turn (the bots may have moved first)."""
    state = player.wait_turn_or_end()
    if not state["view"]["gameOver"]:
        player.page.click("[data-testid=stock]")
        player.wait_settled()


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_normal_use_causes_no_policy_violation(
    hostile: HostileServer, pages: Any, language: str
) -> None:
    visitor = pages(language=language)
    visitor.goto("/")
    visitor.sit_down(f"Vera-{language}")
    # signed in (the session cookie is set) before the page is loaded again
    visitor.page.wait_for_selector("[data-testid=me]")  # the name shows once it is set
    for game in ("burraco", "three-thirteen"):
        visitor.goto("/")
        visitor.play_now(game)
        _take_a_turn(visitor)
        # Preact's style props reach the page through the CSSOM, which the policy allows
        styled = visitor.page.evaluate(
            "document.querySelector('.hand').style.getPropertyValue('--step')"
        )
        assert styled.endswith("px"), styled
        assert_harmless(visitor, f"a table of {game}")
    for game in ("burraco", "three-thirteen"):
        visitor.goto(f"/#/rules/{game}")
        expect(visitor.page.locator(".rules-body").locator("h1, h2").first).to_be_visible()
        assert visitor.page.evaluate("document.documentElement.lang") == language
        assert_harmless(visitor, f"the rules of {game}")


DOCUMENTATION_MS = 90_000
"""How long a documentation page may take to show its title (see its test)."""


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_documentation_pages_work_with_no_network_but_the_server(
    hostile: HostileServer, pages: Any, path: str
) -> None:
    """With every other host unreachable, /docs (Swagger UI) and /redoc (ReDoc) show the
    API from the files the server itself serves; the page asks no other host for
    anything, and a script of another host is refused by the policy.  The one violation
    is ReDoc's own: its sidebar always shows Redocly's logo from Redocly's host, which the
    policy stops before any request leaves."""
    visitor = pages()
    elsewhere: list[str] = []

    def unreachable(route: Route, request: Request) -> None:
        elsewhere.append(request.url)
        route.abort()

    visitor.page.route(lambda url: not url.startswith(hostile.url), unreachable)
    visitor.page.goto(f"{hostile.url}{path}")
    title = ".swagger-ui .info .title" if path == "/docs" else "h1"
    # the server builds its OpenAPI document on the first request for it and the page
    # lays out the whole API from it: seconds of work for each alone, which a run of
    # four test processes on two cores stretched past the usual limit (ReDoc, 20 s)
    visitor.page.locator(title).first.wait_for(timeout=DOCUMENTATION_MS)
    assert "rummykit" in visitor.page.locator(title).first.inner_text().lower()
    expected = [] if path == "/docs" else [("img-src", "https://cdn.redoc.ly/redoc/logo-mini.svg")]
    visitor.page.wait_for_function(f"() => (window.__violations || []).length >= {len(expected)}")
    assert [(v["directive"], v["blocked"]) for v in violations(visitor)] == expected
    assert elsewhere == []
    visitor.page.evaluate(
        """() => { const s = document.createElement('script');
        s.src = 'https://cdn.jsdelivr.net/npm/evil@1/evil.js'; document.body.append(s); }"""
    )
    visitor.page.wait_for_function(f"() => (window.__violations || []).length > {len(expected)}")
