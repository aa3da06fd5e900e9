"""A 360-pixel phone: hand cards leave a tap target of at least 44 by 44 pixels, the
four-player score sheet shows every column or says that it scrolls, players' names fit
their plates, and the game-over dialog opens with its top in view."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player
from tests.web.layout import names_not_on_one_line, off_screen
from tests.web.turns import create_four_seat_table, draw_and_throw_plain

TAP = 44


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


def test_burraco_hand_cards_are_tap_targets_on_a_phone(new_page: MakePage) -> None:
    # in Russian, whose computer names run longest
    me = new_page(viewport=PHONE, language="ru")
    me.enter_lobby("Dóra")
    me.play_now("burraco")
    me.wait_turn_or_end()
    me.close_dialogs()
    assert len(me.hand()) >= 11
    me.shot("burraco-phone")
    assert _cards_without_a_tap_target(me) == []
    assert _names_cut(me) == []
    assert names_not_on_one_line(me) == []
    assert not me.errors, me.errors


def test_four_players_score_sheet_names_and_game_over_on_a_phone(new_page: MakePage) -> None:
    me = new_page(viewport=PHONE, language="hu")
    me.goto("/")
    me.sit_down("Dóra")
    create_four_seat_table(me, ("greedy", "greedy", "random"), last_round=1)
    me.wait_turn_or_end()
    me.close_dialogs()
    me.shot("thirteen-phone")
    assert _names_cut(me) == []
    assert names_not_on_one_line(me) == []
    # computers numbered by seat, each on one line; their levels as players know them
    # in the plates' titles
    names = me.page.locator(".opponent .plate-name").all_inner_texts()
    assert [n.strip() for n in names] == ["2. gép", "3. gép", "4. gép"]
    titles = me.page.eval_on_selector_all(
        ".opponent .plate-name .name-short", "els => els.map((e) => e.title)"
    )
    assert titles == [
        "2. gép (közepes)",
        "3. gép (közepes)",
        "4. gép (nagyon könnyű)",  # the longest level name
    ]
    me.page.click(".panel-toggle")
    me.page.click(".side-panel.open [data-tab=scores]")
    me.page.locator(".side-panel.open .score-table").wait_for()
    me.settle()  # the panel has slid in
    me.shot("thirteen-phone-scores")
    sheet = _score_sheet(me)
    assert sheet["columns"] >= 5, sheet
    assert sheet["fits"] or sheet["cue"], sheet
    me.page.keyboard.press("Escape")
    for state in me.turns():
        draw_and_throw_plain(me, state)
    dialog = me.page.locator(".dialog.game-over, .dialog:has(.final-totals)").first
    dialog.wait_for()
    # at rest, its opening effects run (its first control focused, which must not
    # scroll it)
    me.settle()
    me.shot("thirteen-phone-game-over")
    top = dialog.evaluate("(e) => e.getBoundingClientRect().top")
    heading = dialog.locator("h2").first.evaluate("(e) => e.getBoundingClientRect().top")
    assert top >= 0 and heading >= top, (top, heading)
    assert dialog.evaluate("(e) => e.scrollTop") == 0
    assert not me.errors, me.errors


# -- tap targets of the controls a phone player uses, on a touch phone ------------------

TABLE_CONTROLS = (
    ".lang-switch button, .action-bar button, .sort-buttons button, .hint-button,"
    " .arrangement-toggle, .hint-bubble button"
)
LOBBY_CONTROLS = ".lang-switch button, .tile-actions a, .tile-actions button, .identity-tabs .tab"


def _small_targets(player: Player, selector: str) -> list[str]:
    """Shown controls of ``selector`` less than 44 by 44 pixels, with their size."""
    small: list[str] = player.page.evaluate(
        """([selector, tap]) => [...document.querySelectorAll(selector)].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && (r.width < tap - 0.5 || r.height < tap - 0.5);
        }).map((e) => {
          const r = e.getBoundingClientRect();
          const name = e.getAttribute('aria-label') || e.textContent.trim() || e.className;
          return `${name} ${Math.round(r.width)}x${Math.round(r.height)}`;
        })""",
        [selector, TAP],
    )
    return small


def _overflows(player: Player) -> bool:
    wide: bool = player.page.evaluate("() => document.documentElement.scrollWidth > innerWidth + 1")
    return wide


def _covered_by_hint(player: Player) -> list[str]:
    """The piles, melds, hand cards and buttons that the open hint bubble covers."""
    covered: list[str] = player.page.evaluate(
        """() => {
          const bubble = document.querySelector('.hint-bubble').getBoundingClientRect();
          const parts = ['[data-testid=stock]', '[data-testid=discard-pile]', '.pozzetti',
            '.melds', '.hand .hand-card', '.action-bar button:not(.hint-bubble button)'];
          return parts.flatMap((selector) => [...document.querySelectorAll(selector)])
            .filter((e) => {
              const r = e.getBoundingClientRect();
              return r.width > 0 && r.left < bubble.right - 1 && r.right > bubble.left + 1
                && r.top < bubble.bottom - 1 && r.bottom > bubble.top + 1;
            }).map((e) => e.dataset.testid || e.dataset.card || e.className);
        }"""
    )
    return covered


def _meld_text_cut(player: Player) -> list[str]:
    """Empty meld areas whose instruction is cut (taller than its box or outside the area)."""
    cut: list[str] = player.page.evaluate(
        """() => [...document.querySelectorAll('.melds .melds-empty')].filter((e) => {
          const area = e.closest('.melds');
          const a = area.getBoundingClientRect();
          const r = e.getBoundingClientRect();
          return e.scrollHeight > e.clientHeight + 1 || area.scrollHeight > area.clientHeight + 1
            || r.top < a.top - 1 || r.bottom > a.bottom + 1;
        }).map((e) => e.textContent)"""
    )
    return cut


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_controls_are_tap_targets_on_a_touch_phone(new_page: MakePage, language: str) -> None:
    me = new_page(viewport=PHONE, language=language, touch=True)
    me.goto("/")
    me.page.wait_for_selector(".identity-tabs .tab")
    me.shot(f"lobby-touch-{language}")
    assert _small_targets(me, LOBBY_CONTROLS) == []
    assert not _overflows(me)

    me.sit_down("Dóra")
    me.play_now("burraco")
    me.wait_turn_or_end()
    me.close_dialogs()
    me.page.locator(".hint-button").wait_for()
    me.shot(f"burraco-touch-{language}")
    assert _small_targets(me, TABLE_CONTROLS) == []
    assert off_screen(me, ".action-bar button") == []
    assert _meld_text_cut(me) == []
    assert not _overflows(me)
    # the top bar's title is whole or left out, never cut to a letter or two ("T…")
    title_cut = me.page.evaluate(
        """() => [...document.querySelectorAll('.topbar .title')]
          .some((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)"""
    )
    assert not title_cut
    me.page.click(".hint-button")
    me.page.locator(".hint-bubble").wait_for()
    me.settle()
    me.shot(f"burraco-touch-hint-{language}")
    assert _small_targets(me, TABLE_CONTROLS) == []
    assert _covered_by_hint(me) == []
    assert off_screen(me, ".action-bar button:not(.hint-bubble button)") == []
    assert not _overflows(me)

    # the leave dialog reads left to right like the others, its leave button still right
    me.page.click(".panel-toggle")
    me.page.click(".side-panel.open [data-testid=leave-table]")
    dialog = me.page.locator(".dialog.leave-dialog")
    dialog.wait_for()
    me.settle()
    me.shot(f"burraco-touch-leave-{language}")
    aligns = dialog.evaluate(
        "(d) => [...d.querySelectorAll('h2, p')].map((e) => getComputedStyle(e).textAlign)"
    )
    assert set(aligns) <= {"left", "start"}, aligns
    dialog.locator(".actions button:not(.primary)").click()
    button = me.page.locator(".side-panel.open [data-testid=leave-table]").bounding_box()
    panel = me.page.locator(".side-panel.open").bounding_box()
    assert button and panel and button["x"] + button["width"] > panel["x"] + panel["width"] - 30
    me.page.keyboard.press("Escape")

    me.goto("/")
    me.page.click(".game-tile[data-game='three-thirteen'] .play-now")
    me.wait_table()
    me.wait_turn_or_end()
    me.close_dialogs()
    me.page.locator(".arrangement-toggle").wait_for()
    me.shot(f"thirteen-touch-{language}")
    assert _small_targets(me, TABLE_CONTROLS) == []
    assert off_screen(me, ".action-bar button") == []
    assert not _overflows(me)
    me.page.click(".hint-button")
    me.page.locator(".hint-bubble").wait_for()
    me.settle()
    me.shot(f"thirteen-touch-hint-{language}")
    assert _small_targets(me, TABLE_CONTROLS) == []
    assert _covered_by_hint(me) == []
    assert off_screen(me, ".action-bar button:not(.hint-bubble button)") == []
    me.page.click(".hint-bubble .hint-close")
    assert me.page.locator(".hint-bubble").count() == 0
    assert not me.errors, me.errors
