"""Timing of the Burraco meld logic on random hands (a script, not a test).

Prints the mean time of ``candidate_melds`` (fully consumed) on random 11-card and
20-card hands from the 106-card deck, of ``extending_cards`` on the melds of such
hands (first call for a meld, then again from the cache), and of ``arrange`` and
``extend`` on those melds.  Run it with

    PYTHONPATH=src python benchmarks/burraco_melds.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable, Sequence

from rummykit.cards import burraco_deck
from rummykit.games.burraco.melds import Meld, arrange, candidate_melds, extend, extending_cards
from rummykit.games.burraco.melds import extending as extending_module
from rummykit.games.core import MeldError


def time_each(
    calls: Sequence[Callable[[], object]],
    rounds: int = 3,
    before: Callable[[], object] | None = None,
) -> float:
    """The mean time of one call in microseconds (best of ``rounds`` passes)."""
    best = float("inf")
    for _ in range(rounds):
        if before is not None:
            before()
        start = time.perf_counter()
        for call in calls:
            call()
        best = min(best, time.perf_counter() - start)
    return best / len(calls) * 1e6


def consume_candidates(hand: list[int]) -> int:
    return sum(1 for _ in candidate_melds(hand))


def consume_fits(meld: Meld, hand: list[int]) -> int:
    return sum(1 for _ in extending_cards(meld, hand))


def try_extend(meld: Meld, card: int) -> bool:
    try:
        extend(meld, [card])
    except MeldError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per size")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    deck = burraco_deck()
    every_meld: list[tuple[int, ...]] = []

    for size in (11, 20):
        hands = [rng.sample(deck, size) for _ in range(options.hands)]
        found = [list(candidate_melds(hand)) for hand in hands]
        every_meld.extend(cards for cards_list in found for cards in cards_list)
        calls = [functools.partial(consume_candidates, hand) for hand in hands]
        per_hand = time_each(calls)
        average = sum(len(f) for f in found) / len(found)
        print(
            f"candidate_melds, {size:2}-card hands: {per_hand:7.1f} us per hand"
            f" ({average:.1f} melds on average)"
        )
        pairs = [
            functools.partial(consume_fits, arrange(cards), hand)
            for hand, cards_list in zip(hands, found, strict=True)
            for cards in cards_list
        ][: 10 * options.hands]
        # extending_cards asks the cache of fitting_cards; the first figure empties it first.
        cold = time_each(pairs, before=extending_module.fitting_cards.cache_clear)
        warm = time_each(pairs)
        print(
            f"extending_cards, {size:2}-card hands: {cold:7.1f} us per meld seen first,"
            f" {warm:.1f} us cached"
        )

    arranging = time_each([functools.partial(arrange, cards) for cards in every_meld])
    print(f"arrange:                         {arranging:7.1f} us per meld")

    extensions = [(arrange(cards), card) for cards in every_meld for card in rng.sample(deck, 4)]
    legal = sum(try_extend(meld, card) for meld, card in extensions)
    extending = time_each([functools.partial(try_extend, m, c) for m, c in extensions])
    fitting = [(meld, card) for meld, card in extensions if try_extend(meld, card)]
    extending_legal = time_each([functools.partial(try_extend, m, c) for m, c in fitting])
    print(
        f"extend, one random card:        {extending:7.1f} us per call"
        f" ({legal / len(extensions):.0%} fit); {extending_legal:.1f} us when it fits"
    )


if __name__ == "__main__":
    main()
