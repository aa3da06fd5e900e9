"""The new-table dialog without traps, on a 360-pixel phone in English, Hungarian and
Russian: the seats read from the player's side (you, your partner, the opponents, never
"Seat 1 · opponent You"); more players bring more computers of the level already
chosen; a turn timer comes only with invited people, and the dialog says which; a
registered player's table of people, four included, has a plain casual or rated choice;
every label and choice fits the phone whole."""

from __future__ import annotations

import secrets

import pytest

from tests.web.catalogs import MESSAGES
from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player
from tests.web.scenes import register

# every label, choice and select of the dialog lies inside it, and a select's chosen
# text fits its box (measured with the select's own font, its arrow left room)
_FITS = """() => {
  const form = document.querySelector('.dialog.create-table');
  const box = form.getBoundingClientRect();
  const canvas = document.createElement('canvas').getContext('2d');
  const bad = [];
  for (const e of form.querySelectorAll('label, select, .seat-role, .timer-note, button')) {
    if (!e.offsetParent) continue;
    const r = e.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > innerWidth)
      bad.push('outside: ' + e.textContent.trim());
    if (e.tagName !== 'SELECT' && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
      bad.push('cut: ' + e.textContent.trim());
    if (e.tagName === 'SELECT') {
      const style = getComputedStyle(e);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = e.options[e.selectedIndex].text;
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const room = e.clientWidth - padding - 16;
      if (canvas.measureText(text).width > room) bad.push('choice cut: ' + text);
    }
  }
  return bad;
}"""


def _open(me: Player, game: str) -> None:
    me.page.click(f".game-tile[data-game='{game}'] .create-table")
    me.page.locator(".dialog.create-table").wait_for()


def _roles(me: Player) -> list[str]:
    roles = me.page.locator(".dialog.create-table .seat-option .seat-role")
    return [text.strip() for text in roles.all_inner_texts()]


def _fits(me: Player) -> None:
    bad = me.page.evaluate(_FITS)
    assert not bad, bad


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_seats_read_from_the_players_side_and_fill_with_computers(
    new_page: MakePage, language: str
) -> None:
    words = MESSAGES[language]
    me = new_page(viewport=PHONE, language=language)
    me.enter_lobby("Dóra")
    _open(me, "burraco")
    dialog = me.page.locator(".dialog.create-table")
    dialog.locator("select[data-seat='1']").select_option("bot:easy")
    dialog.locator("select[name=players]").select_option("4")
    roles = _roles(me)
    you, partner, opponent = (
        words["create.you"],
        words["create.partner_seat"],
        words["create.opponent_seat"],
    )
    assert roles[0] == you and roles[0] != opponent, roles
    assert roles[1].startswith(opponent) and roles[3].startswith(opponent), roles
    assert roles[2].startswith(partner), roles
    assert words["create.opposite"] in roles[2]
    assert all("1" not in role for role in roles), roles  # no seat numbers
    assert (dialog.locator(".seat-me").text_content() or "").strip() == "Dóra"
    # the new seats are computers of the level chosen for the first
    for seat in (1, 2, 3):
        assert dialog.locator(f"select[data-seat='{seat}']").input_value() == "bot:easy"
    # no people, no timer, and the dialog says why
    assert dialog.locator("select[name=turn_seconds]").input_value() == "0"
    assert dialog.locator(".timer-note").inner_text() == words["create.timer_bots"]
    assert dialog.locator("input[name=rated]").count() == 0  # a guest plays casual games
    me.shoot(f"new-table-four-{language}-phone", of=dialog)
    _fits(me)
    # inviting a person brings the timer, and the dialog says so
    dialog.locator("select[data-seat='2']").select_option("human")
    assert dialog.locator("select[name=turn_seconds]").input_value() == "60"
    assert dialog.locator(".timer-note").inner_text() == words["create.timer_people"]
    me.shoot(f"new-table-four-person-{language}-phone", of=dialog)
    _fits(me)

    # back to computers only: the timer goes, unless chosen
    dialog.locator("select[data-seat='2']").select_option("bot:random")
    assert dialog.locator("select[name=turn_seconds]").input_value() == "0"
    # Three-Thirteen for three: two numbered opponents, both computers of the level chosen
    dialog.locator("label.chip:has(input[value='three-thirteen'])").click()
    dialog.locator("select[data-seat='1']").select_option("bot:random")
    dialog.locator("select[name=players]").select_option("3")
    roles = _roles(me)
    assert roles[0] == you
    assert roles[1].startswith(words["create.opponent_n"].replace("{n}", "1"))
    assert roles[2].startswith(words["create.opponent_n"].replace("{n}", "2"))
    assert words["create.plays_after"] in roles[1] and words["create.plays_before"] in roles[2]
    assert dialog.locator("select[data-seat='2']").input_value() == "bot:random"
    assert dialog.locator("select[name=turn_seconds]").input_value() == "0"
    _fits(me)
    assert not me.errors, me.errors


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_table_of_four_people_is_casual_or_rated_by_a_plain_choice(
    new_page: MakePage, language: str
) -> None:
    words = MESSAGES[language]
    me = new_page(viewport=PHONE, language=language)
    register(me, f"rt{secrets.token_hex(3)}")
    me.goto("/")
    _open(me, "burraco")
    dialog = me.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("4")
    assert dialog.locator("input[name=rated]").count() == 0  # computers: casual only
    for seat in (1, 2, 3):
        dialog.locator(f"select[data-seat='{seat}']").select_option("human")
    rated = dialog.locator("input[name=rated][value=rated]")
    casual = dialog.locator("input[name=rated][value=casual]")
    assert rated.is_checked() and not casual.is_checked()
    assert dialog.get_by_text(words["create.casual"]).is_visible()
    # a click on a choice chooses it, a second click leaves it chosen
    dialog.get_by_text(words["create.casual"]).click()
    dialog.get_by_text(words["create.casual"]).click()
    assert casual.is_checked() and not rated.is_checked()
    dialog.get_by_text(words["create.rated"]).click()
    dialog.get_by_text(words["create.rated"]).click()
    assert rated.is_checked()
    me.shoot(f"new-table-rated-four-{language}-phone", of=dialog)
    _fits(me)
    dialog.locator("button[type=submit]").click()
    me.page.wait_for_url("**/#/table/*")
    table_id = me.page.url.split("#/table/")[1].split("?")[0].split("/")[0]
    summary = me.api("GET", f"/api/tables/{table_id}")
    assert summary["rated"] is True and len(summary["seats"]) == 4, summary
    assert not me.errors, me.errors
