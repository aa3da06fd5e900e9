"""The dead-end rule (RULES.md 1.6) against a brute-force search of the rest of the turn.

A meld or an addition is refused with ``no_way_to_end_turn`` exactly when the player
would then have no legal move at all.  The reference below knows nothing of
``legality.ending_refusal``: it forces the move on a copy of the table and searches
every way to go on (every discard the rule book allows, every meld and every addition
of any cards, one after another) for one that ends the turn or brings a pozzetto.
Positions are small endgames drawn by Hypothesis, where the rule bites: a few cards
left, melds on the table, the one-card pile rule, pozzetti taken or gone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hypothesis import given, note, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER, RANK_OF, Card, format_card, format_cards, parse_cards
from rummykit.games.burraco import Extend, Meld, Rules, State
from rummykit.games.burraco.melds import Meld as TableMeld
from rummykit.games.burraco.melds import arrange, extend
from rummykit.games.burraco.table import Table
from rummykit.games.core import MeldError

from .support import table_of

# Cards that make melds and additions likely: hearts 3..9, the fives, wilds, strays.
CARDS = parse_cards("3h 4h 5h 6h 7h 8h 9h 5c 5d 5s 2c 2h Jk Kc Qs")
OWN_MELDS = ("6h 7h 8h", "8h 9h Th", "Jh Qh Kh", "5c 5d 5s", "3d 4d 5d 6d 7d 8d 9d", "Ks Kd Kh")
RULES = Rules()


def _wild(card: Card) -> bool:
    return card == JOKER or RANK_OF[card] == 2


def _may_discard(table: Table, card: Card) -> bool:
    """RULES.md 1.2 and 1.6, read afresh: the card taken alone stays unless its twin is
    held, and a closing discard needs a burraco and may not be a wild."""
    player = table.player
    hand = table.hands[player]
    if table.restricted and card == table.restricted_card and hand.count(card) <= 1:
        return False
    if len(hand) == 1 and not table.can_refill(player):
        return table.has_burraco[player] and not _wild(card)
    return True


def _sub_multisets(hand: list[Card], least: int) -> Iterator[tuple[Card, ...]]:
    seen: set[tuple[Card, ...]] = set()
    for size in range(least, len(hand) + 1):
        for chosen in itertools.combinations(sorted(hand), size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _moves(table: Table) -> Iterator[tuple[str, int | None, tuple[Card, ...], TableMeld]]:
    """Every meld and addition the cards allow (no dead-end test), with its result."""
    player = table.player
    hand = table.hands[player]
    for cards in _sub_multisets(hand, 1):
        for meld_id, owner in enumerate(table.owners):
            if owner != player:
                continue
            try:
                extended = extend(table.melds[meld_id], cards)
            except MeldError:
                continue
            yield "extend", meld_id, cards, extended
        if len(cards) >= 3:
            try:
                meld = arrange(cards)
            except MeldError:
                continue
            if meld.kind == "set" and table.set_ranks[player] >> meld.rank & 1:
                continue
            yield "meld", None, cards, meld


def _forced(
    table: Table, kind: str, meld_id: int | None, cards: tuple[Card, ...], meld: TableMeld
) -> Table:
    after = table.clone()
    if kind == "meld":
        after.add_meld(meld)
    else:
        assert meld_id is not None
        after.replace_meld(meld_id, cards, meld)
    return after


def has_a_move(table: Table) -> bool:
    """Does the player to move (in the play phase) have any legal move at all?"""
    player = table.player
    hand = table.hands[player]
    if not hand:
        return table.can_refill(player)  # the pozzetto comes at once
    if any(_may_discard(table, card) for card in set(hand)):
        return True
    return any(has_a_move(_forced(table, *move)) for move in _moves(table))


@st.composite
def endgames(draw: st.DrawFn) -> Table:
    own = draw(st.lists(st.sampled_from(OWN_MELDS), max_size=3, unique=True))
    hand = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=5))
    taken_alone = draw(st.booleans())
    pozzetti = draw(st.sampled_from([(True, True), (False, True), (False, False)]))
    took = (pozzetti[0] is False and draw(st.booleans()), False)
    laid = [card for text in own for card in parse_cards(text)]
    for card in set(hand):  # at most two copies of a card in the game
        while hand.count(card) + laid.count(card) > 2:
            hand.remove(card)
    if not hand:
        hand = list(parse_cards("Qs"))
    pile = hand.pop() if taken_alone else None
    table = table_of(
        hands=[format_cards(hand), "Ad Ad"],
        melds=[(0, text) for text in own] + [(1, "Tc Jc Qc")],
        pile=format_card(pile) if pile is not None else "Ac",
        phase="draw",
        pozzetti=pozzetti,
        took=took,
    )
    if taken_alone:
        table.take_pile()  # the one-card pile rule now holds
    table.phase = "play"
    return table


def _describe(table: Table) -> str:
    pairs = zip(table.owners, table.melds, strict=True)
    melds = ", ".join(f"{owner}: {meld.describe()}" for owner, meld in pairs)
    restricted = format_card(table.restricted_card) if table.restricted_card is not None else "-"
    return (
        f"hand {format_cards(table.hands[0])}; melds {melds}; taken alone {restricted};"
        f" can refill {table.can_refill(0)}; burraco {table.has_burraco[0]}"
    )


def _action(kind: str, meld_id: int | None, cards: tuple[Card, ...]) -> Meld | Extend:
    if kind == "meld":
        return Meld(cards)
    assert meld_id is not None
    return Extend(meld_id, cards)


def _state(table: Table) -> State:
    return State.from_parts(
        rules=RULES, seed=1, table=table.clone(), totals=(0, 0), hand_results=()
    )


@settings(max_examples=400)
@given(endgames())
def test_a_move_is_refused_as_a_dead_end_exactly_when_nothing_could_follow(table: Table) -> None:
    note(_describe(table))
    state = _state(table)
    for kind, meld_id, cards, meld in _moves(table):
        refusal = state.check(_action(kind, meld_id, cards))
        after = _forced(table, kind, meld_id, cards, meld)
        if refusal is not None:
            assert refusal.code == "no_way_to_end_turn", refusal
            assert not has_a_move(after), (kind, meld_id, cards, refusal)
        else:
            assert has_a_move(after), (kind, meld_id, cards)
    # Every reachable position has a legal action; a drawn position with none (say a
    # lone wild, no pozzetto, no burraco) is one the rules never let a player reach.
    listed = list(state.legal_actions())
    assert bool(listed) == has_a_move(table)
    assert all(state.check(action) is None for action in listed)


def test_the_endgames_reach_every_kind_of_dead_end() -> None:
    """The positions above do meet the rule: each refusal reason, and the one-card pile
    rule's card rescued by an addition, occur among a fixed set of examples."""
    reasons: set[str] = set()
    rescued = False

    @settings(max_examples=600, derandomize=True, database=None)
    @given(endgames())
    def collect(table: Table) -> None:
        nonlocal rescued
        state = _state(table)
        for kind, meld_id, cards, _ in _moves(table):
            refusal = state.check(_action(kind, meld_id, cards))
            if refusal is not None:
                reasons.add(str(refusal.params["reason"]))
            elif (
                len(table.hands[0]) - len(cards) == 1
                and table.restricted
                and table.restricted_card not in cards
                and table.hands[0].count(table.restricted_card) == 1  # type: ignore[arg-type]
            ):
                rescued = True

    collect()
    assert reasons == {"empty_hand", "restricted_left", "wild_left", "no_burraco"}
    assert rescued
