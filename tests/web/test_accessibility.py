"""The table for a keyboard and a screen reader: the focus stays in the hand after every
move (the next Tab does not start over at the top of the page), a polite live region
tells the turn and the other players' moves as text, a card dropped on the discard pile
before drawing says why nothing happens (the server's own refusal, translated), the
motion setting shows as off when the system asks for reduced motion, and axe-core finds
no serious or critical violation on the lobby, both tables, a replay, a review, a profile
and a tournament page."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogs import MESSAGES, REFUSALS
from tests.web.conftest import PHONE, LiveServer, MakePage
from tests.web.driver import Player
from tests.web.scenes import finished_game, make_tournament, registered

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def _focused(player: Player) -> str:
    where: str = player.page.evaluate(
        """() => { const e = document.activeElement;
          if (!e || e === document.body) return 'page';
          if (e.closest('.hand')) return 'hand';
          return e.dataset.testid || e.dataset.action || e.className || e.tagName; }"""
    )
    return where


NEXT_CARD = """() => {
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const at = cards.indexOf(document.activeElement);
  return at >= 0 && at + 1 < cards.length ? cards[at + 1].dataset.key : null;
}"""
"""The key of the hand's card after the focused one (``None`` from the last card)."""

AFTER_THE_HAND = """() => Boolean(document.querySelector('.hand')
  .compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING)
  && !document.activeElement.closest('.hand')"""
"""Whether the focus is on an element after the hand, outside it."""


def test_the_focus_stays_in_the_hand_after_each_move(new_page: MakePage) -> None:
    me = new_page()
    me.new_table("burraco", {})
    for _ in range(3):
        state = me.wait_turn_or_end()
        me.close_dialogs()
        # draw with the keyboard: the Draw button, then Enter
        me.page.focus(".action-bar button[data-action=draw]")
        me.page.keyboard.press("Enter")
        state = me.wait_settled()
        me.page.wait_for_function("() => document.activeElement?.closest('.hand')")
        assert _focused(me) == "hand"
        # a card chosen with Space, thrown with the Discard button
        discard = next(a for a in state["legal"] if a.startswith("discard "))
        thrown = discard.split()[1]
        copies = me.page.locator(f".hand [data-card='{thrown}']").count()
        me.card_button(thrown).focus()
        me.page.keyboard.press("Space")
        me.page.focus(".action-bar button[data-action=discard]")
        me.page.keyboard.press("Enter")
        state = me.wait_turn_or_end()
        # the page has drawn the hand without the thrown card, and the focus came back
        me.page.wait_for_function(
            """([card, left]) => document.activeElement?.closest('.hand')
                 && document.querySelectorAll(`.hand [data-card="${card}"]`).length === left""",
            arg=[thrown, copies - 1],
        )
        # the next Tab goes on from the card that has the focus: to the next card, or
        # from the hand's last card to what follows the hand, not to the top of the page
        following = me.page.evaluate(NEXT_CARD)
        me.page.keyboard.press("Tab")
        if following is not None:
            assert me.page.evaluate("document.activeElement.dataset.key") == following
        else:
            assert me.page.evaluate(AFTER_THE_HAND), f"the next Tab went to {_focused(me)}"
        assert not state["view"]["gameOver"]
    assert not me.errors, me.errors


# The hand's order changes (a sort), and before that render's effects have run another
# card is focused (a quick Tab, or Playwright's focus before a key): whether that card
# still has the focus once the page renders the new focus (when the effects left pending
# run first), and once it is at rest.
FOCUS_DURING_A_RENDER = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
  const cards = () => [...document.querySelectorAll('.hand .hand-card')];
  cards()[0].focus();
  await frame();
  document.querySelector('[data-sort][aria-pressed=false]').click();
  await Promise.resolve();
  const target = cards().find((card) => card !== document.activeElement);
  target.focus();
  await Promise.resolve();
  await Promise.resolve();
  const kept = document.activeElement === target;
  await frame();
  return [kept, document.activeElement === target];
}"""


def test_a_card_focused_while_the_hand_is_drawn_keeps_the_focus(new_page: MakePage) -> None:
    me = new_page()
    me.new_table("burraco", {})
    me.wait_turn_or_end()
    me.close_dialogs()
    kept, at_rest = me.page.evaluate(FOCUS_DURING_A_RENDER)
    assert kept, "the focus went back to the card that had it before the render"
    assert at_rest


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_polite_live_region_tells_the_turn_and_the_moves(
    new_page: MakePage, language: str
) -> None:
    words = MESSAGES[language]
    your_turn = words["announce.your_turn"]
    computer = words["table.bot"].format(level=words["level.greedy"])
    # the move log's words for the computer's draw, from the stock or the pile
    drew = [
        words[key].split("{name}")[1].split("{card}")[0].strip(" :")
        for key in ("log.drew", "log.took")
    ]
    me = new_page(language=language)
    me.new_table("three-thirteen", {"first_round": 3, "last_round": 6})
    me.page.evaluate(
        """() => { window.said = [];
          const region = document.querySelector('[data-testid=announcer]');
          new MutationObserver(() => window.said.push(region.textContent))
            .observe(region, {childList: true, characterData: true, subtree: true}); }"""
    )
    region = me.page.locator("[data-testid=announcer]")
    assert region.get_attribute("aria-live") == "polite"
    state = me.wait_turn_or_end()
    # A discard that goes out ends the round, and what follows it is told at once, in one
    # text: the player plays on until the computer's move is told before their turn.
    for _ in range(8):
        if state["view"]["phase"] == "draw":
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
        discard = next(a for a in state["legal"] if a.startswith("discard "))
        me.tap_card(discard.split()[1])
        me.page.evaluate("() => { window.said = []; }")
        me.click_action("discard")
        state = me.wait_turn_or_end()
        assert not state["view"]["gameOver"], "no computer's move was told in four rounds"
        me.page.wait_for_function(
            "(turn) => window.said.some((s) => s.includes(turn))", arg=your_turn
        )
        said: list[str] = me.page.evaluate("() => window.said")
        told = " ".join(said)
        if any(f"{computer} {verb}" in told for verb in drew):
            break
    # the computer's moves, in the words of the move log, then the turn
    assert computer in told and any(f"{computer} {verb}" in told for verb in drew), (said, drew)
    assert your_turn in said[-1], said
    # plain text only: nothing fetched is read as markup
    assert region.evaluate("(e) => e.childElementCount") == 0
    assert not me.errors, me.errors


def _refusal(language: str) -> str:
    text: str = REFUSALS[language]["refusals"]["wrong_phase"]["cases"]["draw"]
    return text


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_card_dropped_on_the_pile_before_drawing_says_why(
    new_page: MakePage, language: str
) -> None:
    me = new_page(language=language)
    me.new_table("burraco", {})
    state = me.wait_turn_or_end()
    me.close_dialogs()
    assert state["view"]["phase"] == "draw"
    sent_before = len(me.frames)
    me.drag(me.card_button(me.hand()[0]), me.page.locator("[data-testid=discard-pile]"))
    toast = me.page.locator(".toast.refusal")
    toast.wait_for()
    assert toast.inner_text() == _refusal(language)
    after = me.table()
    assert after["stateNumber"] == state["stateNumber"] and not after["pending"]
    assert len(me.hand()) == len(state["view"]["hand"])
    # a chat line said now: the server answers anything sent before it first, so once
    # its echo is back, any answer to a move sent by the drop would be too
    me.page.evaluate("window.rummykitTable.chat('dropped')")
    me.page.wait_for_function("() => window.rummykitTable.received.some((m) => m.type === 'chat')")
    # nothing but the echo came back: nothing was sent
    assert len(me.frames) == sent_before + 1, me.frames[sent_before:]
    assert not me.errors, me.errors


def test_reduced_motion_shows_the_motion_setting_off(new_page: MakePage) -> None:
    me = new_page()
    me.page.emulate_media(reduced_motion="reduce")
    me.goto("/")
    me.page.click(".settings-button")
    box = me.page.locator(".dialog.settings input[type=checkbox][aria-describedby=motion-reduced]")
    assert not box.is_checked() and box.is_disabled()
    me.page.keyboard.press("Escape")
    me.page.emulate_media(reduced_motion="no-preference")
    me.page.reload()
    me.page.click(".settings-button")
    labels = me.page.locator(".dialog.settings label", has_text="Cards move across the table")
    assert labels.locator("input").is_checked()
    assert not me.errors, me.errors


# -- axe-core --------------------------------------------------------------------------


def _axe(player: Player, page_name: str) -> list[str]:
    """Serious and critical violations axe-core finds on the page as it stands."""
    if not player.page.evaluate("() => Boolean(window.axe)"):
        # evaluated through the browser's debugging protocol: the page's own content
        # security policy, which allows scripts from the site alone, does not apply
        player.page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found: list[dict[str, Any]] = player.page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => ({id: v.id, impact: v.impact,
                        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}))"""
    )
    return [f"{page_name}: {v['id']} ({v['impact']}) {v['nodes']}" for v in found]


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_serious_violation(
    new_page: MakePage, live_server: LiveServer, viewport: Any
) -> None:
    assert AXE.is_file(), "npm ci installs axe-core"
    me = new_page(viewport=viewport)
    found: list[str] = []
    me.goto("/")
    found += _axe(me, "sign-in")
    me.sit_down("Ada")
    me.page.wait_for_selector("[data-testid=me]")
    me.page.wait_for_selector(".game-tile")
    found += _axe(me, "lobby")

    for game in ("burraco", "three-thirteen"):
        rules = {"first_round": 3, "last_round": 3} if game != "burraco" else {}
        seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
        table_id = me.create_table({"game": game, "rules": rules, "seats": seats})
        me.page.goto(f"{me.base_url}/#/table/{table_id}")
        me.wait_table()
        me.wait_turn_or_end()
        me.close_dialogs()
        found += _axe(me, game)

    table_id = finished_game(me, {"first_round": 1, "last_round": 1})
    me.page.goto(f"{me.base_url}/#/table/{table_id}")
    me.page.locator("[data-testid=result-headline]").wait_for()
    me.page.click("[data-testid=start-review]")
    me.page.wait_for_selector("[data-testid=review-status][data-status=done]", timeout=60_000)
    found += _axe(me, "review")

    me.goto(f"/#/replay/{table_id}")
    me.page.wait_for_selector(".board")
    found += _axe(me, "replay")

    client, player_id = registered(live_server.url, f"Profiled{bool(viewport)}")
    with closing(client):
        tournament_id = make_tournament(client, name="Spring Cup")
    me.goto(f"/#/player/{player_id}")
    me.page.wait_for_selector(".profile-page h1, .profile-page h2")
    found += _axe(me, "profile")
    me.goto("/#/tournaments")
    me.page.wait_for_selector(f"[data-tournament='{tournament_id}']")
    found += _axe(me, "tournaments")
    me.goto(f"/#/tournament/{tournament_id}")
    me.page.wait_for_selector(".entrants")
    found += _axe(me, "tournament")
    assert found == [], "\n".join(found)
    assert not me.errors, me.errors
