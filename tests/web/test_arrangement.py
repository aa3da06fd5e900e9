"""Three-Thirteen's hands in groups: the player's own arrangement live under the prompt
(the server's, updated on every change, wilds labelled with their places, the discards
priced), and every player's melds and deadwood apart in the round and game summaries."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.driver import Player
from tests.web.turns import play_least_deadwood


def _shown_groups(me: Player) -> list[list[str]]:
    groups: list[list[str]] = me.page.eval_on_selector_all(
        ".arrangement [data-testid=meld-group]",
        "els => els.map(g => [...g.querySelectorAll('[data-card]')].map(c => c.dataset.card))",
    )
    return groups


def _check_panel(me: Player) -> dict[str, Any]:
    """The panel shows exactly the server's arrangement of the hand on screen."""
    me.page.wait_for_function(
        "() => { const m = window.rummykitTable.store.get().message;"
        " return m && m.arrangement && document.querySelector('[data-testid=arrangement]'); }"
    )
    me.wait_settled()
    # the arrangement and the hand of one and the same state (more may come meanwhile)
    shown: tuple[dict[str, Any], list[str]] = me.page.evaluate(
        "() => { const s = window.rummykitTable.store.get();"
        " return [s.message.arrangement, s.view.hand]; }"
    )
    arrangement, hand = shown
    placed = [c for m in arrangement["melds"] for c in m["cards"]] + arrangement["unmelded"]
    assert sorted(placed) == sorted(hand)
    assert _shown_groups(me) == [m["cards"] for m in arrangement["melds"]]
    deadwood = me.page.eval_on_selector_all(
        ".arrangement [data-testid=deadwood-group] [data-card]",
        "els => els.map(e => e.dataset.card)",
    )
    assert deadwood == arrangement["unmelded"]
    points = me.page.locator(".arrangement [data-testid=deadwood-points]").inner_text()
    assert points.split()[0] == str(arrangement["deadwood"]), points
    labels = me.page.eval_on_selector_all(
        ".arrangement [data-testid=stands-for]", "els => els.map(e => e.textContent)"
    )
    assert len(labels) == sum(1 for m in arrangement["melds"] for p in m["stands_for"] if p)
    return arrangement


def test_the_live_arrangement_follows_the_hand(new_page: MakePage) -> None:
    me = new_page()
    me.new_table("three-thirteen", {"first_round": 9, "last_round": 9, "jokers": True})
    me.wait_turn_or_end()
    shown = _check_panel(me)
    summary = me.page.locator("[data-testid=arrangement-summary]").inner_text()
    assert str(shown["deadwood"]) in summary and shown["discards"] == []
    me.shoot("arrangement-desktop")
    me.page.locator("[data-testid=stock]").click()
    me.page.wait_for_function(
        "() => { const m = window.rummykitTable.store.get().message;"
        " return Boolean(m.arrangement && m.arrangement.discards.length); }"
    )
    after = _check_panel(me)
    assert len(after["discards"]) >= 1
    least = after["discards"][0]["deadwood"]
    summary = me.page.locator("[data-testid=arrangement-summary]").inner_text()
    assert str(least) in summary or least == 0, summary
    if sum(d["deadwood"] == least for d in after["discards"]) > 1:  # any one of them
        assert " or " in summary, summary
    # a selected card says what its discard would leave
    card = after["discards"][-1]["card"]
    me.tap_card(card)
    choice = me.page.locator("[data-testid=arrangement-choice]").inner_text()
    assert str(after["discards"][-1]["deadwood"]) in choice, choice
    me.shoot("arrangement-discard-desktop")
    me.page.click("button[data-action=discard]")
    # the next turn: the hand of eleven again, arranged anew (the bot may have ended the game)
    if not me.wait_turn_or_end()["view"]["gameOver"]:
        settled = _check_panel(me)
        assert sum(len(m["cards"]) for m in settled["melds"]) + len(settled["unmelded"]) == 11
        assert settled["discards"] == []


def _check_summary(me: Player, dialog: str, result: dict[str, Any]) -> None:
    for player in result["players"]:
        row = me.page.locator(f"{dialog} .round-player[data-seat='{player['player']}']")
        groups = row.locator("[data-testid=meld-group]")
        assert groups.count() == len(player["melds"])
        for index, meld in enumerate(player["melds"]):
            cards = groups.nth(index).locator("[data-card]")
            assert [cards.nth(i).get_attribute("data-card") for i in range(cards.count())] == meld
        dead = row.locator("[data-testid=deadwood-group] [data-card]")
        assert [dead.nth(i).get_attribute("data-card") for i in range(dead.count())] == player[
            "unmelded"
        ]
        points = row.locator("[data-testid=deadwood-group] [data-testid=deadwood-points]")
        assert points.inner_text().split()[0] == str(player["deadwood"])


def test_round_and_game_summaries_show_melds_and_deadwood_apart(new_page: MakePage) -> None:
    me = new_page(viewport=PHONE)
    me.new_table("three-thirteen", {"first_round": 4, "last_round": 5})
    me.wait_turn_or_end()
    assert (
        me.page.locator("[data-testid=arrangement] .card-groups").count() == 0
    )  # closed on a phone
    me.page.click(".arrangement-toggle")
    assert me.page.locator("[data-testid=arrangement] .card-groups").count() == 1
    me.shoot("arrangement-open-phone")
    summaries = 0
    for _ in range(200):
        state = me.wait_turn_or_end()
        view = state["view"]
        if me.page.locator(".dialog.round-over").count():
            _check_summary(me, ".dialog.round-over", view["results"][-1])
            me.shoot("round-summary-phone")
            summaries += 1
            me.close_dialogs()
        if view["gameOver"]:
            break
        play_least_deadwood(me, state)
    else:
        raise AssertionError("the game did not end")
    me.page.wait_for_selector(".dialog.game-over .round-summary")
    _check_summary(me, ".dialog.game-over", me.table()["view"]["results"][-1])
    me.page.set_viewport_size(DESKTOP)
    me.shoot("game-over-rounds-desktop")
    assert summaries == 1
