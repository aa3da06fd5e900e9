"""Whole games on a 360 by 740 phone, in each language: at every turn of the player the
stock, the discard pile's top card, every action button offered and every card of the
hand lie inside the screen with nothing over them (the element at the centre of each, or
at the corner of a hand card, is that control).

Burraco is played by two people who never take the pile, so that it grows past 20, 40
and 60 cards (the stock and both pozzetti run out at 86); Three-Thirteen by a player and
two or three computers through the 13-card round, the player's arrangement open.  At the end,
the score breakdown shows the player's own column whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.sync.client import connect

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player, session_of

RANKS = "A23456789TJQK"
LANGUAGES = ["en", "hu", "ru"]
SHOTS = os.environ.get("RUMMYKIT_SHOTS")  # a folder: save screenshots there to look at

# every control the player needs, each with the point a finger presses
UNREACHABLE = """() => {
  const wanted = [];
  const add = (e, name, corner = false) => { if (e) wanted.push([e, name, corner]); };
  add(document.querySelector('[data-testid=stock]'), 'stock');
  const pile = [...document.querySelectorAll('[data-testid=discard-pile] .pile-card')];
  add(pile.at(-1), 'top of the discard pile');
  add(document.querySelector('[data-testid=pile-all]'), 'the whole pile');
  for (const b of document.querySelectorAll('.action-bar button, .arrangement-toggle')) {
    if (b.closest('.hint-bubble')) continue;
    if (getComputedStyle(b).display === 'none') continue;
    add(b, `button ${b.dataset.action || b.className}`);
  }
  for (const c of document.querySelectorAll('.hand .hand-card'))
    add(c, `card ${c.dataset.card}`, true);
  for (const n of document.querySelectorAll('.opponent .plate-name, .opponent-zone .plate-name'))
    add(n, `name ${n.textContent}`);
  const bad = [];
  for (const [e, name, corner] of wanted) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { bad.push(`${name}: not shown`); continue; }
    const x = corner ? r.left + Math.min(10, r.width / 4) : r.left + r.width / 2;
    const y = corner ? r.top + r.height * 0.35 : r.top + r.height / 2;
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5
        || r.bottom > innerHeight + 0.5) {
      bad.push(`${name}: outside the screen ${Math.round(r.left)},${Math.round(r.top)}-` +
        `${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(e === hit || e.contains(hit))) {
      bad.push(`${name}: covered by ${hit ? hit.className || hit.tagName : 'nothing'}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) bad.push('the page is wider');
  return bad;
}"""


def _shot(player: Player, name: str) -> None:
    if SHOTS:
        player.page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def check_turn(player: Player, name: str) -> None:
    """Every control the player needs is on the screen, uncovered (a screenshot in
    test-output otherwise)."""
    # the hand and the pile measure their room after the state is drawn: a moment to settle
    with contextlib.suppress(PlaywrightTimeout):
        player.page.wait_for_function(f"() => ({UNREACHABLE})().length === 0", timeout=1500)
    bad: list[str] = player.page.evaluate(UNREACHABLE)
    if bad:
        player.page.screenshot(path=f"test-output/{name}.png")
    assert bad == [], (name, bad)


def _create(player: Player, game: str, rules: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    table_id: str = player.page.evaluate(
        """async ([game, rules, seats]) => {
          const response = await fetch("/api/tables", {method: "POST",
            headers: {"content-type": "application/json"},
            body: JSON.stringify({game, rules, seats})});
          return (await response.json()).table_id;
        }""",
        [game, rules, seats],
    )
    return table_id


class NeverTakes(threading.Thread):
    """A second player on a WebSocket who always draws from the stock and throws the
    first card the server lets them throw: the discard pile only grows."""

    def __init__(self, base_url: str, table_id: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.address = base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.cookie = cookie
        self.stop = threading.Event()
        self.failure: str | None = None

    def run(self) -> None:
        try:
            with connect(
                self.address,
                additional_headers={"Cookie": f"rummykit_session={self.cookie}"},
                open_timeout=20,
            ) as socket:
                acted = -1
                while not self.stop.is_set():
                    try:
                        message: dict[str, Any] = json.loads(socket.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    if message["type"] in ("game_over", "error"):
                        if message["type"] == "error":
                            self.failure = str(message)
                        return
                    legal = message.get("legal_actions") if message["type"] == "state" else None
                    if legal and message["state_number"] != acted:
                        acted = message["state_number"]
                        action = (
                            "draw"
                            if "draw" in legal
                            else next(a for a in legal if a.startswith("discard "))
                        )
                        socket.send(
                            json.dumps({"type": "action", "state_number": acted, "action": action})
                        )
        except Exception as error:  # reported by the test
            self.failure = repr(error)


@contextlib.contextmanager
def _against_one_who_never_takes(
    new_page: MakePage, language: str
) -> Iterator[tuple[Player, Player, str]]:
    """A Burraco table of two people on phones: the player (at the table when this
    yields), the other player's page, and the table; the other plays through
    :class:`NeverTakes`, whose failure, if any, fails the test."""
    me = new_page(viewport=PHONE, language=language)
    other = new_page(viewport=PHONE, language=language)
    for player, name in ((me, "Dóra"), (other, "Bálint")):
        player.goto("/")
        player.sit_down(name)
        player.page.wait_for_selector("[data-testid=me]")
    table_id = _create(me, "burraco", {}, [{"kind": "human"}, {"kind": "human"}])
    other.page.evaluate(
        f"""async () => fetch('/api/tables/{table_id}/join', {{method: 'POST',
             headers: {{'content-type': 'application/json'}}, body: '{{}}'}})"""
    )
    opponent = NeverTakes(me.base_url, table_id, session_of(other.page.context))
    opponent.start()
    try:
        me.page.goto(f"{me.base_url}/#/table/{table_id}")
        me.wait_table()
        yield me, other, table_id
        assert opponent.failure is None, opponent.failure
    finally:
        opponent.stop.set()
        opponent.join(timeout=10)


@pytest.mark.parametrize("language", LANGUAGES)
def test_burraco_pile_of_sixty_on_a_phone(new_page: MakePage, language: str) -> None:
    with _against_one_who_never_takes(new_page, language) as (me, other, table_id):
        sizes: list[int] = []
        looked = False
        while True:
            state = me.wait_turn_or_end()
            view = state["view"]
            if view["gameOver"]:
                break
            me.close_dialogs()
            size = len(view["discardPile"])
            sizes.append(size)
            check_turn(me, f"burraco-{language}-pile-{size}-draw")
            if size in (20, 21, 40, 41, 60, 61):
                _shot(me, f"burraco-long-{language}-{size}")
            if size >= 40 and not looked:
                _look_through_the_pile(me, view["discardPile"])
                looked = True
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
            check_turn(me, f"burraco-{language}-pile-{size}-play")
            discard = next(a for a in state["legal"] if a.startswith("discard "))
            me.tap_card(discard.split()[1])
            me.click_action("discard")
            me.wait_settled()
        assert max(sizes) >= 60, sizes
        # the viewer's own column of the last hand's breakdown is in view
        dialog = me.page.locator(".dialog.game-over")
        dialog.wait_for()
        me.page.wait_for_timeout(300)
        _shot(me, f"burraco-long-{language}-game-over")
        _own_column_in_view(me, state["seat"])
        # and the other player's, the last column of the breakdown
        other.page.goto(f"{other.base_url}/#/table/{table_id}")
        other.page.locator(".dialog.game-over").wait_for()
        other.page.wait_for_timeout(300)
        _shot(other, f"burraco-long-{language}-game-over-second-seat")
        _own_column_in_view(other, 1 - state["seat"])
    assert not me.errors, me.errors


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hand_swollen_by_a_large_pile_on_a_phone(new_page: MakePage, language: str) -> None:
    """The player lets the pile grow past 20 cards, takes it, and plays on with a hand of
    30 cards and more: every control stays on the screen at every turn."""
    with _against_one_who_never_takes(new_page, language) as (me, _, _):
        hands: list[int] = []
        taken = False
        while len(hands) < 40:
            state = me.wait_turn_or_end()
            view = state["view"]
            if view["gameOver"]:
                break
            me.close_dialogs()
            name = f"swollen-{language}-turn-{view['turn']}"
            check_turn(me, f"{name}-draw")
            if not taken and len(view["discardPile"]) >= 20:
                me.page.click("[data-testid=discard-pile]")
                taken = True
            else:
                me.page.click("[data-testid=stock]")
            state = me.wait_settled()
            hands.append(len(me.hand()))
            check_turn(me, f"{name}-play")
            if max(hands) >= 30 and hands[-1] >= 30:
                _shot(me, f"swollen-{language}-{hands[-1]}")
            discard = next(a for a in state["legal"] if a.startswith("discard "))
            me.tap_card(discard.split()[1])
            me.click_action("discard")
            me.wait_settled()
        assert taken and max(hands) >= 30, hands
    assert not me.errors, me.errors


def _look_through_the_pile(me: Player, pile: list[str]) -> None:
    """The button beside the pile opens every card of it, oldest first, and closes again."""
    me.page.click("[data-testid=pile-all]")
    dialog = me.page.locator(".dialog.whole-pile")
    dialog.wait_for()
    _shot(me, "burraco-whole-pile")
    cards = dialog.locator(".pile-card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == pile
    dialog.locator(".actions button").click()
    assert me.page.locator(".dialog.whole-pile").count() == 0


def _own_column_in_view(me: Player, seat: int) -> None:
    """Every cell of the viewer's column in the game-over dialog's score tables lies
    within the dialog's width and the screen's."""
    cut: list[str] = me.page.evaluate(
        """(seat) => {
          const dialog = document.querySelector('.dialog.game-over');
          const box = dialog.getBoundingClientRect();
          const right = Math.min(box.right, innerWidth), left = Math.max(box.left, 0);
          const cut = [];
          for (const table of dialog.querySelectorAll('.score-table')) {
            for (const row of table.rows) {
              const cell = row.cells[seat + 1];
              if (!cell) continue;
              const r = cell.getBoundingClientRect();
              if (r.right > right + 0.5 || r.left < left - 0.5)
                cut.push(`${cell.textContent.trim()} ${Math.round(r.left)}-${Math.round(r.right)}`);
            }
          }
          return cut;
        }""",
        seat,
    )
    assert cut == [], cut


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("language", LANGUAGES)
def test_three_or_four_players_through_the_thirteen_card_round_on_a_phone(
    new_page: MakePage, language: str, players: int
) -> None:
    me = new_page(viewport=PHONE, language=language)
    me.goto("/")
    me.sit_down("Dóra")
    me.page.wait_for_selector("[data-testid=me]")
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
    table_id = _create(
        me, "three-thirteen", {"players": players, "first_round": 10, "last_round": 11}, seats
    )
    me.page.goto(f"{me.base_url}/#/table/{table_id}")
    me.wait_table()
    rounds: set[int] = set()
    while True:
        state = me.wait_turn_or_end()
        view = state["view"]
        if view["gameOver"]:
            break
        me.close_dialogs()
        toggle = me.page.locator(".arrangement-toggle")
        toggle.wait_for()
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        rounds.add(view["roundNumber"])
        name = f"thirteen-{players}-{language}-round-{view['roundNumber']}-turn-{view['turn']}"
        check_turn(me, f"{name}-draw")
        if view["roundNumber"] == 11 and 0 not in rounds:
            _shot(me, f"thirteen-long-{players}-{language}-13")
            rounds.add(0)
        me.page.click("[data-testid=stock]")
        state = me.wait_settled()
        check_turn(me, f"{name}-play")
        wild = state["view"]["wildRank"]
        hand = me.hand()
        plain = [c for c in hand if RANKS.index(c[0]) + 1 != wild] or hand
        me.tap_card(plain[-1])
        me.click_action("discard")
        me.wait_settled()
    assert 11 in rounds, rounds  # the round of 13 cards
    dialog = me.page.locator(".dialog.game-over")
    dialog.wait_for()
    me.page.wait_for_timeout(300)
    _shot(me, f"thirteen-long-{players}-{language}-game-over")
    _own_column_in_view(me, state["seat"])
    assert not me.errors, me.errors
