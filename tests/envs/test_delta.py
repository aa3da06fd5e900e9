"""Counts moved slot by slot equal counts made from scratch, whatever the two lists."""

from __future__ import annotations

import random

import numpy as np

from rummykit.envs.delta import cells_of, follow_counts, move_counts


def changed(rng: random.Random, cards: list[int]) -> list[int]:
    """``cards`` after a change like a move's: cards put at the end, one or several
    taken out anywhere, or something else altogether."""
    kind = rng.randrange(5)
    new = list(cards)
    if kind == 0:
        new += [rng.randrange(8) for _ in range(rng.randrange(1, 4))]
    elif kind == 1 and new:
        new.remove(rng.choice(new))
    elif kind == 2:
        for _ in range(rng.randrange(1, 4)):
            if new:
                new.pop(rng.randrange(len(new)))
    elif kind == 3:
        new = [rng.randrange(8) for _ in range(rng.randrange(6))]
    else:
        rng.shuffle(new)
    return new


def test_moved_and_followed_counts_equal_fresh_counts() -> None:
    rng = random.Random(8)
    moved = np.zeros(10, dtype=np.float32)
    followed = np.zeros(10, dtype=np.float32)
    old: list[int] | tuple[int, ...] = []
    kept: list[int] = []
    for _ in range(5000):
        new: list[int] | tuple[int, ...] = changed(rng, list(old))
        if rng.random() < 0.2:
            new = tuple(new)
        move_counts(cells_of(moved), 2, old, new)
        follow_counts(cells_of(followed), 2, kept, new)
        fresh = np.bincount(np.array(new, dtype=np.int64) + 2, minlength=10)
        assert np.array_equal(moved, fresh)
        assert np.array_equal(followed, fresh)
        assert kept == list(new)
        old = new
