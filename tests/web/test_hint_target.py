"""A hint never covers what it points at: while the bubble shows, the pile, the stock, the
meld to add to (or the player's meld area, for a new meld) and the hand's cards that the
hint names can each be clicked or dropped on all over (the element at the middle and the
corners of each, at the corner of a hand card, is that element), at a desktop and on
a phone in the three languages, turn after turn of a Burraco game played by following
the hints."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import ViewportSize

from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.layout import check_turn, once_empty

COVERED = """(action) => {
  const [verb, ...rest] = action.split(/\\s+/);
  const targets = [];
  const add = (e, name, corner = false) => targets.push([e, name, corner]);
  if (verb === 'draw') add(document.querySelector('[data-testid=stock]'), 'stock');
  if (verb === 'take' || verb === 'discard' || verb === 'out')
    add(document.querySelector('[data-testid=discard-pile]'), 'discard pile');
  if (verb === 'meld') add(document.querySelector('.my-melds'), 'own melds');
  if (verb === 'extend') add(document.querySelector(`.my-melds [data-meld='${rest[0]}']`), 'meld');
  const cards = verb === 'extend' ? rest.slice(1) : verb === 'draw' || verb === 'take' ? [] : rest;
  const used = new Set();
  for (const name of cards) {
    const card = [...document.querySelectorAll(`.hand .hand-card[data-card='${name}']`)]
      .find((e) => !used.has(e));
    used.add(card);
    add(card, `card ${name}`, true);
  }
  const bad = [];
  for (const [e, name, corner] of targets) {
    if (!e) { bad.push(`${name}: missing`); continue; }
    const r = e.getBoundingClientRect();
    // a hand card at the corner a finger taps; anything else all over (its middle and
    // four points inside its rounded corners: a drop lands anywhere on it)
    const points = corner
      ? [[r.left + Math.min(10, r.width / 4), r.top + r.height * 0.35]]
      : [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 10, r.top + 10],
         [r.right - 10, r.top + 10], [r.left + 10, r.bottom - 10], [r.right - 10, r.bottom - 10]];
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === e || e.contains(hit))) {
        bad.push(`${name} at ${Math.round(x)},${Math.round(y)} covered by ` +
          `${hit ? hit.className || hit.tagName : 'nothing'}`);
        break;
      }
    }
  }
  return bad;
}"""


@pytest.mark.parametrize(
    ("viewport", "language"),
    [(DESKTOP, "en"), (PHONE, "en"), (PHONE, "hu"), (PHONE, "ru")],
    ids=["desktop-en", "phone-en", "phone-hu", "phone-ru"],
)
def test_a_hint_leaves_its_target_free(
    new_page: MakePage, viewport: ViewportSize, language: str
) -> None:
    """In each language on a phone: the bubble's words, longer in Hungarian and Russian,
    make it larger."""
    me = new_page(viewport=viewport, language=language)
    me.new_table("burraco", {})
    seen: list[str] = []
    for _ in range(30):
        state: dict[str, Any] = me.wait_turn_or_end()
        if state["view"]["gameOver"]:
            break
        me.close_dialogs()
        if viewport is PHONE:  # every control on the screen, whatever the hints made of the hand
            check_turn(me, f"hint-{language}-turn-{state['view']['turn']}")
        try:
            me.page.click(".hint-button", timeout=10_000)
        except Exception:
            me.page.screenshot(path=f"test-output/hint-button-{language}.png")
            raise
        bubble = me.page.locator(".hint-bubble")
        bubble.wait_for()
        action = bubble.get_attribute("data-action")
        assert action
        # the bubble takes its room and the board gives it up over a frame or two
        bad: list[str] = once_empty(me, COVERED, action)
        if bad:
            me.page.screenshot(path="test-output/hint-covers.png")
        assert bad == [], (action, bad)
        seen.append(action.split()[0])
        # the hint's own play button plays it
        bubble.locator("button.primary").click()
        me.wait_settled()
    assert {"draw", "discard"} <= set(seen), seen
    assert {"meld", "extend"} & set(seen), seen
    assert not me.errors, me.errors
