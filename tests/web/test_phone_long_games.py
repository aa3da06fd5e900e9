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
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player, session_of
from tests.web.layout import check_turn
from tests.web.turns import draw_from_stock, throw_plain

LANGUAGES = ["en", "hu", "ru"]


class NeverTakes(threading.Thread):
    """A second player on a WebSocket who always draws from the stock and throws the
    first card the server lets them throw: the discard pile only grows.  :meth:`stop`
    closes the socket, which ends the thread."""

    def __init__(self, base_url: str, table_id: str, cookie: str) -> None:
        super().__init__(daemon=True)
        address = base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.socket: ClientConnection = connect(
            address, additional_headers={"Cookie": f"rummykit_session={cookie}"}, open_timeout=20
        )
        self.stopped = False
        self.failure: str | None = None

    def stop(self) -> None:
        self.stopped = True
        self.socket.close()
        self.join(timeout=10)

    def run(self) -> None:
        try:
            with self.socket as socket:
                acted = -1
                while True:
                    message: dict[str, Any] = json.loads(socket.recv())
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
        except ConnectionClosed:
            if not self.stopped:
                self.failure = "the server closed the connection"
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
        player.enter_lobby(name)
    table_id = me.create_table(
        {"game": "burraco", "rules": {}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    other.api("POST", f"/api/tables/{table_id}/join", {})
    opponent = NeverTakes(me.base_url, table_id, session_of(other.page.context))
    opponent.start()
    try:
        me.page.goto(f"{me.base_url}/#/table/{table_id}")
        me.wait_table()
        yield me, other, table_id
        assert opponent.failure is None, opponent.failure
    finally:
        opponent.stop()


@pytest.mark.parametrize("language", LANGUAGES)
def test_burraco_pile_of_sixty_on_a_phone(new_page: MakePage, language: str) -> None:
    with _against_one_who_never_takes(new_page, language) as (me, other, table_id):
        sizes: list[int] = []
        looked = False
        for state in me.turns():
            view = state["view"]
            size = len(view["discardPile"])
            sizes.append(size)
            check_turn(me, f"burraco-{language}-pile-{size}-draw")
            if size in (20, 21, 40, 41, 60, 61):
                me.shot(f"burraco-long-{language}-{size}")
            if size >= 40 and not looked:
                _look_through_the_pile(me, view["discardPile"])
                looked = True
            me.page.click("[data-testid=stock]")
            drawn = me.wait_settled()
            check_turn(me, f"burraco-{language}-pile-{size}-play")
            discard = next(a for a in drawn["legal"] if a.startswith("discard "))
            me.tap_card(discard.split()[1])
            me.click_action("discard")
            me.wait_settled()
        assert max(sizes) >= 60, sizes
        # the viewer's own column of the last hand's breakdown is in view
        dialog = me.page.locator(".dialog.game-over")
        dialog.wait_for()
        me.settle()
        me.shot(f"burraco-long-{language}-game-over")
        _own_column_in_view(me, state["seat"])
        # and the other player's, the last column of the breakdown
        other.page.goto(f"{other.base_url}/#/table/{table_id}")
        other.page.locator(".dialog.game-over").wait_for()
        other.settle()
        other.shot(f"burraco-long-{language}-game-over-second-seat")
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
                me.shot(f"swollen-{language}-{hands[-1]}")
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
    me.shot("burraco-whole-pile")
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
    me.enter_lobby("Dóra")
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
    rules = {"players": players, "first_round": 10, "last_round": 11}
    table_id = me.create_table({"game": "three-thirteen", "rules": rules, "seats": seats})
    me.page.goto(f"{me.base_url}/#/table/{table_id}")
    me.wait_table()
    rounds: set[int] = set()
    for state in me.turns():
        view = state["view"]
        toggle = me.page.locator(".arrangement-toggle")
        toggle.wait_for()
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        rounds.add(view["roundNumber"])
        name = f"thirteen-{players}-{language}-round-{view['roundNumber']}-turn-{view['turn']}"
        check_turn(me, f"{name}-draw")
        if view["roundNumber"] == 11 and 0 not in rounds:
            me.shot(f"thirteen-long-{players}-{language}-13")
            rounds.add(0)
        drawn = draw_from_stock(me)
        check_turn(me, f"{name}-play")
        throw_plain(me, drawn, by_button=True)
    assert 11 in rounds, rounds  # the round of 13 cards
    dialog = me.page.locator(".dialog.game-over")
    dialog.wait_for()
    me.settle()
    me.shot(f"thirteen-long-{players}-{language}-game-over")
    _own_column_in_view(me, state["seat"])
    assert not me.errors, me.errors
