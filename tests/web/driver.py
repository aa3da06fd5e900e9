"""A player at the browser: opens the client, clicks and drags like a person would, and
reads back what the page shows and what it was sent."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import BrowserContext, ConsoleMessage, Page, WebSocket

TIMEOUT_MS = 20_000
SESSION_COOKIE = "rummykit_session"


def session_of(context: BrowserContext) -> str:
    """The session a browser context signs in with (its cookie's value)."""
    return next(c["value"] for c in context.cookies() if c["name"] == SESSION_COOKIE)


def sign_in(context: BrowserContext, base_url: str, session: str) -> None:
    """Give ``context`` the session ``session`` (made outside the browser)."""
    context.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base_url}])


@dataclass
class Player:
    """One browser page and what it received over its table WebSockets."""

    page: Page
    base_url: str
    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    # -- navigation ------------------------------------------------------------------

    def goto(self, path: str = "/") -> None:
        self.page.goto(self.base_url + path)
        self.page.wait_for_selector(".topbar")

    def sit_down(self, nickname: str) -> None:
        """Choose a nickname on the lobby (or on a table's join form)."""
        self.page.fill("input[name=nickname]", nickname)
        self.page.click("form button[type=submit]")

    def play_now(self, game: str) -> None:
        """Press "Play now" once the player has a name (without one, it asks for it)."""
        self.page.wait_for_selector("[data-testid=me]")
        button = self.page.locator(f"button.play-now[data-game='{game}']")
        button.wait_for()
        self.page.wait_for_function(
            f"() => !document.querySelector(\"button.play-now[data-game='{game}']\").disabled"
        )
        button.click()
        self.wait_table()

    def wait_table(self) -> None:
        self.page.wait_for_selector(".board", timeout=TIMEOUT_MS)

    def new_table(self, game: str, rules: dict[str, Any], nickname: str = "Ada") -> None:
        """Sit down as ``nickname`` and open a new table of ``game`` with ``rules``
        against a greedy bot (made through the API, as the new-table dialog would)."""
        self.goto("/")
        self.sit_down(nickname)
        self.page.wait_for_selector("[data-testid=me]")
        table_id = self.page.evaluate(
            """async ([game, rules]) => {
              const response = await fetch("/api/tables", {method: "POST",
                headers: {"content-type": "application/json"},
                body: JSON.stringify({game, rules,
                  seats: [{kind: "human"}, {kind: "bot", level: "greedy"}]})});
              return (await response.json()).table_id;
            }""",
            [game, rules],
        )
        self.page.goto(f"{self.base_url}/#/table/{table_id}")
        self.wait_table()

    # -- what the page holds ------------------------------------------------------------

    def table(self) -> dict[str, Any]:
        """The table as the page holds it (the controller's store)."""
        data: dict[str, Any] = self.page.evaluate(
            """() => {
              const c = window.rummykitTable;
              if (!c) return null;
              const s = c.store.get();
              const shown = [...document.querySelectorAll(".hand .hand-card")]
                .map((e) => e.dataset.card);
              const held = s.view && s.view.hand ? [...s.view.hand] : [];
              const board = document.querySelector(".board");
              const number = s.message ? String(s.message.state_number) : "";
              const drawn = Boolean(board) && board.dataset.stateNumber === number &&
                shown.length === held.length && [...shown].sort().join() === held.sort().join();
              return {seat: s.seat, view: s.view, legal: s.legal, pending: s.pending, drawn,
                      status: s.status, tableStatus: s.tableStatus,
                      stateNumber: s.message ? s.message.state_number : null,
                      queued: c.queue.length, errors: s.errors, gameOver: s.gameOver,
                      tableId: c.tableId};
            }"""
        )
        return data

    def received(self) -> list[dict[str, Any]]:
        """Every message the page's table controller received, as it kept them."""
        data: list[dict[str, Any]] = self.page.evaluate("() => window.rummykitTable.received")
        return data

    def hand(self) -> list[str]:
        """The cards shown in the player's hand, left to right, top row first."""
        names: list[str] = self.page.eval_on_selector_all(
            ".hand .hand-card", "els => els.map(e => e.dataset.card)"
        )
        return names

    def shown_cards(self) -> Counter[str]:
        """Every face-up card drawn anywhere on the page (by its data-card attribute)."""
        names: list[str] = self.page.eval_on_selector_all(
            "[data-card]", "els => els.map(e => e.dataset.card)"
        )
        return Counter(names)

    # -- waiting ------------------------------------------------------------------------

    def wait_settled(self) -> dict[str, Any]:
        """Wait until no move is in flight or queued; return the table."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while True:
            state = self.table()
            ready = state and state["view"] and not state["pending"] and not state["queued"]
            if ready and (state["drawn"] or state["seat"] is None):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the table never settled: {state}")
            time.sleep(0.02)

    def wait_turn_or_end(self) -> dict[str, Any]:
        """Wait until it is this player's turn (nothing in flight) or the game is over."""
        deadline = time.monotonic() + 30
        while True:
            state = self.table()
            ready = state and state["view"] and not state["pending"] and not state["queued"]
            if ready and (state["drawn"] or state["seat"] is None):
                view = state["view"]
                if view["gameOver"] or view["currentPlayer"] == state["seat"]:
                    return state
            if time.monotonic() > deadline:
                self.page.screenshot(path="test-output/stuck.png")
                raise AssertionError(f"no turn came: {state}")
            time.sleep(0.02)

    def close_dialogs(self) -> None:
        """Dismiss an end-of-hand or end-of-round summary if one is open."""
        for selector in (
            ".dialog.round-over .actions .primary",
            ".dialog.hand-over .actions .primary",
        ):
            button = self.page.locator(selector)
            if button.count():
                button.first.click()

    # -- moves --------------------------------------------------------------------------

    def card_button(self, name: str, *, skip: int = 0) -> Any:
        """The hand's button for a copy of ``name`` (the ``skip``-th copy from the left)."""
        return self.page.locator(f".hand .hand-card[data-card='{name}']").nth(skip)

    def tap_card(self, name: str, *, skip: int = 0, double: bool = False) -> None:
        """Tap a card of the hand on its corner, the part that shows when cards overlap."""
        button = self.card_button(name, skip=skip)
        box = button.bounding_box()
        assert box
        position = {"x": min(10, box["width"] / 4), "y": box["height"] * 0.35}
        if double:
            button.dblclick(position=position)
        else:
            button.click(position=position)

    def select(self, names: list[str]) -> None:
        """Tap each card of ``names`` in the hand (copies counted left to right)."""
        used: Counter[str] = Counter()
        for name in names:
            self.tap_card(name, skip=used[name])
            used[name] += 1
        selected: list[str] = self.page.eval_on_selector_all(
            ".hand .hand-card.selected", "els => els.map(e => e.dataset.card)"
        )
        assert Counter(selected) == Counter(names), (selected, names)

    def drag(self, source: Any, target: Any, *, at: float = 0.5) -> None:
        """Drag with the mouse, in small steps, as a hand would; drop at the fraction ``at``
        of the target's width.  Both ends are measured once they stand still (the hand's
        cards slide for a moment after it changes)."""
        for end in (source, target):
            end.element_handle().wait_for_element_state("stable")
        box = source.bounding_box()
        goal = target.bounding_box()
        assert box and goal
        # press on the card's corner: the part that shows when cards overlap
        x0, y0 = box["x"] + min(12, box["width"] / 4), box["y"] + box["height"] / 2
        x1, y1 = goal["x"] + goal["width"] * at, goal["y"] + goal["height"] / 2
        pressed = self.page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y)?.closest('[data-card]');"
            " return e ? [e.dataset.card, e.dataset.key || null] : null; }",
            [x0, y0],
        )
        expected = source.evaluate("e => [e.dataset.card, e.dataset.key || null]")
        assert pressed == expected, (pressed, expected, box)
        self.page.mouse.move(x0, y0)
        self.page.mouse.down()
        steps = 8
        for i in range(1, steps + 1):
            self.page.mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.page.mouse.up()

    def click_action(self, action: str) -> None:
        self.page.click(f".action-bar button[data-action='{action}']")


def open_page(context: BrowserContext, base_url: str, *, language: str, pace: str) -> Player:
    """A page of ``context`` with saved settings (language, pace of others' moves) and
    every table WebSocket frame recorded."""
    saved = json.dumps(json.dumps({"language": language, "pace": pace}))
    context.add_init_script(
        "try { if (!localStorage.getItem('rummykit.settings')) "
        f"localStorage.setItem('rummykit.settings', {saved}); }} catch (e) {{}}"
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    player = Player(page=page, base_url=base_url)

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: player.frames.append(str(payload)))

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: player.errors.append(str(error)))

    def on_console(message: ConsoleMessage) -> None:
        # a refused request (401 before signing in) is logged by the browser itself
        if message.type == "error" and "Failed to load resource" not in message.text:
            player.errors.append(message.text)

    page.on("console", on_console)
    return player


class Socket:
    """A table WebSocket (``websockets``' sync client) with the test client's
    ``receive_json``/``send_json``, for the server tests' scripted players."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def receive_json(self) -> Any:
        return json.loads(self.connection.recv(timeout=60))

    def send_json(self, message: Any) -> None:
        self.connection.send(json.dumps(message))
