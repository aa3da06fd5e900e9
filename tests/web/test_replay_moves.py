"""The replay's move list and controls: every move in words beside the board, the current
one marked, a click jumps to it; the step buttons named in English, Hungarian and
Russian; revealed hands at a readable size; on a phone the list goes below the board."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.turns import play_least_deadwood

NAMES = {
    "en": {"next": "Next move", "forward": "Next", "moves": "Moves", "round": "Round 1"},
    "hu": {
        "next": "Következő lépés",
        "forward": "Tovább",
        "moves": "Lépések",
        "round": "1. forduló",
    },
    "ru": {"next": "Следующий ход", "forward": "Вперёд", "moves": "Ходы", "round": "Раунд 1"},
}


def current_in_view(page: Page, step: int) -> None:
    """The current move (``step``) is marked and wholly inside the list's visible box."""
    page.wait_for_selector(f"[data-testid=replay-moves] [aria-current=step][data-step='{step}']")
    seen = page.evaluate(
        """() => {
          const box = document.querySelector('[data-testid=replay-moves]');
          const item = box.querySelector('[aria-current=step]');
          const b = box.getBoundingClientRect(), i = item.getBoundingClientRect();
          return { box: [b.top + box.clientTop, b.top + box.clientTop + box.clientHeight],
                   item: [i.top, i.bottom], scrolls: box.scrollHeight > box.clientHeight };
        }"""
    )
    (top, bottom), (item_top, item_bottom) = seen["box"], seen["item"]
    assert seen["scrolls"], "too few moves to scroll the list"
    assert top - 1 <= item_top and item_bottom <= bottom + 1, (step, seen)


def follows_the_current_move(page: Page, last: int) -> None:
    """Next, Next... and Last keep the current move in the list's view; the page itself
    does not scroll on a desktop."""
    page.click("[data-testid=replay-first]")
    current_in_view(page, 0)
    scrolled = page.evaluate("() => window.scrollY")
    step = 0
    for _ in range(3):
        for _ in range(max(1, last // 4)):
            page.click("[data-testid=replay-next]")
            step = min(last, step + 1)
        current_in_view(page, step)
    page.click("[data-testid=replay-last]")
    current_in_view(page, last)
    page.click("[data-testid=replay-first]")
    current_in_view(page, 0)
    page.keyboard.press("End")
    current_in_view(page, last)
    if page.viewport_size == DESKTOP:
        assert page.evaluate("() => window.scrollY") == scrolled


def test_the_replay_lists_the_moves_and_names_its_buttons(new_page: MakePage) -> None:
    me = new_page()
    # three rounds: a new deal each run, and two short rounds can leave too few moves
    # for the list to scroll
    me.new_table("three-thirteen", {"first_round": 1, "last_round": 3})
    for state in me.turns(limit=200):
        play_least_deadwood(me, state)
    me.page.click("[data-testid=open-replay]")
    me.page.wait_for_selector("[data-testid=replay-moves] button")
    replay = me.page.request.get(f"{me.base_url}/api/tables/{state['tableId']}/replay").json()
    steps = replay["steps"]
    moves = me.page.locator("[data-testid=replay-moves] button.replay-move")
    assert moves.count() == len(steps)
    headings = me.page.locator("[data-testid=replay-moves] .replay-deal")
    titles = [headings.nth(i).inner_text() for i in range(headings.count())]
    assert titles == ["ROUND 1", "ROUND 2", "ROUND 3"]

    # by deal: the next and previous round in one step (buttons and PageDown/PageUp),
    # the round named beside the move number, the slider marked where each round starts,
    # and every round's totals once it is over
    rounds = [step["observation"]["round_number"] for step in steps]
    # a move belongs to the round of the step before it
    starts = [i for i in range(2, len(steps)) if rounds[i - 1] != rounds[i - 2]]
    firsts = [0, *starts]
    assert len(firsts) == 3, firsts
    at = me.page.locator("[data-testid=replay-moves] [aria-current=step]")
    me.page.click("[data-testid=replay-next-deal]")
    assert at.get_attribute("data-step") == str(firsts[1])
    assert me.page.locator("[data-testid=replay-deal]").inner_text() == "Round 2"
    me.page.keyboard.press("PageDown")
    assert at.get_attribute("data-step") == str(firsts[2])
    me.page.keyboard.press("ArrowRight")
    me.page.keyboard.press("PageUp")  # back to the start of this round
    assert at.get_attribute("data-step") == str(firsts[2])
    me.page.click("[data-testid=replay-prev-deal]")  # and then to the round before
    assert at.get_attribute("data-step") == str(firsts[1])
    marks = me.page.locator("#replay-deal-starts option")
    assert [marks.nth(i).get_attribute("value") for i in range(marks.count())] == [
        str(first) for first in firsts
    ]
    totals = me.page.locator("[data-testid=replay-deal-totals]")
    assert totals.count() == 3
    final = steps[-1]["observation"]["totals"]
    assert totals.nth(2).inner_text().endswith(f"{final[1]}")
    me.page.click("[data-testid=replay-first]")
    # the list is beside the board
    felt = me.page.locator(".replay-felt").bounding_box()
    listed = me.page.locator(".replay-moves").bounding_box()
    assert felt and listed and listed["x"] >= felt["x"] + felt["width"] - 1

    # a click jumps to its move, which the list marks and the controls name
    pick = min(5, len(steps) - 2)
    moves.nth(pick).click()
    current = me.page.locator("[data-testid=replay-moves] [aria-current=step]")
    assert current.get_attribute("data-step") == str(pick)
    assert me.page.locator("[data-testid=replay-step]").inner_text().startswith(f"Move {pick} ")
    said = me.page.locator("[data-testid=replay-action]").inner_text()
    assert current.inner_text().split(" ", 1)[1].strip() == said
    assert me.page.locator(".board").get_attribute("data-state-number") == str(
        steps[pick]["state_number"]
    )
    me.page.click("[data-testid=replay-next]")
    assert current.get_attribute("data-step") == str(pick + 1)
    me.page.keyboard.press("ArrowLeft")
    assert current.get_attribute("data-step") == str(pick)

    # the current move stays in the list's view, however far the replay goes
    follows_the_current_move(me.page, len(steps) - 1)
    me.shoot("replay-desktop-last")

    # every hand at once: the opponent's cards at a size that reads (at the first move,
    # when the opponent surely holds cards: a short game may be over by the fifth)
    moves.nth(1).click()
    me.page.check(".replay-controls input[type=checkbox]")
    revealed = me.page.locator(".opponent .revealed-hand .card").first
    revealed.wait_for()
    box = revealed.bounding_box()
    assert box and box["width"] >= 40, box
    me.shoot("replay-desktop")

    # the step buttons in each language: visible words, an accessible name and a title
    for language, words in NAMES.items():
        me.page.click(f".lang-switch button[data-lang={language}]")
        button = me.page.locator("[data-testid=replay-next]")
        me.page.wait_for_function(
            "(name) => document.querySelector('[data-testid=replay-next]')"
            ".getAttribute('aria-label') === name",
            arg=words["next"],
        )
        assert words["next"] in (button.get_attribute("title") or "")
        assert button.inner_text().replace("▶", "").strip() == words["forward"]
        for testid in ("replay-first", "replay-prev", "replay-play", "replay-last"):
            other = me.page.locator(f"[data-testid={testid}]")
            assert other.get_attribute("aria-label") and other.get_attribute("title")
        assert me.page.locator(".replay-moves-title").inner_text() == words["moves"]
        assert headings.first.inner_text().lower() == words["round"].lower()
    me.page.click(".lang-switch button[data-lang=en]")

    # a phone: the list below the board, the revealed cards still readable
    me.page.set_viewport_size(PHONE)
    me.page.reload()
    me.page.wait_for_selector("[data-testid=replay-moves] button")
    me.page.check(".replay-controls input[type=checkbox]")
    me.page.click("[data-testid=replay-next]")
    revealed.wait_for()
    box = revealed.bounding_box()
    assert box and box["width"] >= 34, box
    felt = me.page.locator(".replay-felt").bounding_box()
    listed = me.page.locator(".replay-moves").bounding_box()
    assert felt and listed and listed["y"] >= felt["y"] + felt["height"] - 1
    assert me.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # the controls are finger-sized, in three short lines above the board
    small = me.page.eval_on_selector_all(
        ".replay-controls button, .replay-controls select, .replay-controls input[type=range],"
        " .replay-controls label.check",
        """els => els.map((e) => e.getBoundingClientRect())
          .filter((r) => r.height < 44 || (r.width < 44 && r.width > 0))
          .map((r) => [r.width, r.height])""",
    )
    assert small == [], small
    controls = me.page.locator(".replay-controls").bounding_box()
    assert controls and controls["height"] <= 250, controls
    me.shoot("replay-phone", full_page=True)
    follows_the_current_move(me.page, len(steps) - 1)
    me.shoot("replay-phone-last", full_page=True)
    me.page.set_viewport_size(DESKTOP)
