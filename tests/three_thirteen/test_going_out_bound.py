"""The going-out answers with their quick bound (``arrange_bound``) against plain ones.

The reference throws each distinct card in turn and asks the exact solver (itself
checked against a brute force in ``test_arrange_crosscheck``) whether the rest leaves
no deadwood.  Hands of 3 to 16 cards, one and two decks, with and without jokers, every
wild rank from 1 to 13, both ace rules and both wild-only rules: random deals, hands
built from melds (where going out is common and the bound is close), and hands a meld
short.  The bound is also checked on its own: it may never turn away a hand that can
go out, and its run shares match a brute force over every run.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER, RANK_OF, three_thirteen_deck
from rummykit.games.three_thirteen import arrange_bound
from rummykit.games.three_thirteen.arrange import (
    deadwood,
    going_out_discards,
    going_out_discards_unchecked,
)
from rummykit.games.three_thirteen.arrange_bound import UNIT, may_go_out, run_shares

OPTIONS = list(itertools.product([1, 2], [False, True], [False, True], [False, True]))
"""(decks, jokers, ace_high, wild_only_melds)"""


def reference_going_out(cards, wild_rank, ace_high, wild_only_melds):
    options = {"wild_rank": wild_rank, "ace_high": ace_high, "wild_only_melds": wild_only_melds}
    out = []
    for card in sorted(set(cards)):
        rest = list(cards)
        rest.remove(card)
        if deadwood(rest, **options) == 0:
            out.append(card)
    return tuple(out)


def check(cards, wild_rank, ace_high, wild_only_melds):
    expected = reference_going_out(cards, wild_rank, ace_high, wild_only_melds)
    options = {"wild_rank": wild_rank, "ace_high": ace_high, "wild_only_melds": wild_only_melds}
    assert going_out_discards(cards, **options) == expected, (cards, wild_rank)
    hand = list(cards)
    assert going_out_discards_unchecked(hand, wild_rank, ace_high, wild_only_melds) == expected, (
        cards,
        wild_rank,
    )
    assert hand == list(cards)
    if expected:
        assert may_go_out(cards, wild_rank, ace_high), (cards, wild_rank)
    return expected


def deck_for(decks, jokers):
    return three_thirteen_deck(decks=decks, jokers_per_deck=2 if jokers else 0)


def meld_built(rng, deck, wild_rank, size):
    """About ``size`` cards from runs, sets and wilds, plus a loose card or two."""
    pool = list(deck)
    cards: list[int] = []
    wild_cards = [c for c in pool if c == JOKER or RANK_OF[c] == wild_rank]
    while len(cards) < size:
        kind = rng.random()
        if kind < 0.4:
            suit, start = rng.randrange(4), rng.randint(1, 12)
            wanted = [suit * 13 + (r - 1) % 13 for r in range(start, start + rng.randint(2, 5))]
        elif kind < 0.65:
            rank = rng.randrange(13)
            wanted = [s * 13 + rank for s in rng.sample(range(4), rng.randint(2, 3))]
        elif kind < 0.85 and wild_cards:
            wanted = [rng.choice(wild_cards)]
        else:
            wanted = [rng.choice(pool)]
        for card in wanted:
            if card in pool and len(cards) < size:
                pool.remove(card)
                cards.append(card)
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize("options", OPTIONS)
def test_random_deals_match_the_reference(options):
    decks, jokers, ace_high, wild_only = options
    rng = random.Random(9100 + OPTIONS.index(options))
    deck = deck_for(decks, jokers)
    for _ in range(250):
        cards = rng.sample(deck, rng.randint(3, 16))
        check(cards, rng.randint(1, 13), ace_high, wild_only)


@pytest.mark.parametrize("options", OPTIONS)
def test_meld_built_hands_match_the_reference(options):
    decks, jokers, ace_high, wild_only = options
    rng = random.Random(9200 + OPTIONS.index(options))
    deck = deck_for(decks, jokers)
    found = 0
    for _ in range(250):
        wild_rank = rng.randint(1, 13)
        cards = meld_built(rng, deck, wild_rank, rng.randint(3, 16))
        found += bool(check(cards, wild_rank, ace_high, wild_only))
    assert found > 25  # the hands do go out often enough to test the bound's edge


def test_round_sized_hands_one_card_from_going_out():
    """Hands of a round's size after drawing, a meld built then one card swapped."""
    rng = random.Random(9300)
    for index in range(600):
        decks, jokers, ace_high, wild_only = OPTIONS[index % len(OPTIONS)]
        deck = deck_for(decks, jokers)
        round_number = rng.randint(1, 11)
        wild_rank = round_number + 2
        cards = meld_built(rng, deck, wild_rank, round_number + 3)
        rest = list(deck)
        for card in cards:
            rest.remove(card)
        cards[rng.randrange(len(cards))] = rng.choice(rest)
        check(cards, wild_rank, ace_high, wild_only)


def test_a_card_held_three_times_is_still_refused():
    with pytest.raises(ValueError, match="at most two decks"):
        going_out_discards([5, 5, 5, 20, 33], wild_rank=3)
    with pytest.raises(ValueError, match="at most two decks"):
        going_out_discards_unchecked([5, 20, 5, 33, 5, 8], 3, False, False)
    # Wild cards are not counted (the arrangement functions accept them too).
    assert going_out_discards([2, 2, 2, 20], wild_rank=3) == going_out_discards(
        [2, 2, 2, 20], wild_rank=3
    )


def test_the_bound_survives_its_tables_starting_afresh(monkeypatch):
    rng = random.Random(9400)
    deck = deck_for(2, True)
    hands = [(rng.sample(deck, 14), rng.randint(1, 13), rng.random() < 0.5) for _ in range(300)]
    before = [may_go_out(cards, wild, high) for cards, wild, high in hands]
    monkeypatch.setattr(arrange_bound, "_TABLE_LIMIT", 3)
    arrange_bound.forget()
    assert [may_go_out(cards, wild, high) for cards, wild, high in hands] == before
    assert max(map(len, (*arrange_bound._tables, *arrange_bound._quick_tables))) <= 8
    assert len(arrange_bound._set_masks) <= 4
    assert len(arrange_bound._run_shares) <= 4
    assert len(arrange_bound._suit_cards_cache) <= 4


def brute_force_run_shares(ranks, wilds, ace_high):
    """The least need per natural over every run of the suit holding it (any subset)."""
    held = [rank for rank in range(1, 14) if ranks >> (rank - 1) & 1]
    best = {rank: Fraction(2) for rank in held}
    for size in range(2, len(held) + 1):
        for group in itertools.combinations(held, size):
            placings = [group]
            if ace_high and group[0] == 1:
                placings.append((*group[1:], 14))
            for positions in placings:
                span = max(positions) - min(positions) + 1
                need = max(3, span) - size
                if span <= 13 and need <= wilds:
                    for rank in group:
                        best[rank] = min(best[rank], Fraction(need, size))
    return best


def test_run_shares_match_a_brute_force():
    rng = random.Random(9500)
    for _ in range(400):
        ranks = sum(1 << (rank - 1) for rank in rng.sample(range(1, 14), rng.randint(1, 9)))
        wilds = rng.randint(0, 13)
        ace_high = rng.random() < 0.5
        shares = run_shares(ranks, wilds, ace_high)
        for rank, share in brute_force_run_shares(ranks, wilds, ace_high).items():
            assert Fraction(shares[rank], UNIT) == share, (bin(ranks), wilds, ace_high, rank)


@st.composite
def hands(draw):
    decks, jokers, ace_high, wild_only = draw(st.sampled_from(OPTIONS))
    deck = deck_for(decks, jokers)
    wild_rank = draw(st.integers(1, 13))
    size = draw(st.integers(3, 16))
    if draw(st.booleans()):
        rng = random.Random(draw(st.integers(0, 2**32)))
        cards = meld_built(rng, deck, wild_rank, size)
    else:
        indices = draw(
            st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True)
        )
        cards = [deck[i] for i in indices]
    return cards, wild_rank, ace_high, wild_only


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_property_matches_the_reference(hand):
    check(*hand)
