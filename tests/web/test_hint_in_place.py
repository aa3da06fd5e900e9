"""A hint moves nothing at a desktop's table: while its bubble opens, shows and closes,
the hand, both meld areas, the stock, the discard pile and the action buttons keep their
boxes (within a pixel), at 1280 by 800 and 1440 by 900, in the three languages (the
bubble's words are longest in Hungarian and Russian)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import ViewportSize

from tests.web.conftest import DESKTOP, MakePage
from tests.web.driver import Player
from tests.web.layout import once_empty

WIDE: ViewportSize = {"width": 1440, "height": 900}

# the box of every part of the table the bubble must leave where it is
BOXES = """() => {
  const parts = {};
  const add = (name, e) => {
    if (!e) return;
    const r = e.getBoundingClientRect();
    parts[name] = [r.left, r.top, r.width, r.height];
  };
  add('hand', document.querySelector('.hand'));
  document.querySelectorAll('.hand .hand-card').forEach((e, i) => add(`card ${i}`, e));
  add('my melds', document.querySelector('.my-melds'));
  add('their melds', document.querySelector('.their-melds'));
  add('arrangement', document.querySelector('[data-testid=arrangement]'));
  add('opponents', document.querySelector('.opponents, .opponent-zone'));
  add('stock', document.querySelector('[data-testid=stock]'));
  add('discard pile', document.querySelector('[data-testid=discard-pile]'));
  add('my bar', document.querySelector('.my-bar'));
  for (const b of document.querySelectorAll('.action-bar button'))
    add(`button ${b.dataset.action || b.dataset.sort || b.className}`, b);
  return parts;
}"""

# what moved more than a pixel from ``before`` (a list of words, empty when nothing did)
MOVED = f"""(before) => {{
  const now = ({BOXES})();
  const moved = [];
  for (const [name, box] of Object.entries(before)) {{
    const after = now[name];
    if (!after) {{ moved.push(`${{name}}: gone`); continue; }}
    if (box.some((v, i) => Math.abs(v - after[i]) > 1))
      moved.push(`${{name}}: ${{box.map(Math.round)}} -> ${{after.map(Math.round)}}`);
  }}
  return moved;
}}"""


def _boxes(player: Player) -> dict[str, Any]:
    player.settle()
    boxes: dict[str, Any] = player.page.evaluate(BOXES)
    return boxes


@pytest.mark.parametrize(
    ("game", "viewport", "language"),
    [
        ("burraco", DESKTOP, "en"),
        ("burraco", DESKTOP, "hu"),
        ("burraco", DESKTOP, "ru"),
        ("burraco", WIDE, "en"),
        ("burraco", WIDE, "hu"),
        ("burraco", WIDE, "ru"),
        # the hint over the plate, never over the arrangement of the hand below it
        ("three-thirteen", DESKTOP, "ru"),
        ("three-thirteen", WIDE, "hu"),
    ],
    ids=[
        "1280-en",
        "1280-hu",
        "1280-ru",
        "1440-en",
        "1440-hu",
        "1440-ru",
        "13-1280-ru",
        "13-1440-hu",
    ],
)
def test_a_hint_moves_nothing_on_a_desktop(
    new_page: MakePage, game: str, viewport: ViewportSize, language: str
) -> None:
    me = new_page(viewport=viewport, language=language)
    me.new_table(game, {})
    phases: set[str] = set()
    for state in me.turns(limit=12):
        if len(phases) == 2:
            break
        me.close_dialogs()
        turn = state["view"]["turn"]
        # each hint of the turn (a draw, then melds and a discard), opened, closed, played
        while (now := me.at_turn()) is not None and now["view"]["turn"] == turn:
            before = _boxes(me)
            assert before.keys() >= {"hand", "stock", "discard pile"}, before
            me.page.click(".hint-button")
            bubble = me.page.locator(".hint-bubble")
            bubble.wait_for()
            assert bubble.is_visible()
            # the hand's, the pile's and the melds' room is measured over a frame or two
            moved: list[str] = once_empty(me, MOVED, before)
            name = f"hint-{game}-{viewport['width']}-{language}-{turn}-{now['view']['phase']}"
            me.shoot(name)
            assert moved == [], ("opened", name, moved)
            bubble.locator(".hint-close").click()
            bubble.wait_for(state="detached")
            moved = once_empty(me, MOVED, before)
            assert moved == [], ("closed", name, moved)
            phases.add(now["view"]["phase"])
            me.page.click(".hint-button")
            me.page.locator(".hint-bubble button.primary").click()
            me.wait_settled()
    assert len(phases) == 2, phases
    assert not me.errors, me.errors
