"""Timings of the Three-Thirteen arrangement solver (prints figures; not a test).

Run with ``python benchmarks/three_thirteen_arrange.py`` (the ``src`` folder is put on
the path if the package is not installed).  Every timed hand is a distinct random hand
drawn with a fixed seed; each call is timed alone with ``time.perf_counter_ns``.  The
per-suit run tables fill lazily, so each figure is taken after a warm-up on *other*
hands of the same kind (a first "cold" pass is printed too).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rummykit.cards import Card, three_thirteen_deck
from rummykit.games.three_thirteen import arrange as solver

HANDS = 3000


def import_time_ms() -> float:
    """Milliseconds to import the solver (with the game package) in a new interpreter."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    code = (
        f"import sys, time; sys.path.insert(0, {src!r}); start = time.perf_counter(); "
        "import rummykit.games.three_thirteen.arrange; "
        "print((time.perf_counter() - start) * 1000)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return float(result.stdout)


def distinct_hands(seed: int, count: int, size: int, decks: int) -> list[list[Card]]:
    rng = random.Random(seed)
    deck = three_thirteen_deck(decks=decks)
    seen: set[tuple[Card, ...]] = set()
    hands: list[list[Card]] = []
    while len(hands) < count:
        hand = rng.sample(deck, size)
        key = tuple(sorted(hand))
        if key not in seen:
            seen.add(key)
            hands.append(hand)
    return hands


def time_calls(call: Callable[[list[Card]], object], hands: list[list[Card]]) -> list[int]:
    timings = []
    clock = time.perf_counter_ns
    for hand in hands:
        start = clock()
        call(hand)
        timings.append(clock() - start)
    return timings


def report(name: str, timings: list[int]) -> None:
    median = statistics.median(timings) / 1000
    mean = statistics.fmean(timings) / 1000
    worst = max(timings) / 1000
    print(f"{name:<52} median {median:8.1f} us   mean {mean:8.1f} us   max {worst:9.1f} us")


def bench(
    name: str,
    call: Callable[[list[Card]], object],
    *,
    seed: int,
    size: int,
    decks: int,
    cold: bool = False,
) -> None:
    warm_up = distinct_hands(seed, HANDS, size, decks)
    timed = distinct_hands(seed + 1, HANDS, size, decks)
    overlap = {tuple(sorted(h)) for h in warm_up} & {tuple(sorted(h)) for h in timed}
    timed = [h for h in timed if tuple(sorted(h)) not in overlap]
    first = time_calls(call, warm_up)
    if cold:
        report(name + " (cold tables)", first)
    report(name, time_calls(call, timed))


def main() -> None:
    print(f"import of the solver in a fresh interpreter: {import_time_ms():.1f} ms")
    print(f"{HANDS} distinct hands per figure, one call timed at a time\n")
    for decks in (1, 2):
        for round_number, wild_rank in ((11, 13), (6, 8)):
            size = round_number + 2
            label = f"{size} cards, {decks} deck{'s' if decks == 2 else ''}, wild {wild_rank}"

            def dead(hand: list[Card], wild_rank: int = wild_rank) -> int:
                return solver.deadwood(hand, wild_rank=wild_rank)

            def arr(hand: list[Card], wild_rank: int = wild_rank) -> object:
                return solver.arrange(hand, wild_rank=wild_rank)

            def best(hand: list[Card], wild_rank: int = wild_rank) -> object:
                return solver.best_discards(hand, wild_rank=wild_rank)

            def out(hand: list[Card], wild_rank: int = wild_rank) -> object:
                return solver.going_out_discards(hand, wild_rank=wild_rank)

            seed = 100 * decks + round_number
            bench(f"deadwood, {label}", dead, seed=seed, size=size, decks=decks, cold=True)
            bench(f"arrange, {label}", arr, seed=seed + 10, size=size, decks=decks)
            label = f"{size + 1} cards, {decks} deck{'s' if decks == 2 else ''}, wild {wild_rank}"
            bench(f"best_discards, {label}", best, seed=seed + 20, size=size + 1, decks=decks)
            bench(f"going_out_discards, {label}", out, seed=seed + 30, size=size + 1, decks=decks)
        print()


if __name__ == "__main__":
    main()
