"""Burraco melds against a brute-force reference and Hypothesis properties.

The reference below knows nothing of the fast code: it tries every way to lay a multiset
on the places of a run (``1..14``, both ends being the ace) or as a set, and keeps the
arrangement the rule book gives (fewest wilds, then the wild as high as it can stand,
then the lowest start).  Extending is the rule book's table procedure: the natural
cards already laid keep their places (a natural 2 at the bottom may turn wild instead)
and a wild that fills a gap stays there until its natural card replaces it.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import JOKER, RANK_OF, SUIT_OF, format_cards, parse_cards
from rummykit.games.burraco.melds import (
    Meld,
    arrange,
    candidate_melds,
    extend,
    extending_cards,
)
from rummykit.games.core import MeldError

Layout = tuple[int, tuple[int, ...], int | None, int | None, str]  # key parts + cards


def natural_at(suit: int, place: int) -> int:
    return suit * 13 + (0 if place == 14 else place - 1)


def wild_pinned(meld: Meld) -> bool:
    """Whether a run's wild stands inside it: there it stays until replaced, even where
    its cards could now lie with fewer wilds (else a meld holds the fewest they allow)."""
    return meld.wild_index is not None and 0 < meld.wild_index < meld.size - 1


def is_wild_face(card: int) -> bool:
    return card == JOKER or bool(RANK_OF[card] == 2)


def lay_run(
    suit: int, lo: int, cards: tuple[int, ...], laid: list[int], wilds: list[int]
) -> Iterator[Meld]:
    """Every way to lay the cards left in ``cards`` from place ``lo + len(laid)`` on."""
    index = len(laid)
    if not cards:
        ace_places = [i for i in (0, index - 1) if lo + i in (1, 14) and i not in wilds]
        if len(ace_places) < 2:  # never two natural aces
            yield Meld("run", tuple(laid), wilds[0] if wilds else None, suit, lo)
        return
    natural = natural_at(suit, lo + index)
    for card in sorted(set(cards)):
        if card == natural:
            new_wilds = wilds
        elif is_wild_face(card) and not wilds:
            new_wilds = [index]
        else:
            continue
        rest = list(cards)
        rest.remove(card)
        yield from lay_run(suit, lo, tuple(rest), [*laid, card], new_wilds)


def reference_runs(cards: tuple[int, ...]) -> Iterator[Meld]:
    """Every legal way to lay ``cards`` as a run (by brute force over places)."""
    size = len(cards)
    if size < 3:
        return
    for suit in range(4):
        if any(not is_wild_face(c) and SUIT_OF[c] != suit for c in cards):
            continue  # a shortcut only: such a card could stand at no place
        for lo in range(1, 15 - size + 1):
            yield from lay_run(suit, lo, cards, [], [])


def reference_sets(cards: tuple[int, ...]) -> Iterator[Meld]:
    if not 3 <= len(cards) <= 9:
        return
    for rank in (1, *range(3, 14)):
        naturals = sorted(c for c in cards if c != JOKER and RANK_OF[c] == rank)
        wilds = [c for c in cards if is_wild_face(c)]
        fits = len(naturals) + len(wilds) == len(cards) and len(wilds) <= 1
        if fits and 1 <= len(naturals) <= 8:
            yield Meld(
                "set",
                (*naturals, *wilds),
                len(naturals) if wilds else None,
                None,
                rank,
            )


def table_key(meld: Meld) -> tuple[int, int, int]:
    if meld.wild_index is None:
        return (0, 0, meld.rank)
    return (1, -(meld.rank + meld.wild_index), meld.rank)


def reference_arrange(cards: tuple[int, ...]) -> Meld | None:
    sets = list(reference_sets(cards))
    runs = list(reference_runs(cards))
    assert not (sets and runs), "no multiset is both a set and a run"
    options = sets or runs
    if not options:
        return None
    return min(options, key=table_key)


def reference_extend_one(meld: Meld, card: int) -> Meld | None:
    """The table procedure for one card (RULES.md 1.4), by brute force.

    Of every arrangement of the cards with ``card`` added, keep those in which each
    natural card already laid stays at its place (a natural 2 at the bottom may turn
    wild instead) and a wild filling a gap stays unless ``card`` is the natural card it
    stands for; then take the one the rules prefer.
    """
    union = (*meld.cards, card)
    if meld.kind == "set":
        options = list(reference_sets(union))
    else:
        suit = meld.suit or 0
        lo = meld.rank
        index = meld.wild_index
        kept = {
            lo + offset: c
            for offset, c in enumerate(meld.cards)
            if offset != index and not (lo + offset == 2 and offset == 0)
        }
        pinned = None
        in_gap = index is not None and 0 < index < meld.size - 1
        if index is not None and in_gap and card != natural_at(suit, lo + index):
            pinned = (lo + index, meld.cards[index])

        def allowed(new: Meld) -> bool:
            at = {new.rank + i: c for i, c in enumerate(new.cards) if i != new.wild_index}
            if any(at.get(place) != c for place, c in kept.items()):
                return False
            if pinned is None:
                return True
            place, wild = pinned
            return new.wild_index == place - new.rank and new.cards[new.wild_index] == wild

        options = [m for m in reference_runs(union) if m.suit == suit and allowed(m)]
    if not options:
        return None
    return min(options, key=table_key)


# ---------------------------------------------------------------------------------------
# Strategies: cards from a few suits and the wilds, so that melds are common

WILDS = (JOKER, 1, 14, 27, 40)


@st.composite
def focused_cards(draw: st.DrawFn, min_size: int = 3, max_size: int = 8) -> list[int]:
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    pool = [s * 13 + r for s in suits for r in range(13)] + list(WILDS)
    return draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size))


@st.composite
def legal_run_cards(draw: st.DrawFn) -> list[int]:
    """The cards of a run built place by place, possibly with a wild."""
    suit = draw(st.integers(0, 3))
    size = draw(st.integers(3, 14))
    lo = draw(st.integers(1, 15 - size))
    cards = [natural_at(suit, p) for p in range(lo, lo + size)]
    if size == 14:  # A..K and a wild for the high ace
        cards[-1] = draw(st.sampled_from(WILDS))
    elif draw(st.booleans()):
        index = draw(st.integers(0, size - 1))
        cards[index] = draw(st.sampled_from(WILDS))
    return cards


@st.composite
def legal_set_cards(draw: st.DrawFn) -> list[int]:
    rank = draw(st.sampled_from([1, *range(3, 14)]))
    naturals = draw(
        st.lists(st.sampled_from([s * 13 + rank - 1 for s in range(4)]), min_size=2, max_size=8)
    )
    wild = draw(st.sampled_from([None, *WILDS]))
    if wild is None:
        return naturals if len(naturals) >= 3 else [*naturals, naturals[0]]
    return [*naturals, wild]


def shuffled(cards: list[int], seed: int) -> list[int]:
    copy = list(cards)
    random.Random(seed).shuffle(copy)
    return copy


# ---------------------------------------------------------------------------------------
# arrange


@settings(max_examples=400)
@given(cards=focused_cards())
def test_arrange_agrees_with_reference(cards: list[int]) -> None:
    expected = reference_arrange(tuple(cards))
    try:
        got = arrange(cards)
    except MeldError:
        assert expected is None, f"{format_cards(cards)} is {expected}"
        return
    assert got == expected


@settings(max_examples=300)
@given(cards=st.one_of(legal_run_cards(), legal_set_cards()), seed=st.integers(0, 2**32))
def test_arrange_of_shuffled_meld_is_the_same(cards: list[int], seed: int) -> None:
    meld = arrange(cards)
    assert arrange(shuffled(cards, seed)) == meld
    assert arrange(meld.cards) == meld
    assert Counter(meld.cards) == Counter(cards)
    assert Meld.from_json(meld.to_json()) == meld


@settings(max_examples=300)
@given(cards=legal_run_cards())
def test_long_runs_agree_with_reference(cards: list[int]) -> None:
    assert arrange(cards) == reference_arrange(tuple(cards))


# ---------------------------------------------------------------------------------------
# extend


def extends_in_some_order(meld: Meld, added: list[int]) -> set[Meld]:
    results: set[Meld] = set()
    for order in set(itertools.permutations(added)):
        current: Meld | None = meld
        for card in order:
            assert current is not None
            try:
                current = extend(current, [card])
            except MeldError:
                current = None
                break
        if current is not None:
            results.add(current)
    return results


@settings(max_examples=400)
@given(
    meld_cards=st.one_of(legal_run_cards(), legal_set_cards(), focused_cards()),
    card=st.integers(0, 52),
)
def test_extend_one_agrees_with_reference(meld_cards: list[int], card: int) -> None:
    try:
        meld = arrange(meld_cards)
    except MeldError:
        return
    expected = reference_extend_one(meld, card)
    try:
        got = extend(meld, [card])
    except MeldError:
        assert expected is None, f"{meld} + {format_cards([card])} -> {expected}"
        return
    assert got == expected
    assert Meld.from_json(got.to_json()) == got
    assert arrange(got.cards).clean == got.clean or wild_pinned(got)


@settings(max_examples=300)
@given(
    meld_cards=st.one_of(legal_run_cards(), legal_set_cards()),
    added=st.lists(st.integers(0, 52), min_size=2, max_size=3),
    near=st.booleans(),
)
def test_extend_several_is_some_order_of_single_extends(
    meld_cards: list[int], added: list[int], near: bool
) -> None:
    meld = arrange(meld_cards)
    if near and meld.suit is not None:
        # Move the added cards into the run's suit so that they often fit.
        added = [c if is_wild_face(c) else meld.suit * 13 + RANK_OF[c] - 1 for c in added]
    orders = extends_in_some_order(meld, added)
    try:
        got = extend(meld, added)
    except MeldError:
        assert not orders
        return
    assert got in orders


@settings(max_examples=300)
@given(meld_cards=st.one_of(legal_run_cards(), legal_set_cards(), focused_cards()))
def test_extending_cards_agrees_with_extend(meld_cards: list[int]) -> None:
    try:
        meld = arrange(meld_cards)
    except MeldError:
        return
    every_face = list(range(53))
    expected = []
    for card in every_face:
        try:
            extend(meld, [card])
        except MeldError:
            continue
        expected.append(card)
    assert list(extending_cards(meld, every_face + every_face)) == expected


def test_table_walks_agree_with_reference() -> None:
    """Grow melds card by card (wilds move, 2s turn wild and come back) and compare every
    possible next card with the reference at each step."""
    rng = random.Random(20240607)
    checked = 0
    while checked < 400:
        hand = rng.sample(range(53), 12)
        for cards in candidate_melds(hand):
            meld = arrange(cards)
            for _ in range(rng.randint(0, 6)):
                fits = set(extending_cards(meld, range(53)))
                for card in range(53):
                    expected = reference_extend_one(meld, card)
                    assert (card in fits) == (expected is not None), f"{meld} + {card}"
                    if expected is not None:
                        assert extend(meld, [card]) == expected
                checked += 1
                if not fits:
                    break
                meld = extend(meld, [rng.choice(sorted(fits))])


def test_every_run_the_table_reaches_reads_back_from_its_json() -> None:
    """Every run of one suit grown card by card from every three-card start (two decks:
    each card at most twice; wilds the suit's own 2, another 2 and a joker): its layout
    is read back from JSON as it is, and it holds the fewest wilds its cards allow unless
    its wild is pinned inside it."""
    pool = parse_cards("Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd 2c Jk")
    starts = set()
    for three in itertools.combinations_with_replacement(pool, 3):
        try:
            starts.add(arrange(three))
        except MeldError:
            continue
    seen, frontier = set(starts), list(starts)
    while frontier:
        grown = []
        for meld in frontier:
            for card in pool:
                if meld.cards.count(card) == 2:
                    continue
                try:
                    bigger = extend(meld, [card])
                except MeldError:
                    continue
                if bigger not in seen:
                    seen.add(bigger)
                    grown.append(bigger)
        frontier = grown
    for meld in seen:
        assert Meld.from_json(meld.to_json()) == meld, meld
        assert arrange(meld.cards).clean == meld.clean or wild_pinned(meld), meld
    assert len(seen) > 1000  # the walk reached runs of every length up to 14
    assert max(meld.size for meld in seen) == 14


# ---------------------------------------------------------------------------------------
# candidate_melds against every sub-multiset


def sub_multisets(hand: list[int]) -> Iterator[tuple[int, ...]]:
    counts = sorted(Counter(hand).items())
    for copies in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen: list[int] = []
        for (card, _), k in zip(counts, copies, strict=True):
            chosen.extend([card] * k)
        if len(chosen) >= 3:
            yield tuple(chosen)


def check_candidates(hand: list[int]) -> int:
    got = list(candidate_melds(hand))
    keys = [tuple(sorted(m)) for m in got]
    assert len(keys) == len(set(keys)), f"a meld listed twice for {format_cards(hand)}"
    expected = {}
    for multiset in sub_multisets(hand):
        meld = reference_arrange(multiset)
        if meld is not None:
            expected[multiset] = meld.cards
    assert set(keys) == set(expected), (
        f"hand {format_cards(sorted(hand))}: missing "
        f"{[format_cards(expected[k]) for k in set(expected) - set(keys)]}, extra "
        f"{[format_cards(m) for m in got if tuple(sorted(m)) not in expected]}"
    )
    for cards, key in zip(got, keys, strict=True):
        assert cards == expected[key]
    return len(got)


def random_hand(rng: random.Random, size: int, suits: int) -> list[int]:
    chosen = rng.sample(range(4), suits)
    deck = [s * 13 + r for s in chosen for r in range(13)] * 2 + list(WILDS)
    return rng.sample(deck, size)


def test_candidates_against_brute_force_focused_hands() -> None:
    rng = random.Random(7)
    total = 0
    for _ in range(400):
        total += check_candidates(random_hand(rng, rng.randint(3, 10), rng.randint(1, 2)))
    assert total > 1000  # the hands really do hold melds


def test_candidates_against_brute_force_deck_hands() -> None:
    rng = random.Random(11)
    deck = list(range(52)) * 2 + [JOKER, JOKER]
    for _ in range(300):
        check_candidates(rng.sample(deck, rng.randint(3, 11)))


def test_candidates_edge_hands() -> None:
    for text in (
        # long stretches of one suit with aces, twos and jokers
        [*range(7), *range(9, 13), 1, JOKER],
        [13, *range(19, 26), 14, JOKER, JOKER],
        [*range(2, 10), 0, 40, 27],
        [0, 1, 2, 1, 14, JOKER],
        [0, 0, 13, 13, 26, 1, 14],
        [10, 11, 12, 0, 1, 2, JOKER],
        # more copies than two decks hold: the general path
        [30, 30, 30, 4, 4, 17, JOKER],
        [27, 27, 27, 28, 29, 40],
    ):
        check_candidates(text)


def test_every_candidate_passes_arrange() -> None:
    rng = random.Random(3)
    deck = list(range(52)) * 2 + [JOKER, JOKER]
    for _ in range(200):
        hand = rng.sample(deck, 20)
        for cards in candidate_melds(hand):
            assert arrange(cards).cards == cards
            assert not Counter(cards) - Counter(hand)


def test_suit_of_runs_is_their_cards() -> None:
    meld = arrange([13 + 4, 13 + 5, 13 + 6])
    assert meld.suit == SUIT_OF[13 + 4]
