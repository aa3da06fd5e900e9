"""The notifications' page in Chromium, on a server that offers Web Push and e-mail (a
real SMTP server of the test's): channels chosen per kind, an address confirmed by the
link its mail carries, this browser subscribed through the page's own service worker
(as far as headless Chromium goes: the worker registered and active, notifications
allowed, then the browser's push service, which a headless browser may lack), a push
message delivered to that worker showing its words as text and opening only this site,
the unsubscribe link without a session; screenshots at desktop and phone size in each
language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, expect

from tests.kit.mail import MailServer
from tests.kit.wait import WaitTimeout, wait_until
from tests.web.conftest import DESKTOP, PHONE, LiveServer, MakePage, page_maker
from tests.web.driver import Player

PASSWORD = "correct-horse-battery"
ROWS = ["your_turn", "game_ended", "invitation", "time_low", "tournament_round"]


@pytest.fixture(scope="module")
def mail() -> Iterator[MailServer]:
    server = MailServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def notify_server(
    tmp_path_factory: pytest.TempPathFactory, mail: MailServer
) -> Iterator[LiveServer]:
    database: Path = tmp_path_factory.mktemp("notify") / "rummykit.sqlite3"
    with LiveServer(
        database,
        push_contact="mailto:admin@example.org",
        smtp_url=mail.url,
        mail_from="rummykit@example.org",
        public_url="http://rummykit.test",
        notify_poll_seconds=0.2,
    ) as server:
        yield server


@pytest.fixture
def pages(
    whole_browser: Browser, notify_server: LiveServer, request: pytest.FixtureRequest
) -> Iterator[MakePage]:
    with page_maker(whole_browser, notify_server.url, request) as make:
        yield make


def register(player: Player, name: str) -> str:
    player.goto("/")
    answer = player.api("POST", "/api/register", {"name": name, "password": PASSWORD})
    player.page.reload()  # the page reads its session when it loads
    player.page.wait_for_selector("[data-testid=me]")
    return str(answer["player_id"])


def token_of(mail: MailServer, address: str, page: str) -> str:
    def found() -> str | None:
        for each in mail.messages():
            if each.recipients == (address,):
                match = re.search(rf"/#/{page}\?token=(\S+)", each.text)
                if match:
                    return unquote(match.group(1))
        return None

    return wait_until(found, what=f"the {page} link to {address}")


def shoot(player: Player, name: str) -> None:
    """The page's top, and (when it is longer than the screen) its end, as a person sees
    them (the felt stays put as the page scrolls, so no whole-page picture)."""
    player.page.evaluate("() => document.fonts.ready")
    player.page.evaluate("() => window.scrollTo(0, 0)")
    player.shoot(name)
    if player.page.evaluate("() => document.documentElement.scrollHeight > innerHeight"):
        player.page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        player.shoot(f"{name}-end")


RECORD_SHOWN = """() => {
  const registration = self.registration;
  const show = registration.showNotification.bind(registration);
  self.shownForTheTest = [];
  registration.showNotification = async (title, options = {}) => {
    await show(title, options);
    self.shownForTheTest.push({title, body: options.body, tag: options.tag,
                               page: options.data && options.data.page});
  };
}"""
"""Makes the page's service worker keep every notification it has shown.  Headless
Chromium's list of the notifications shown (``getNotifications()``) can lose them: in
runs where it came back empty, the worker's ``showNotification`` had resolved for each."""


class DevToolsPush:
    """Hands the page's service worker push messages, as the browser's push service would
    (Chrome's DevTools protocol), all through one DevTools session: the worker's
    registration is read once, and no second session enables the protocol's service
    worker domain beside the first.  What the worker shows is read from the worker
    (:data:`RECORD_SHOWN`)."""

    def __init__(self, player: Player) -> None:
        self.origin = player.base_url
        context = player.page.context
        self.worker = wait_until(
            lambda: next(iter(context.service_workers), None), what="the service worker"
        )
        self.worker.evaluate(RECORD_SHOWN)
        self.session = context.new_cdp_session(player.page)
        registrations: list[dict[str, Any]] = []
        self.session.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        # what became of the worker (started, stopped, failed), for a failure to tell
        self.story: list[str] = []
        self.session.on(
            "ServiceWorker.workerVersionUpdated",
            lambda event: self.story.extend(
                f"version {v['versionId']} {v['status']} {v['runningStatus']}"
                for v in event["versions"]
            ),
        )
        self.session.on(
            "ServiceWorker.workerErrorReported",
            lambda event: self.story.append(f"error {event['errorMessage']}"),
        )
        self.session.send("ServiceWorker.enable")

        def registration() -> str | None:
            player.page.evaluate("() => 0")  # let the protocol's events in
            return next(
                (r["registrationId"] for r in registrations if not r.get("isDeleted")), None
            )

        self.registration_id = wait_until(registration, what="the service worker's registration")

    def deliver(self, payload: dict[str, Any]) -> None:
        self.story.append(f"delivered {payload['tag']}")
        self.session.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": self.origin,
                "registrationId": self.registration_id,
                "data": json.dumps(payload),
            },
        )

    def shown(self, tag: str) -> list[dict[str, Any]]:
        """The notifications the worker has shown, once one of them has ``tag``; a failure
        says what the worker went through."""

        def with_tag() -> list[dict[str, Any]] | None:
            shown: list[dict[str, Any]] = self.worker.evaluate("() => self.shownForTheTest")
            return shown if any(n["tag"] == tag for n in shown) else None

        try:
            return wait_until(with_tag, what=f"the notification {tag}")
        except WaitTimeout as timeout:
            raise AssertionError(f"{timeout}; the worker: {self.story}") from None


def test_choosing_channels_confirming_an_address_and_subscribing_this_browser(
    pages: MakePage, mail: MailServer, notify_server: LiveServer
) -> None:
    player = pages(viewport=DESKTOP)
    register(player, "Nora")
    player.page.context.grant_permissions(["notifications"], origin=notify_server.url)
    player.goto("/#/notifications")
    grid = player.page.locator(".notify-grid")
    expect(grid.locator("tbody tr")).to_have_count(len(ROWS))
    expect(grid.locator("thead th[data-channel]")).to_have_count(3)
    # the page's column is always on; e-mail for a game's end and push for invitations
    game_end_mail = grid.locator("tr[data-kind=game_ended] input[data-channel=email]")
    game_end_mail.check()
    expect(game_end_mail).to_be_checked()
    grid.locator("tr[data-kind=invitation] input[data-channel=push]").check()
    wait_until(
        lambda: (
            player.api("GET", "/api/notifications")["channels"]
            == {"game_ended": ["email"], "invitation": ["push"]}
        ),
        what="the choices stored",
    )

    player.page.fill("input[name=email]", "nora@example.org")
    player.page.click(".notify-email-form button[type=submit]")
    expect(player.page.get_by_test_id("email-sent")).to_contain_text("nora@example.org")
    expect(player.page.get_by_test_id("email-state")).to_contain_text("Not confirmed")
    shoot(player, "notifications-desktop-en")
    token = token_of(mail, "nora@example.org", "verify-email")
    player.goto(f"/#/verify-email?token={token}")
    expect(player.page.get_by_test_id("link-done")).to_have_text("Your address is confirmed.")
    player.goto("/#/notifications")
    expect(player.page.get_by_test_id("email-state")).to_have_text(
        "Confirmed address: nora@example.org"
    )

    # this browser: the page's own service worker, then the browser's push service
    player.page.get_by_test_id("push-subscribe").click()
    outcome = player.page.locator("[data-testid=push-on], [data-testid=push-problem]")
    expect(outcome).to_be_visible()
    worker = player.page.evaluate(
        """async () => {
          const r = await navigator.serviceWorker.getRegistration();
          return {script: r && r.active && r.active.scriptURL, scope: r && r.scope,
                  permission: Notification.permission};
        }"""
    )
    assert worker == {
        "script": f"{notify_server.url}/service-worker.js",
        "scope": f"{notify_server.url}/",
        "permission": "granted",
    }
    subscribed = player.page.get_by_test_id("push-on").count() == 1
    stored = player.api("GET", "/api/notifications")["push_subscriptions"]
    if subscribed:  # a browser with a push service: the server keeps its subscription
        assert stored == 1
    else:  # headless Chromium without one: said so, and nothing is kept
        expect(player.page.get_by_test_id("push-problem")).to_have_attribute(
            "data-problem", "failed"
        )
        assert stored == 0

    # a message for this browser, as a push service hands it to the worker
    push = DevToolsPush(player)
    push.deliver(
        {
            "title": "<img src=x onerror=alert(1)>Your turn",
            "body": "It is your turn in your game (Burraco).",
            "path": "/#/table/abc123",
            "kind": "your_turn",
            "tag": "your_turn:abc123",
        },
    )
    shown = push.shown("your_turn:abc123")
    assert shown == [
        {
            "title": "<img src=x onerror=alert(1)>Your turn",  # text, never markup
            "body": "It is your turn in your game (Burraco).",
            "tag": "your_turn:abc123",
            "page": f"{notify_server.url}/#/table/abc123",
        }
    ]
    push.deliver({"title": "Elsewhere", "path": "//evil.example/x", "tag": "t2"})
    elsewhere = [n for n in push.shown("t2") if n["tag"] == "t2"]
    assert elsewhere[0]["page"] == f"{notify_server.url}/"  # never another site
    # Chromium's own console line about push in a private context is not the page's
    own = [e for e in player.errors if "does not support the Push API in incognito" not in e]
    assert own == []


@pytest.mark.parametrize(
    ("language", "viewport"), [("hu", PHONE), ("ru", PHONE), ("en", PHONE), ("ru", DESKTOP)]
)
def test_the_notifications_page_in_each_language_and_size(
    pages: MakePage, language: str, viewport: Any
) -> None:
    player = pages(viewport=viewport, language=language)
    register(player, f"Lang{language}{viewport['width']}")
    player.goto("/#/notifications")
    expect(player.page.locator(".notify-grid tbody tr")).to_have_count(len(ROWS))
    width = player.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], "the page is wider than the screen"
    assert player.page.locator("html").get_attribute("lang") == language
    size = "phone" if viewport is PHONE else "desktop"
    shoot(player, f"notifications-{size}-{language}")
    assert player.errors == []


def test_a_guest_is_offered_push_but_no_address_and_a_mail_link_needs_no_session(
    pages: MakePage, notify_server: LiveServer, mail: MailServer
) -> None:
    guest = pages(viewport=PHONE)
    guest.enter_lobby("Gus")
    guest.goto("/#/notifications")
    expect(guest.page.get_by_test_id("email-guest")).to_be_visible()

    owner = pages()
    owner_id = register(owner, "Olga")
    owner.goto("/#/notifications")
    owner.page.locator("tr[data-kind=game_ended] input[data-channel=email]").check()
    owner.page.fill("input[name=email]", "olga@example.org")
    owner.page.click(".notify-email-form button[type=submit]")
    owner.goto(f"/#/verify-email?token={token_of(mail, 'olga@example.org', 'verify-email')}")
    expect(owner.page.get_by_test_id("link-done")).to_be_visible()

    app: Any = notify_server.server.config.app
    links = app.state.server.notifier.links
    stranger = pages(viewport=PHONE, language="hu")  # no session at all
    stranger.goto(f"/#/unsubscribe?token={links.unsubscribe_token(owner_id, 'olga@example.org')}")
    stranger.page.get_by_test_id("unsubscribe").click()
    expect(stranger.page.get_by_test_id("link-done")).to_have_text(
        "Erre a címre több levelet nem küldünk."
    )
    shoot(stranger, "unsubscribe-phone-hu")
    assert owner.api("GET", "/api/notifications")["channels"] == {"game_ended": []}
    # a link for another address of the account is refused, and says so
    stranger.goto(f"/#/unsubscribe?token={links.unsubscribe_token(owner_id, 'old@example.org')}")
    stranger.page.get_by_test_id("unsubscribe").click()
    expect(stranger.page.locator(".notify-page [role=alert]")).to_have_text(
        "Ez a hivatkozás egy olyan címhez tartozik, amely már nem a fiókodé."
    )
