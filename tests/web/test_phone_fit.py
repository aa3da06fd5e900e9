"""A 360-pixel phone: hand cards leave a tap target of at least 44 by 44 pixels, the
four-player score sheet shows every column or says that it scrolls, players' names fit
their plates, and the game-over dialog opens with its top in view."""

from __future__ import annotations

import os
from typing import Any

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player

TAP = 44
RANKS = "A23456789TJQK"
SHOTS = os.environ.get("RUMMYKIT_SHOTS")  # a folder: save screenshots there to look at


def _shot(player: Player, name: str) -> None:
    if SHOTS:
        player.page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def _cards_without_a_tap_target(player: Player) -> list[str]:
    """Hand cards whose top-left 44-pixel square is not wholly theirs (covered by a
    neighbour or outside the window)."""
    cards: list[str] = player.page.evaluate(
        """(tap) => [...document.querySelectorAll('.hand .hand-card')].filter((card) => {
          const r = card.getBoundingClientRect();
          if (r.width < tap || r.height < tap) return true;
          const far = tap - 1;
          const points = [[1, 1], [far, 1], [1, far], [far, far], [tap / 2, tap / 2]];
          return points.some(([x, y]) => {
            const hit = document.elementFromPoint(r.left + x, r.top + y);
            return !hit || hit.closest('.hand-card') !== card;
          });
        }).map((card) => card.dataset.card)""",
        TAP,
    )
    return cards


def _names_cut(player: Player) -> list[str]:
    cut: list[str] = player.page.evaluate(
        """() => [...document.querySelectorAll('.plate-name')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
    )
    return cut


def _score_sheet(player: Player) -> dict[str, Any]:
    """Whether the score table's columns all lie inside the panel, else whether the
    sheet shows that it scrolls."""
    sheet: dict[str, Any] = player.page.evaluate(
        """() => {
          const table = document.querySelector('.side-panel .score-table');
          const panel = document.querySelector('.side-panel').getBoundingClientRect();
          const cells = [...table.querySelectorAll('thead th')];
          const right = Math.min(panel.right, innerWidth);
          const fits = cells.every((c) => c.getBoundingClientRect().right <= right + 1);
          const cue = !!table.closest('.scrolls-x-frame.more-right, .scrolls-x-frame.more-left');
          return { fits, cue, columns: cells.length };
        }"""
    )
    return sheet


def _create_four_seat_table(me: Player, last_round: int) -> None:
    me.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = me.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("4")
    for seat, level in ((1, "greedy"), (2, "greedy"), (3, "random")):
        dialog.locator(f"select[data-seat='{seat}']").select_option(f"bot:{level}")
    dialog.locator(".more-rules button").click()
    dialog.locator("#opt-last_round").select_option(str(last_round))
    dialog.locator("button[type=submit]").click()
    me.wait_table()


def test_burraco_hand_cards_are_tap_targets_on_a_phone(new_page: MakePage) -> None:
    # in Russian, whose computer names run longest
    me = new_page(viewport=PHONE, language="ru")
    me.goto("/")
    me.sit_down("Dóra")
    me.play_now("burraco")
    me.wait_turn_or_end()
    me.close_dialogs()
    assert len(me.hand()) >= 11
    _shot(me, "burraco-phone")
    assert _cards_without_a_tap_target(me) == []
    assert _names_cut(me) == []
    assert not me.errors, me.errors


def test_four_players_score_sheet_names_and_game_over_on_a_phone(new_page: MakePage) -> None:
    me = new_page(viewport=PHONE, language="hu")
    me.goto("/")
    me.sit_down("Dóra")
    _create_four_seat_table(me, last_round=1)
    me.wait_turn_or_end()
    me.close_dialogs()
    _shot(me, "thirteen-phone")
    assert _names_cut(me) == []
    # computers by level as players know it, all numbered by seat
    names = me.page.locator(".opponent .plate-name").all_inner_texts()
    assert [n.strip() for n in names] == [
        "2. gép (közepes)",
        "3. gép (közepes)",
        "4. gép (nagyon könnyű)",  # the longest level name
    ]
    me.page.click(".panel-toggle")
    me.page.click(".side-panel.open [data-tab=scores]")
    me.page.locator(".side-panel.open .score-table").wait_for()
    me.page.wait_for_timeout(400)
    _shot(me, "thirteen-phone-scores")
    sheet = _score_sheet(me)
    assert sheet["columns"] >= 5, sheet
    assert sheet["fits"] or sheet["cue"], sheet
    me.page.keyboard.press("Escape")
    while True:
        state = me.wait_turn_or_end()
        view = state["view"]
        if view["gameOver"]:
            break
        me.close_dialogs()
        if view["phase"] == "draw":
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
        wild = state["view"]["wildRank"]
        hand = me.hand()
        plain = [c for c in hand if RANKS.index(c[0]) + 1 != wild] or hand
        me.tap_card(plain[-1])
        me.page.click("[data-testid=discard-pile]")
        me.wait_settled()
    dialog = me.page.locator(".dialog.game-over, .dialog:has(.final-totals)").first
    dialog.wait_for()
    me.page.wait_for_timeout(300)
    _shot(me, "thirteen-phone-game-over")
    top = dialog.evaluate("(e) => e.getBoundingClientRect().top")
    heading = dialog.locator("h2").first.evaluate("(e) => e.getBoundingClientRect().top")
    assert top >= 0 and heading >= top, (top, heading)
    assert dialog.evaluate("(e) => e.scrollTop") == 0
    assert not me.errors, me.errors
