"""The fast arrangement solver against an independent brute-force reference.

The reference knows nothing of the solver's tables or its model of "needed" wilds.  It
checks every candidate meld literally (a set: naturals of one rank; a run: some window
of consecutive positions into which the naturals fit, one per position, the wilds
taking the rest) and tries every way to split the naturals into melds, with every
number of wilds in each meld.  Wilds are interchangeable inside melds, so the wilds
left out are the cheapest ones.  Discards are checked by throwing each card in turn.

Every hand is checked for ``deadwood``, ``arrange`` (the answer and that the
arrangement itself is legal and complete) and, where asked, ``best_discards`` and
``going_out_discards``.  With fixed seeds, over eight variants (one or two decks,
jokers, ace high, wild-only melds): 1,760 random deals of every round and size, 480
more with discards, 192 full round-eleven hands (13 and 14 cards), 240 hands built
from melds (where going out is common), 240 hands heavy in one suit, 1,200 tiny hands
full of wilds and pairs, 40 hands past 14 cards, and 300 single suits against the run
tables; plus a Hypothesis property test.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.cards import DEADWOOD_POINTS, JOKER, RANK_OF, SUIT_OF, three_thirteen_deck
from rummykit.games.three_thirteen.arrange import (
    Arrangement,
    arrange,
    best_discards,
    classify_meld,
    deadwood,
    going_out_discards,
)
from rummykit.games.three_thirteen.arrange_runs import run_values

# ---------------------------------------------------------------------------------------
# The reference


def _wild(card, wild_rank):
    return card == JOKER or RANK_OF[card] == wild_rank


@cache
def literal_meld_ok(naturals, wilds, ace_high, wild_only_melds):
    """Is ``naturals`` (a sorted tuple) plus ``wilds`` wild cards a legal meld?"""
    size = len(naturals) + wilds
    if size < 3:
        return False
    if not naturals:
        return wild_only_melds
    if len({RANK_OF[c] for c in naturals}) == 1:
        return True
    if len({SUIT_OF[c] for c in naturals}) != 1 or size > 13:
        return False
    top = 14 if ace_high else 13
    for start in range(1, top - size + 2):
        window = range(start, start + size)
        places = []
        for card in naturals:
            rank = RANK_OF[card]
            options = [rank] + ([14] if ace_high and rank == 1 else [])
            places.append([p for p in options if p in window])
        for choice in itertools.product(*places):
            if len(set(choice)) == len(choice):
                return True
    return False


def reference_deadwood(cards, wild_rank, ace_high=False, wild_only_melds=False):
    """The least deadwood by trying every split of the naturals into melds."""
    naturals = tuple(sorted(c for c in cards if not _wild(c, wild_rank)))
    wild_points = sorted(DEADWOOD_POINTS[c] for c in cards if _wild(c, wild_rank))
    cheapest = [sum(wild_points[:k]) for k in range(len(wild_points) + 1)]

    @cache
    def best(rest, wilds_left):
        if not rest:
            left_cost = cheapest[wilds_left]
            if wild_only_melds and wilds_left >= 3:
                left_cost = 0
            return left_cost
        first, others = rest[0], rest[1:]
        result = DEADWOOD_POINTS[first] + best(others, wilds_left)
        same_rank = [i for i, c in enumerate(others) if RANK_OF[c] == RANK_OF[first]]
        same_suit = [i for i, c in enumerate(others) if SUIT_OF[c] == SUIT_OF[first]]
        tried = set()
        for pool in (same_rank, same_suit):
            for size in range(len(pool) + 1):
                for chosen in itertools.combinations(pool, size):
                    meld = tuple(sorted((first, *(others[i] for i in chosen))))
                    if meld in tried:
                        continue
                    tried.add(meld)
                    left = list(others)
                    for i in sorted(chosen, reverse=True):
                        del left[i]
                    for wilds in range(wilds_left + 1):
                        if literal_meld_ok(meld, wilds, ace_high, wild_only_melds):
                            result = min(result, best(tuple(left), wilds_left - wilds))
        return result

    return best(naturals, len(wild_points))


def reference_discards(cards, wild_rank, ace_high=False, wild_only_melds=False):
    outcomes = {}
    for card in set(cards):
        rest = list(cards)
        rest.remove(card)
        outcomes[card] = reference_deadwood(rest, wild_rank, ace_high, wild_only_melds)
    least = min(outcomes.values())
    best = tuple(sorted(c for c, v in outcomes.items() if v == least))
    out = tuple(sorted(c for c, v in outcomes.items() if v == 0))
    return least, best, out


def reference_run_values(ranks, ace_high, wilds):
    """The most points runs of one suit meld: every way to split the cards into runs."""
    points = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)
    aces = ranks.count(1)
    others = [r for r in ranks if r != 1]
    best = 0
    for high in range(aces + 1 if ace_high else 1):
        positions = tuple(sorted(others + [1] * (aces - high) + [14] * high))

        @cache
        def most(rest, budget):
            if not rest:
                return 0
            first, tail = rest[0], rest[1:]
            result = most(tail, budget)
            for size in range(len(tail) + 1):
                for chosen in itertools.combinations(range(len(tail)), size):
                    group = [first, *(tail[i] for i in chosen)]
                    if len(set(group)) != len(group) or group[-1] - group[0] >= 13:
                        continue
                    need = max(3, group[-1] - group[0] + 1) - len(group)
                    if need <= budget:
                        left = tuple(q for i, q in enumerate(tail) if i not in chosen)
                        value = sum(points[p] for p in group) + most(left, budget - need)
                        result = max(result, value)
            return result

        best = max(best, most(positions, wilds))
    return best


def test_run_tables_match_the_reference():
    """One suit, one or two decks: the memoised tables against every split into runs."""
    rng = random.Random(8000)
    for _ in range(300):
        decks = rng.choice([1, 2])
        ace_high = rng.random() < 0.5
        ranks = sorted(rng.sample(list(range(1, 14)) * decks, rng.randint(0, 8)))
        key = 0
        for rank in ranks:
            bit = 1 << (rank - 1)
            key |= bit << 13 if key & bit else bit
        values = run_values(key, ace_high)
        for wilds in range(6):
            assert values[wilds] == reference_run_values(ranks, ace_high, wilds), ranks


# ---------------------------------------------------------------------------------------
# Checking one hand


def check_arrangement(result: Arrangement, cards, wild_rank, ace_high, wild_only_melds):
    options = {"wild_rank": wild_rank, "ace_high": ace_high, "wild_only_melds": wild_only_melds}
    used = Counter(result.unmelded)
    for meld in result.melds:
        classify_meld(meld, **options)
        used.update(meld)
        naturals = [c for c in meld if not _wild(c, wild_rank)]
        if len({RANK_OF[c] for c in naturals}) > 1:
            check_run_order(meld, wild_rank, ace_high)
    assert used == Counter(cards)
    assert list(result.unmelded) == sorted(result.unmelded)
    assert result.deadwood == sum(DEADWOOD_POINTS[c] for c in result.unmelded)


def check_run_order(meld, wild_rank, ace_high):
    """The naturals of a run stand at their own places, counted from the first card."""
    positions = []
    for index, card in enumerate(meld):
        if not _wild(card, wild_rank):
            rank = RANK_OF[card]
            if ace_high and rank == 1 and index > 0:
                rank = 14
            positions.append((index, rank))
    offsets = {rank - index for index, rank in positions}
    assert len(offsets) == 1, f"run {meld} is not in order"
    start = offsets.pop()
    assert start >= 1 and start + len(meld) - 1 <= (14 if ace_high else 13)


def check_hand(cards, wild_rank, ace_high, wild_only_melds, *, discards=False):
    options = {"wild_rank": wild_rank, "ace_high": ace_high, "wild_only_melds": wild_only_melds}
    expected = reference_deadwood(cards, wild_rank, ace_high, wild_only_melds)
    assert deadwood(cards, **options) == expected, cards
    result = arrange(cards, **options)
    assert result.deadwood == expected, cards
    check_arrangement(result, cards, wild_rank, ace_high, wild_only_melds)
    if discards and cards:
        least, best, out = reference_discards(cards, wild_rank, ace_high, wild_only_melds)
        assert best_discards(cards, **options) == (least, best), cards
        assert going_out_discards(cards, **options) == out, cards


# ---------------------------------------------------------------------------------------
# Seeded random hands


def deck_for(decks, jokers):
    return three_thirteen_deck(decks=decks, jokers_per_deck=2 if jokers else 0)


VARIANTS = [
    # (decks, jokers, ace_high, wild_only_melds)
    (1, False, False, False),
    (2, False, False, False),
    (1, True, False, False),
    (2, True, False, False),
    (1, False, True, False),
    (2, False, True, False),
    (1, False, False, True),
    (2, True, True, True),
]


def random_hands(seed, count, decks, jokers, *, extra=0):
    """``count`` hands: a round from 1 to 11, a size up to its deal (plus ``extra``)."""
    rng = random.Random(seed)
    deck = deck_for(decks, jokers)
    for _ in range(count):
        round_number = rng.randint(1, 11)
        wild_rank = round_number + 2
        size = rng.randint(0, round_number + 2 + extra)
        yield rng.sample(deck, size), wild_rank


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_hands_match_the_reference(variant):
    decks, jokers, ace_high, wild_only = variant
    for cards, wild_rank in random_hands(1000 + VARIANTS.index(variant), 220, decks, jokers):
        check_hand(cards, wild_rank, ace_high, wild_only)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_discards_match_the_reference(variant):
    decks, jokers, ace_high, wild_only = variant
    for cards, wild_rank in random_hands(
        2000 + VARIANTS.index(variant), 60, decks, jokers, extra=1
    ):
        check_hand(cards, wild_rank, ace_high, wild_only, discards=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_round_eleven_hands(variant):
    """13 and 14 cards with the king wild: the sizes the game plays most slowly."""
    decks, jokers, ace_high, wild_only = variant
    rng = random.Random(3000 + VARIANTS.index(variant))
    deck = deck_for(decks, jokers)
    for index in range(24):
        size = 13 if index % 2 else 14
        cards = rng.sample(deck, size)
        check_hand(cards, 13, ace_high, wild_only, discards=index % 4 == 0)


def meldable_hands(seed, count, decks, jokers):
    """Hands built from melds (plus a few loose cards), where going out is common."""
    rng = random.Random(seed)
    deck = deck_for(decks, jokers)
    for _ in range(count):
        round_number = rng.randint(4, 11)
        wild_rank = round_number + 2
        target = round_number + 3
        cards: list[int] = []
        pool = list(deck)
        while len(cards) < target:
            kind = rng.random()
            if kind < 0.4:
                suit, start = rng.randrange(4), rng.randint(1, 11)
                length = rng.randint(3, 5)
                wanted = [suit * 13 + (r - 1) % 13 for r in range(start, start + length)]
            elif kind < 0.7:
                rank = rng.randrange(13)
                wanted = [s * 13 + rank for s in rng.sample(range(4), 3)]
            else:
                wanted = [rng.choice(pool)]
            for card in wanted:
                if card in pool and len(cards) < target:
                    pool.remove(card)
                    cards.append(card)
        yield cards, wild_rank


@pytest.mark.parametrize("variant", VARIANTS)
def test_meldable_hands_match_the_reference(variant):
    decks, jokers, ace_high, wild_only = variant
    for cards, wild_rank in meldable_hands(4000 + VARIANTS.index(variant), 30, decks, jokers):
        check_hand(cards, wild_rank, ace_high, wild_only, discards=True)


def one_suit_hands(seed, count, decks, jokers):
    """Hands heavy in one suit (long runs, duplicates with two decks, the 13-card cap)."""
    rng = random.Random(seed)
    for _ in range(count):
        wild_rank = rng.randint(3, 13)
        suit = rng.randrange(4)
        cards = rng.sample([suit * 13 + rank for rank in range(13)] * decks, rng.randint(6, 12))
        wild_cards = [s * 13 + wild_rank - 1 for s in range(4)] * decks
        wild_cards += [JOKER] * (2 * decks if jokers else 0)
        cards += rng.sample(wild_cards, rng.randint(0, min(4, 14 - len(cards))))
        yield cards, wild_rank


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_suit_hands_match_the_reference(variant):
    decks, jokers, ace_high, wild_only = variant
    for cards, wild_rank in one_suit_hands(5000 + VARIANTS.index(variant), 30, decks, jokers):
        check_hand(cards, wild_rank, ace_high, wild_only, discards=len(cards) <= 10)


def tiny_hands(seed, count, decks, jokers):
    """Up to six cards from a few ranks and suits, wilds included: every edge at once."""
    rng = random.Random(seed)
    for _ in range(count):
        wild_rank = rng.randint(3, 13)
        ranks = rng.sample(range(1, 14), 3)
        if wild_rank not in ranks:
            ranks.append(wild_rank)
        pool = [suit * 13 + rank - 1 for suit in rng.sample(range(4), 2) for rank in ranks]
        pool = pool * decks + [JOKER] * (2 * decks if jokers else 0)
        yield rng.sample(pool, rng.randint(1, 6)), wild_rank


@pytest.mark.parametrize("variant", VARIANTS)
def test_tiny_hands_match_the_reference(variant):
    decks, jokers, ace_high, wild_only = variant
    for cards, wild_rank in tiny_hands(6000 + VARIANTS.index(variant), 150, decks, jokers):
        check_hand(cards, wild_rank, ace_high, wild_only, discards=True)


def test_hands_larger_than_any_deal():
    """More than 14 cards is never dealt, but the solver stays exact (just slower)."""
    rng = random.Random(7000)
    for index in range(40):
        decks, jokers, ace_high, wild_only = VARIANTS[index % len(VARIANTS)]
        cards = rng.sample(deck_for(decks, jokers), rng.randint(15, 20))
        check_hand(cards, rng.randint(3, 13), ace_high, wild_only, discards=index % 8 == 0)


# ---------------------------------------------------------------------------------------
# Hypothesis


@st.composite
def hands(draw):
    decks = draw(st.sampled_from([1, 2]))
    jokers = draw(st.booleans())
    deck = deck_for(decks, jokers)
    wild_rank = draw(st.integers(3, 13))
    size = draw(st.integers(0, 10))
    indices = draw(
        st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True)
    )
    return [deck[i] for i in indices], wild_rank, draw(st.booleans()), draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_property_matches_the_reference(hand):
    cards, wild_rank, ace_high, wild_only = hand
    check_hand(cards, wild_rank, ace_high, wild_only, discards=True)
