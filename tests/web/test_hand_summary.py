"""A Burraco game to a target: the end of each hand shows both sides' melds as they lay
when the hand ended (from the hand's result), in the hand-over dialog and at the end."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player


def _play_turn(me: Player, state: dict[str, Any]) -> None:
    """Draw, lay the first meld the server allows (if any), discard the first card allowed."""
    if state["view"]["phase"] == "draw":
        me.page.locator("[data-testid=stock]").click()
        state = me.wait_settled()
    melds = [a for a in state["legal"] if a.startswith("meld ")]
    if melds:
        me.select(melds[0].split()[1:])
        me.click_action("meld")
        state = me.wait_settled()
        if state["view"]["currentPlayer"] != state["seat"] or state["view"]["phase"] != "play":
            return
    discard = next(a for a in state["legal"] if a.startswith("discard "))
    me.tap_card(discard.split()[1])
    me.click_action("discard")


def _shown_sides(me: Player, dialog: str) -> list[list[list[str]]]:
    sides: list[list[list[str]]] = me.page.eval_on_selector_all(
        f"{dialog} [data-testid=hand-melds] .hand-side",
        """sides => sides.map(side => [...side.querySelectorAll('.meld')].map(
             meld => [...meld.querySelectorAll('[data-card]')].map(c => c.dataset.card)))""",
    )
    return sides


def test_each_hand_shows_both_sides_melds(new_page: MakePage) -> None:
    me = new_page(viewport=PHONE)
    rules = {"mode": "target", "target": 5000, "max_hands": 2, "stalemate_turns": 12}
    me.new_table("burraco", rules)
    hands_shown = 0
    for _ in range(200):
        state = me.wait_turn_or_end()
        if me.page.locator(".dialog.hand-over").count():
            result = state["view"]["results"][-1]
            shown = _shown_sides(me, ".dialog.hand-over")
            assert shown == [[meld["cards"] for meld in side] for side in result["melds"]]
            me.shoot("burraco-hand-over-phone")
            hands_shown += 1
            me.close_dialogs()
        if state["view"]["gameOver"]:
            break
        _play_turn(me, state)
    else:
        raise AssertionError("the game did not end")
    assert hands_shown == 1
    me.page.wait_for_selector(".dialog.game-over [data-testid=hand-melds]")
    result = me.table()["view"]["results"][-1]
    shown = _shown_sides(me, ".dialog.game-over")
    assert shown == [[meld["cards"] for meld in side] for side in result["melds"]]
    assert len(result["melds"]) == 2
    me.shoot("burraco-game-over-phone")
