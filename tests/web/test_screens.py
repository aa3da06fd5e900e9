"""Screenshots of the lobby and both tables, on a desktop and on a phone, in every
language (saved under ``test-output/screenshots`` or ``$RUMMYKIT_SCREENSHOTS``); the
language switched at the table in the middle of a game, and remembered; the table's
action buttons in one line on a 360-pixel phone as on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import ViewportSize

from rummykit.web import LANGUAGES
from tests.web.catalogs import MESSAGES
from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.driver import Player
from tests.web.turns import Counts, play_burraco_turn, play_one_turn


def _switch(player: Player, language: str) -> None:
    player.page.click(f".topbar .lang-switch button[data-lang='{language}']")
    player.page.wait_for_function(f"() => document.documentElement.lang === '{language}'")


def _buttons_in_one_line(player: Player) -> bool:
    """The table's action buttons stand in one line, inside the page's width."""
    fits: bool = player.page.evaluate(
        """() => {
          const buttons = [...document.querySelectorAll('.action-bar button')]
            .filter((b) => b.offsetParent && !b.closest('.hint-bubble'))
            .map((b) => b.getBoundingClientRect());
          const middles = buttons.map((r) => r.top + r.height / 2);
          return buttons.length > 0 && Math.max(...middles) - Math.min(...middles) < 4 &&
            buttons.every((r) => r.left >= 0 && r.right <= document.documentElement.clientWidth);
        }"""
    )
    return fits


def _in_each_language(player: Player, name: str, check: str | None = None) -> None:
    for language in LANGUAGES:
        _switch(player, language)
        if check:
            assert player.page.locator(check).first.inner_text().strip()
            assert _buttons_in_one_line(player), (name, language)
        player.shoot(f"{name}-{language}")


@pytest.mark.parametrize(("device", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_screens_in_every_language(new_page: MakePage, device: str, viewport: ViewportSize) -> None:
    me = new_page(viewport=viewport)
    me.enter_lobby("Zsófia")
    _in_each_language(me, f"lobby-{device}")
    assert me.page.locator("h1").inner_text() == MESSAGES["ru"]["lobby.welcome"]
    me.page.reload()
    me.page.wait_for_selector("button.play-now")
    assert me.page.evaluate("document.documentElement.lang") == "ru"
    _switch(me, "en")

    me.play_now("three-thirteen")
    for _ in range(5):
        state = me.wait_turn_or_end()
        me.close_dialogs()
        play_one_turn(me)
    state = me.wait_turn_or_end()
    me.close_dialogs()
    _in_each_language(me, f"three-thirteen-{device}", "[data-testid=prompt]")
    # the bot may just have gone out: then this is the round's last turn
    last_turn = state["view"]["wentOut"] is not None
    prompt = "thirteen.prompt_last_turn" if last_turn else "thirteen.prompt_draw"
    assert me.page.locator("[data-testid=prompt]").inner_text() == MESSAGES["ru"][prompt]
    _switch(me, "en")

    me.goto("/")
    me.play_now("burraco")
    counts = Counts()
    for turn in range(6):
        state = me.wait_turn_or_end()
        if state["view"]["gameOver"]:
            break
        play_burraco_turn(me, state, turn, counts)
    me.wait_turn_or_end()
    me.close_dialogs()
    _in_each_language(me, f"burraco-{device}", "[data-testid=prompt]")
    assert not me.errors, me.errors
