"""Games played through the page, as a person plays them: tables made in the new-table
dialog, and the turns the tests of whole games make, shared by the tests that need such
a game on the way to what they look at."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations
from typing import Any

from tests.web.catalogs import REFUSALS
from tests.web.driver import Player

RANKS = "A23456789TJQK"

# -- Three-Thirteen ----------------------------------------------------------------------


def create_private_table(alice: Player) -> str:
    """Alice (sitting down as such in the lobby) makes a private two-seat Three-Thirteen
    table in the new-table dialog and waits in its room; its invitation link."""
    alice.goto("/")
    alice.sit_down("Alice")
    alice.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = alice.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("2")
    dialog.locator("select[data-seat='1']").select_option("human")
    dialog.locator("input[name=private]").check()
    dialog.locator("button[type=submit]").click()
    link = alice.page.locator("[data-testid=invite-link]")
    link.wait_for()
    value = link.input_value()
    assert "token=" in value
    return value


def create_four_seat_table(me: Player, levels: tuple[str, str, str], last_round: int) -> None:
    """Three-Thirteen for four from the lobby's new-table dialog: computers of ``levels``
    in seats 2 to 4, rounds 1 to ``last_round``; back once the table is on the page."""
    me.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = me.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("4")
    for seat, level in enumerate(levels, start=1):
        dialog.locator(f"select[data-seat='{seat}']").select_option(f"bot:{level}")
    dialog.locator(".more-rules button").click()
    dialog.locator("#opt-last_round").select_option(str(last_round))
    dialog.locator("button[type=submit]").click()
    me.wait_table()


def not_wild(hand: list[str], wild_rank: int) -> list[str]:
    """The cards of a Three-Thirteen hand not of the round's wild rank (all of them when
    every card is)."""
    return [card for card in hand if RANKS.index(card[0]) + 1 != wild_rank] or hand


def draw_from_stock(me: Player) -> dict[str, Any]:
    """Draw from the stock; the table once the page has settled."""
    me.page.click("[data-testid=stock]")
    return me.wait_settled()


def throw_plain(me: Player, state: dict[str, Any], *, by_button: bool = False) -> None:
    """Three-Thirteen, a drawn card in hand: throw the rightmost card that is not wild
    (tapped, then the pile or, ``by_button``, the Discard button) and wait until the page
    has settled."""
    me.tap_card(not_wild(me.hand(), state["view"]["wildRank"])[-1])
    if by_button:
        me.click_action("discard")
    else:
        me.page.click("[data-testid=discard-pile]")
    me.wait_settled()


def draw_and_throw_last(me: Player) -> None:
    """Draw from the stock, then throw the last card of the hand (tapped, then the
    pile), and wait until the page has settled."""
    draw_from_stock(me)
    me.tap_card(me.hand()[-1])
    me.page.click("[data-testid=discard-pile]")
    me.wait_settled()


def draw_and_throw_plain(me: Player, state: dict[str, Any]) -> None:
    """Three-Thirteen: draw from the stock if the turn starts there, then
    :func:`throw_plain`."""
    if state["view"]["phase"] == "draw":
        state = draw_from_stock(me)
    throw_plain(me, state)


def play_one_turn(player: Player) -> None:
    """Three-Thirteen, at the player's turn: draw from the stock, then discard the
    rightmost card that is not wild."""
    state = player.wait_settled()
    assert state["view"]["currentPlayer"] == state["seat"]
    throw_plain(player, draw_from_stock(player))


def play_least_deadwood(me: Player, state: dict[str, Any]) -> None:
    """Three-Thirteen: draw from the stock, then go out if the page offers it, else
    discard the card whose discard the live arrangement prices lowest."""
    view = state["view"]
    if view["phase"] == "draw":
        state = draw_from_stock(me)
    outs = [a for a in state["legal"] if a.startswith("out ")]
    if outs:
        me.tap_card(outs[0].split()[1])
        me.page.click("button[data-action=out]")
    else:
        best = me.page.evaluate(
            "() => window.rummykitTable.store.get().message.arrangement.discards[0].card"
        )
        me.tap_card(best)
        me.page.click("button[data-action=discard]")


# -- Burraco -----------------------------------------------------------------------------

POINTS = {"Jk": 30, "2": 20, "A": 15}
CYRILLIC = re.compile("[\u0400-\u04ff]")
# a card in the project's notation ("5h", "Js") where the page should show "5♥", "J♠"
RAW_CARD = re.compile(r"\b([2-9TJQKA][cdhs]|Jk)\b(?! cannot)")


def _points(card: str) -> int:
    if card in POINTS:
        return POINTS[card]
    if card[0] in POINTS:
        return POINTS[card[0]]
    return 10 if card[0] in "89TJQK" else 5


def _is_wild(card: str) -> bool:
    return card == "Jk" or card[0] == "2"


def _cards_of(action: str) -> list[str]:
    verb, *rest = action.split()
    return rest[1:] if verb == "extend" else rest


class Counts:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()


def _refused_meld(me: Player, state: dict[str, Any], counts: Counts) -> None:
    """Three cards that make no meld: the server refuses, the page says why in English
    with the cards written as cards (above the hand and its buttons, not over them) and the
    cards chosen again, then in Hungarian when the player
    switches language; Escape clears the choice.  A hand where every three cards make a
    meld (three cards left, say) has nothing to show: a later turn shows it."""
    legal = {" ".join(sorted(_cards_of(a))) for a in state["legal"] if a.startswith("meld ")}
    # the hand as drawn (a busy page may still be laying it out right after the draw)
    hand = me.wait_hand(len(state["view"]["hand"]))
    for trio in combinations(range(len(hand)), 3):
        cards = [hand[i] for i in trio]
        if " ".join(sorted(cards)) not in legal:
            break
    else:
        return
    me.select(cards)
    me.click_action("meld")
    toast = me.page.locator(".toast.refusal").first
    toast.wait_for()
    code = toast.get_attribute("data-code")
    assert code in REFUSALS["en"]["refusals"], code
    english = toast.inner_text()
    assert english and "{" not in english
    assert not RAW_CARD.search(english), english
    # the refused cards are chosen again, ready to be changed
    me.page.wait_for_function(
        "(n) => document.querySelectorAll('.hand .hand-card.selected').length === n", arg=3
    )
    again = me.page.eval_on_selector_all(
        ".hand .hand-card.selected", "els => els.map(e => e.dataset.card)"
    )
    assert Counter(again) == Counter(cards)
    below = me.page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('.hand, .action-bar')]"
        ".map((e) => e.getBoundingClientRect().top))"
    )
    box = toast.bounding_box()
    assert box and box["y"] + box["height"] <= below, (box, below)
    me.page.click(".topbar .lang-switch button[data-lang='hu']")
    me.page.wait_for_function("() => document.documentElement.lang === 'hu'")
    hungarian = me.page.locator(".toast.refusal").first.inner_text()
    assert hungarian and hungarian != english and "{" not in hungarian
    me.page.click(".topbar .lang-switch button[data-lang='en']")
    me.page.wait_for_function("() => document.documentElement.lang === 'en'")
    me.page.keyboard.press("Escape")
    assert me.page.locator(".hand .hand-card.selected").count() == 0
    counts.kinds["refused"] += 1


def _hint(me: Player, state: dict[str, Any], counts: Counts) -> None:
    """The hint button brings the strongest bot's move, one of the legal moves, with its
    reason in the player's language."""
    me.page.click(".hint-button")
    bubble = me.page.locator(".hint-bubble")
    bubble.wait_for()
    assert bubble.get_attribute("data-action") in state["legal"]
    # the move and why (no reason is shown where it would only name the move again)
    english = bubble.inner_text()
    assert english and "{" not in english and "reason." not in english
    me.page.click(".topbar .lang-switch button[data-lang='ru']")
    me.page.wait_for_function("() => document.documentElement.lang === 'ru'")
    russian = bubble.inner_text()
    assert russian != english and "{" not in russian and CYRILLIC.search(russian), russian
    me.page.click(".topbar .lang-switch button[data-lang='en']")
    me.page.wait_for_function("() => document.documentElement.lang === 'en'")
    me.page.click(".hint-bubble .hint-close")
    bubble.wait_for(state="detached")
    counts.kinds["hint"] += 1


def play_burraco_turn(me: Player, state: dict[str, Any], turn: int, counts: Counts) -> None:
    """Turn ``turn`` of a Burraco hand, played through the page every way a person can:
    by turns a hint, a pile taken, a meld refused, the hand reordered by drag; the
    longest melds and extensions laid (by tap and by drag); the costliest plain card
    thrown (by drag, double click or tap).  ``counts`` counts each kind of move."""
    seat = state["seat"]
    if turn == 3:
        _hint(me, state, counts)
    if state["view"]["phase"] == "draw":
        if turn % 5 == 4 and "take" in state["legal"]:
            me.page.click("[data-testid=discard-pile]")
            counts.kinds["take"] += 1
        else:
            me.page.click("[data-testid=stock]")
            counts.kinds["draw"] += 1
        state = me.wait_settled()
        assert state["view"]["phase"] == "play"
    if turn >= 1 and not counts.kinds["refused"]:
        _refused_meld(me, state, counts)
    if turn == 2:
        # put the first card of the hand last, by dragging it past the last card
        hand = me.hand()
        cards = me.page.locator(".hand .hand-card")
        me.drag(cards.nth(0), cards.nth(len(hand) - 1), at=0.9)
        me.page.wait_for_function(
            "(first) => [...document.querySelectorAll('.hand .hand-card')].at(-1)"
            ".dataset.card === first",
            arg=hand[0],
        )
        assert me.hand() == [*hand[1:], hand[0]]
        counts.kinds["reorder"] += 1
    for _ in range(6):
        legal = state["legal"]
        melds = [a for a in legal if a.startswith("meld ")]
        extensions = [a for a in legal if a.startswith("extend ")]
        if melds:
            action = max(melds, key=lambda a: (len(a.split()), a))
            me.select(_cards_of(action))
            me.click_action("meld")
            counts.kinds["meld"] += 1
        elif extensions:
            action = max(extensions, key=lambda a: (len(a.split()), a))
            meld_id = action.split()[1]
            adding = _cards_of(action)
            target = me.page.locator(f".my-melds .meld[data-meld='{meld_id}']")
            if len(adding) == 1 and counts.kinds["extend"] % 2 == 1:
                me.drag(me.card_button(adding[0]), target)
                counts.kinds["extend by drag"] += 1
            else:
                me.select(adding)
                target.click()
            counts.kinds["extend"] += 1
        else:
            break
        state = me.wait_settled()
        assert me.last_action_of(seat) == action, (action, state["errors"], me.errors)
        if state["view"]["phase"] != "play" or state["view"]["gameOver"]:
            return
    discards = [a.split()[1] for a in state["legal"] if a.startswith("discard ")]
    plain = [card for card in discards if not _is_wild(card)] or discards
    card = max(plain, key=lambda c: (_points(c), c))
    way = turn % 3
    if way == 0:
        me.drag(me.card_button(card), me.page.locator("[data-testid=discard-pile]"))
    elif way == 1:
        me.tap_card(card, double=True)
    else:
        me.tap_card(card)
        me.page.click("[data-testid=discard-pile]")
    counts.kinds["discard"] += 1
    state = me.wait_settled()
    assert me.last_action_of(seat) == f"discard {card}", (card, way, me.hand(), state["errors"])
