"""A 360-pixel phone: the new-table form keeps every field inside the dialog and shows
a target score only for a game played to a target; at a four-seat Three-Thirteen table
the hand and its buttons stay in view on every turn, the last turns after someone went
out included, and three computers of one level are told apart by name."""

from __future__ import annotations

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player
from tests.web.turns import create_four_seat_table, draw_and_throw_plain


def _fields_inside_dialog(player: Player) -> bool:
    inside: bool = player.page.evaluate(
        """() => {
          const form = document.querySelector('.dialog.create-table');
          const dialog = form.getBoundingClientRect();
          return [...form.querySelectorAll('input, select')]
            .filter((e) => e.offsetParent && e.type !== 'radio')
            .every((e) => {
              const r = e.getBoundingClientRect();
              return r.left >= dialog.left && r.right <= dialog.right;
            });
        }"""
    )
    return inside


def _in_view(player: Player, selector: str) -> bool:
    """Every element matching ``selector`` lies wholly inside the window."""
    shown: bool = player.page.evaluate(
        """(selector) => {
          const all = [...document.querySelectorAll(selector)];
          return all.length > 0 && all.every((e) => {
            const r = e.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
          });
        }""",
        selector,
    )
    return shown


def test_the_table_form_fits_a_phone(new_page: MakePage) -> None:
    # in Hungarian, whose labels and choices run longest
    me = new_page(viewport=PHONE, language="hu")
    me.goto("/")
    me.sit_down("Dóra")
    me.page.click(".game-tile[data-game='burraco'] .create-table")
    dialog = me.page.locator(".dialog.create-table")
    assert dialog.locator("select#opt-mode").input_value() == "quick"
    assert dialog.locator("#opt-target").count() == 0
    dialog.locator("select#opt-mode").select_option("target")
    dialog.locator("#opt-target").wait_for()
    dialog.locator(".more-rules button").click()
    dialog.locator("#opt-max_hands").wait_for()
    assert _fields_inside_dialog(me)

    dialog.locator("label.chip:has(input[value='three-thirteen'])").click()
    dialog.locator("select[name=players]").wait_for()
    dialog.locator("#opt-stalemate_turns").wait_for()
    assert _fields_inside_dialog(me)
    assert not me.errors, me.errors


def test_four_players_on_a_phone_keep_the_hand_in_view(new_page: MakePage) -> None:
    me = new_page(viewport=PHONE)
    me.goto("/")
    me.sit_down("Dóra")
    create_four_seat_table(me, ("greedy", "greedy", "greedy"), last_round=3)
    names = me.page.locator(".opponent .plate-name").all_inner_texts()
    assert len(set(names)) == 3, names
    last_turns = 0
    for state in me.turns():
        view = state["view"]
        if view["wentOut"] is not None:
            last_turns += 1
            me.page.locator(".went-out-zone").wait_for()
        assert _in_view(me, ".hand .hand-card"), view["roundNumber"]
        assert _in_view(me, ".action-bar button:not(.hint-close)"), view["roundNumber"]
        draw_and_throw_plain(me, state)
    assert last_turns > 0
    assert not me.errors, me.errors
