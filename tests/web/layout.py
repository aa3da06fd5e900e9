"""Where things lie on the page: checks of a layout, run in the page, each a list of
what is wrong (empty when all is well)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.driver import Player

# every control the player needs, each with the point a finger presses
UNREACHABLE = """() => {
  const wanted = [];
  const add = (e, name, corner = false) => { if (e) wanted.push([e, name, corner]); };
  add(document.querySelector('[data-testid=stock]'), 'stock');
  const pile = [...document.querySelectorAll('[data-testid=discard-pile] .pile-card')];
  add(pile.at(-1), 'top of the discard pile');
  add(document.querySelector('[data-testid=pile-all]'), 'the whole pile');
  for (const b of document.querySelectorAll('.action-bar button, .arrangement-toggle')) {
    if (b.closest('.hint-bubble')) continue;
    if (getComputedStyle(b).display === 'none') continue;
    add(b, `button ${b.dataset.action || b.className}`);
  }
  for (const c of document.querySelectorAll('.hand .hand-card'))
    add(c, `card ${c.dataset.card}`, true);
  for (const n of document.querySelectorAll('.opponent .plate-name, .opponent-zone .plate-name'))
    add(n, `name ${n.textContent}`);
  const bad = [];
  for (const [e, name, corner] of wanted) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { bad.push(`${name}: not shown`); continue; }
    const x = corner ? r.left + Math.min(10, r.width / 4) : r.left + r.width / 2;
    const y = corner ? r.top + r.height * 0.35 : r.top + r.height / 2;
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5
        || r.bottom > innerHeight + 0.5) {
      bad.push(`${name}: outside the screen ${Math.round(r.left)},${Math.round(r.top)}-` +
        `${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(e === hit || e.contains(hit))) {
      bad.push(`${name}: covered by ${hit ? hit.className || hit.tagName : 'nothing'}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) bad.push('the page is wider');
  return bad;
}"""


def once_empty(player: Player, check: str, arg: Any = None, *, timeout_ms: int = 5_000) -> Any:
    """The answer of ``check`` (a page function listing what is wrong) once it lists
    nothing, else its answer when ``timeout_ms`` have passed: the hand, the pile and the
    melds measure their room after a state is drawn, so a layout settles over a few
    frames."""
    try:  # an empty list is true in the page: the wait ends with the answer
        return player.page.wait_for_function(
            f"(arg) => {{ const bad = ({check})(arg); return bad.length === 0 && bad; }}",
            arg=arg,
            timeout=timeout_ms,
        ).json_value()
    except PlaywrightTimeout:
        return player.page.evaluate(check, arg)


def check_turn(player: Player, name: str) -> None:
    """Every control the player needs is on the screen, uncovered (a screenshot in
    test-output otherwise)."""
    bad: list[str] = once_empty(player, UNREACHABLE)
    if bad:
        player.page.screenshot(path=f"test-output/{name}.png")
    assert bad == [], (name, bad)


def off_screen(player: Player, selector: str) -> list[str]:
    """The shown elements of ``selector`` not wholly inside the window."""
    out: list[str] = player.page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5
            || r.right > innerWidth + 0.5);
        }).map((e) => {
          const r = e.getBoundingClientRect();
          return `${e.textContent.trim() || e.className} ${r.left},${r.top}-${r.right},${r.bottom}`;
        })""",
        selector,
    )
    return out


# players' names that take more than one line on their plates, or whose text does not
# fit their box (cut): each with its text and its number of lines
_NAMES_NOT_ON_ONE_LINE = """() => [...document.querySelectorAll('.player-plate .plate-name')]
  .flatMap((e) => {
    const style = getComputedStyle(e);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.25;
    const lines = Math.round(e.getBoundingClientRect().height / line);
    const cut = e.scrollWidth > e.clientWidth + 1;
    const shown = [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE
      || getComputedStyle(n).display !== 'none').map((n) => n.textContent).join('').trim();
    return lines > 1 || cut ? [`${shown} (${cut ? 'cut' : `${lines} lines`})`] : [];
  })"""


def names_not_on_one_line(player: Player) -> list[str]:
    """The players' names on the page's plates that wrap or are cut (each names itself
    and what is wrong): a plate gives a name one whole line."""
    bad: list[str] = player.page.evaluate(_NAMES_NOT_ON_ONE_LINE)
    return bad
