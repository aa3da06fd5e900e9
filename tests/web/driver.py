"""A player at the browser: opens the client, clicks and drags like a person would, and
reads back what the page shows and what it was sent.

Every wait here is for something on the page (a state drawn, a turn, the page at rest),
never for a length of time: the time limits only turn a hang into a failure.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, ConsoleMessage, Locator, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.kit.wait import wait_until

TIMEOUT_MS = 20_000
SESSION_COOKIE = "rummykit_session"
SCREENSHOTS = Path(os.environ.get("RUMMYKIT_SCREENSHOTS", "test-output/screenshots"))
"""Where the tests' screenshots go, for a person to look at (no test reads them)."""
SHOTS = os.environ.get("RUMMYKIT_SHOTS")
"""A folder for the screenshots taken only on request (many a game: a turn's layout)."""

# The table as the page holds it (the controller's store), and whether the page has drawn
# the state it holds: the board shows its state number and the hand its cards.
TABLE = """() => {
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

# The page shows a board and holds a table's controller (of the table id given, if any).
AT_A_TABLE = """(tableId) => document.querySelector(".board") !== null
  && window.rummykitTable != null
  && (tableId == null || window.rummykitTable.tableId === tableId)"""

# The table once nothing is in flight or queued and the page has drawn it (a watcher
# has no hand to draw); with ``turn``, only at the seat's turn or at the game's end.
SETTLED = f"""(turn) => {{
  const state = ({TABLE})();
  if (!state || !state.view || state.pending || state.queued) return null;
  if (!state.drawn && state.seat !== null) return null;
  if (turn && !state.view.gameOver && state.view.currentPlayer !== state.seat) return null;
  return state;
}}"""

# Resolves once the page is at rest: two frames have been drawn with no animation or
# transition running that ends (the hand sliding into place, a panel sliding in), so the
# observers that measure the page after a frame and the effects that run after a paint
# (a dialog's focus) have run.  Bounded in frames.
AT_REST = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  for (let round = 0; round < 50; round += 1) {
    await frame();
    await frame();
    const moving = document.getAnimations().filter((a) => a.playState === "running"
      && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    if (!moving.length) return;
    await Promise.all(moving.map((a) => a.finished.catch(() => null)));
  }
}"""


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

    def wait_table(self, table_id: str | None = None) -> None:
        """Wait until the page shows a board and holds the table it belongs to (the table
        ``table_id``, when given): going from one table to another, the board of the one
        left may still be drawn for a frame after the page let go of it."""
        self.page.wait_for_function(AT_A_TABLE, arg=table_id, timeout=TIMEOUT_MS)

    def enter_lobby(self, nickname: str) -> None:
        """Open the lobby and sit down as ``nickname``; back once the page names them."""
        self.goto("/")
        self.sit_down(nickname)
        self.page.wait_for_selector("[data-testid=me]")

    def new_table(self, game: str, rules: dict[str, Any], nickname: str = "Ada") -> None:
        """Sit down as ``nickname`` and open a new table of ``game`` with ``rules``
        against a greedy bot (made through the API, as the new-table dialog would)."""
        self.enter_lobby(nickname)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
        table_id = self.create_table({"game": game, "rules": rules, "seats": seats})
        self.page.goto(f"{self.base_url}/#/table/{table_id}")
        self.wait_table()

    # -- what the page holds ------------------------------------------------------------

    def table(self) -> dict[str, Any]:
        """The table as the page holds it (the controller's store)."""
        data: dict[str, Any] = self.page.evaluate(TABLE)
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

    def wait_hand(self, size: int) -> list[str]:
        """The hand, once the page shows ``size`` cards in it (a busy page may still be
        laying it out after a move)."""
        self.page.wait_for_function(
            "(n) => document.querySelectorAll('.hand .hand-card').length === n", arg=size
        )
        return self.hand()

    def shown_cards(self) -> Counter[str]:
        """Every face-up card drawn anywhere on the page (by its data-card attribute)."""
        names: list[str] = self.page.eval_on_selector_all(
            "[data-card]", "els => els.map(e => e.dataset.card)"
        )
        return Counter(names)

    # -- waiting ------------------------------------------------------------------------

    def _wait_table(self, *, turn: bool, timeout_ms: int) -> dict[str, Any]:
        try:
            handle = self.page.wait_for_function(SETTLED, arg=turn, timeout=timeout_ms)
        except PlaywrightTimeout:
            now = self.table()
            if not turn:
                raise AssertionError(f"the table never settled: {now}") from None
            self.page.screenshot(path="test-output/stuck.png")
            raise AssertionError(f"no turn came: {now}") from None
        # the table as it was when the page was found settled (a later move may follow)
        state: dict[str, Any] = handle.json_value()
        return state

    def wait_settled(self) -> dict[str, Any]:
        """Wait until no move is in flight or queued; return the table."""
        return self._wait_table(turn=False, timeout_ms=TIMEOUT_MS)

    def wait_turn_or_end(self) -> dict[str, Any]:
        """Wait until it is this player's turn (nothing in flight) or the game is over."""
        return self._wait_table(turn=True, timeout_ms=30_000)

    def turns(self, *, limit: int = 2_000) -> Iterator[dict[str, Any]]:
        """The table at each of the player's turns (an end-of-round summary closed)
        until the game is over; a failure past ``limit`` turns."""
        for _ in range(limit):
            state = self.wait_turn_or_end()
            self.close_dialogs()
            if state["view"]["gameOver"]:
                return
            yield state
        raise AssertionError("the game did not end")

    def at_turn(self) -> dict[str, Any] | None:
        """The table if it is this player's turn, settled, right now; else ``None``."""
        state: dict[str, Any] | None = self.page.evaluate(SETTLED, True)
        if state is None or state["view"]["gameOver"]:
            return None
        return state

    def settle(self) -> None:
        """Wait until the page is at rest (see :data:`AT_REST`), before measuring it."""
        self.page.evaluate(AT_REST)

    def last_action_of(self, seat: int) -> str | None:
        """The latest action the server reports for ``seat`` in the messages the page got."""
        action: str | None = self.page.evaluate(
            """(seat) => {
              const got = window.rummykitTable.received;
              for (let i = got.length - 1; i >= 0; i -= 1) {
                const last = got[i].last_action;
                if (got[i].type === "state" && last && last.seat === seat) return last.action;
              }
              return null;
            }""",
            seat,
        )
        return action

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

    # -- the API, from the page ---------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """``fetch`` from the page (its origin, its session cookie): the JSON answer of a
        call that must succeed."""
        answer: dict[str, Any] = self.page.evaluate(
            """async ([method, path, body]) => {
              const init = {method, headers: {"content-type": "application/json"}};
              if (body !== null) init.body = JSON.stringify(body);
              const response = await fetch(path, init);
              return {status: response.status, body: await response.json()};
            }""",
            [method, path, body],
        )
        assert answer["status"] == 200, (method, path, answer)
        return answer["body"]

    def create_table(self, body: dict[str, Any]) -> str:
        """A new table made as this player (``POST /api/tables`` with ``body``); its id."""
        table_id: str = self.api("POST", "/api/tables", body)["table_id"]
        return table_id

    # -- screenshots --------------------------------------------------------------------

    def shoot(
        self,
        name: str,
        *,
        of: Locator | None = None,
        full_page: bool = False,
        at_rest: bool = True,
    ) -> None:
        """A screenshot of the page (or of the element ``of``) once it is at rest (or at
        once, to show what moves), saved as ``name``.png in :data:`SCREENSHOTS`."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if at_rest:
            self.settle()
        path = SCREENSHOTS / f"{name}.png"
        if of is not None:
            of.screenshot(path=path)
        else:
            self.page.screenshot(path=path, full_page=full_page)

    def shot(self, name: str, *, full_page: bool = False) -> None:
        """A screenshot as ``name``.png in :data:`SHOTS`, only when that folder is set."""
        if SHOTS:
            self.page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=full_page)


def whose_turn(*players: Player) -> Player:
    """The one of ``players`` whose page shows their turn, settled (the pages of one
    table: one of them is to move)."""

    def mover() -> Player | None:
        return next((player for player in players if player.at_turn() is not None), None)

    return wait_until(mover, TIMEOUT_MS / 1000, what="a turn of one of the players")


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
