"""The browser tab says when it is the player's turn: the title starts with "Your turn"
and the seconds left on the player's clock (counting down), and the tab's icon wears a
badge; when the turn has passed, or the game is over, the title names the game and the
icon is the site's own again."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import MakePage

TURN = {"en": "Your turn", "hu": "Te jössz", "ru": "Ваш ход"}
GAME = {"en": "Three-Thirteen", "hu": "Három-tizenhárom", "ru": "Три-тринадцать"}


def _icon(page: object) -> str:
    href: str = page.evaluate(  # type: ignore[attr-defined]
        "() => document.querySelector(\"link[rel~='icon']\").getAttribute('href')"
    )
    return href


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_tab_tells_the_turn_and_the_clock(new_page: MakePage, language: str) -> None:
    me = new_page(language=language)
    me.enter_lobby("Ada")
    table_id = me.create_table(
        {
            "game": "three-thirteen",
            "turn_seconds": 60,
            "rules": {"first_round": 1, "last_round": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        }
    )
    me.page.goto(f"{me.base_url}/#/table/{table_id}")
    me.wait_table()
    state = me.wait_turn_or_end()
    assert not state["view"]["gameOver"]
    me.page.wait_for_function(f"() => document.title.startsWith({TURN[language]!r})")
    first = me.page.title()
    match = re.search(r"\((\d+)", first)
    assert match, first
    me.page.wait_for_function(
        f"() => {{ const m = /\\((\\d+)/.exec(document.title); return m && +m[1] < {match[1]}; }}",
        timeout=5000,
    )
    assert _icon(me.page) == "img/favicon-turn.svg"
    badge = me.page.request.get(f"{me.base_url}/img/favicon-turn.svg")
    assert badge.ok and "<circle" in badge.text()
    # the turn played to the end of the game: the title names the game, the icon is plain
    while not state["view"]["gameOver"]:
        if state["view"]["phase"] == "draw":
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
        outs = [a for a in state["legal"] if a.startswith("out ")]
        action = outs[0] if outs else next(a for a in state["legal"] if a.startswith("discard "))
        me.tap_card(action.split()[1])
        me.click_action("out" if outs else "discard")
        me.close_dialogs()
        state = me.wait_turn_or_end()
    me.page.wait_for_function(f"() => !document.title.startsWith({TURN[language]!r})")
    assert GAME[language] in me.page.title(), me.page.title()
    assert _icon(me.page) == "img/favicon.svg"
    assert not me.errors, me.errors
