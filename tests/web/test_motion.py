"""Cards travel across the table: a whole short Three-Thirteen game against a bot with
the cards' flights on, every flying copy recorded as it comes and goes; a Burraco meld's
cards flying from the hand to the new meld; reduced motion turning the flights off; the
sound switch at the table, remembered."""

from __future__ import annotations

from typing import Any

from tests.web.checks import assert_page_matches_server, server_view
from tests.web.conftest import MakePage
from tests.web.driver import Player
from tests.web.turns import draw_and_throw_last

SHORT = {"first_round": 3, "last_round": 4}

# Records each flying copy the page adds (what it shows, whose move) and how many are
# still on the page.
WATCH_FLIGHTS = """
window.__flights = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    if (!(node instanceof Element) || !node.classList.contains("motion-card")) continue;
    window.__flights.push({
      kind: node.dataset.motion, face: node.dataset.face, seat: Number(node.dataset.seat),
      back: Boolean(node.querySelector("svg.card-svg.back, .motion-plain-back")),
      named: node.querySelectorAll("[data-card]").length + (node.hasAttribute("data-card") ? 1 : 0),
      at: performance.now(),
    });
  }
}).observe(document, { childList: true, subtree: true });
"""

FLYING = "() => document.querySelectorAll('.motion-card').length"


def _open_table(me: Player, game: str, rules: dict[str, Any]) -> str:
    """A new table of ``game`` against the greedy bot, the page at it; its id."""
    me.page.add_init_script(WATCH_FLIGHTS)
    me.enter_lobby("Mira")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    table_id = me.create_table({"game": game, "rules": rules, "seats": seats})
    me.goto(f"/#/table/{table_id}")
    me.wait_table()
    return table_id


def _flights(me: Player) -> list[dict[str, Any]]:
    flights: list[dict[str, Any]] = me.page.evaluate("() => window.__flights")
    return flights


def _draw_from_stock(me: Player) -> bool:
    """Draw from the stock; as soon as the drawn card is seen flying to the hand, discard
    the last card of the hand. Whether the discard went out while the card still flew."""
    seen = len(_flights(me))
    me.page.click("[data-testid=stock]")
    me.page.wait_for_function(
        "(n) => window.__flights.slice(n).some((f) => f.kind === 'stock_drawn' && f.seat === 0)",
        arg=seen,
    )
    # hold the flight where it is (a busy machine may otherwise land it before the clicks
    # below), discard while it is held, then let it go on
    held = me.page.evaluate(
        "() => { const flying = document.querySelector('.motion-card[data-motion=stock_drawn]');"
        " if (!flying) return false;"
        " document.getAnimations().forEach((a) => a.pause()); return true; }"
    )
    number = me.page.evaluate("() => window.rummykitTable.store.get().message.state_number")
    me.tap_card(me.hand()[-1])
    me.page.click("[data-testid=discard-pile]")
    sent_in_flight = False
    if held:
        # the server played the discard (a later state came) while the card still flew
        me.page.wait_for_function(
            "(n) => window.rummykitTable.received.some("
            "(m) => m.type === 'state' && m.state_number > n)",
            arg=number,
        )
        sent_in_flight = me.page.evaluate(
            "() => document.querySelector('.motion-card[data-motion=stock_drawn]') !== null"
        )
    me.page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
    return bool(sent_in_flight)


def test_cards_travel_through_a_whole_game_and_leave_nothing_behind(new_page: MakePage) -> None:
    me = new_page(pace="normal")
    table_id = _open_table(me, "three-thirteen", SHORT)
    in_flight = turns = 0
    for state in me.turns():
        assert state["view"]["phase"] == "draw", state["view"]
        if turns % 3 == 2:
            assert_page_matches_server(me, state)
        in_flight += _draw_from_stock(me)
        me.wait_settled()
        turns += 1
    # moves went out while a drawn card was still travelling, and were played
    assert in_flight >= 1, (in_flight, turns)
    me.page.wait_for_function(f"{FLYING} === 0", timeout=3000)
    assert me.page.evaluate("() => document.querySelector('.motion-layer').children.length") == 0
    record = server_view(me, table_id)
    shown = [int(t) for t in me.page.locator("[data-testid=final-total]").all_inner_texts()]
    assert shown == record["totals"]
    last_state = me.page.evaluate(
        "() => Math.max(...window.rummykitTable.received.filter((m) => m.type === 'state')"
        ".map((m) => m.state_number))"
    )
    assert me.page.get_attribute(".board", "data-state-number") == str(last_state)

    flights = _flights(me)
    mine = 0
    kinds = {(f["kind"], f["seat"] == mine) for f in flights}
    expected = {("stock_drawn", True), ("discarded", True), ("discarded", False)}
    # every turn of mine drew from the stock; the bot's flights from the stock are owed
    # only if it drew there: in two short rounds it may have taken the discard every time
    if record["actions"].count("draw") > turns:
        expected.add(("stock_drawn", False))
    assert expected <= kinds, kinds
    # no flying copy names a card; the opponent's cards from the stock fly face down,
    # the player's own face up
    assert all(f["named"] == 0 for f in flights)
    drawn = [f for f in flights if f["kind"] == "stock_drawn"]
    assert all(f["face"] == "back" and f["back"] for f in drawn if f["seat"] != mine)
    assert all(f["face"] == "up" and not f["back"] for f in drawn if f["seat"] == mine)
    assert not me.errors, me.errors


def test_a_meld_flies_from_the_hand_to_the_table(new_page: MakePage) -> None:
    me = new_page(pace="instant")
    _open_table(me, "burraco", {"mode": "quick"})
    for _ in range(12):
        state = me.wait_turn_or_end()
        assert not state["view"]["gameOver"]
        if state["view"]["phase"] == "draw":
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
        melds = [a for a in state["legal"] if a.startswith("meld ")]
        if melds:
            break
        me.tap_card(me.hand()[-1])
        me.page.click("[data-testid=discard-pile]")
        me.wait_settled()
    else:
        raise AssertionError("no meld came in twelve turns")
    cards = melds[0].split()[1:]
    me.page.evaluate("() => window.rummykit.settings.set({ pace: 'slow' })")
    me.select(cards)
    me.click_action("meld")
    me.page.wait_for_function(
        "(n) => document.querySelectorAll('.motion-card[data-motion=melded]').length === n",
        arg=len(cards),
    )
    me.shoot("motion-meld-desktop", at_rest=False)  # the cards in flight
    me.page.wait_for_function(f"{FLYING} === 0", timeout=3000)
    meld = me.page.locator(".my-melds .meld").last
    laid = meld.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)")
    assert sorted(laid) == sorted(cards)
    assert not me.errors, me.errors


def test_reduced_motion_stops_the_flights_and_the_sound_switch_is_remembered(
    new_page: MakePage,
) -> None:
    me = new_page(pace="slow")
    me.page.emulate_media(reduced_motion="reduce")
    _open_table(me, "three-thirteen", SHORT)
    toggle = me.page.locator("[data-testid=sound-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    me.page.reload()
    me.wait_table()
    assert me.page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
    for _ in range(2):
        me.wait_turn_or_end()
        me.close_dialogs()
        draw_and_throw_last(me)
    me.wait_turn_or_end()
    assert _flights(me) == []
    played: dict[str, int] = me.page.evaluate("async () => (await import('/js/sound.js')).played")
    # the draws slid, the discards were laid down (a discard that ends the hand sounds
    # the hand's end instead: the deal decides whether one does)
    laid = played.get("place", 0) + played.get("end", 0)
    assert played.get("slide", 0) >= 2 and laid >= 2, played
    assert not me.errors, me.errors
