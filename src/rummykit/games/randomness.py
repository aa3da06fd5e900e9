"""Portable randomness for deals: the same seed gives the same cards everywhere.

Deals never use Python's ``random`` module, whose algorithms may change between
versions.  The procedure, which anyone can re-implement from this docstring:

1. A *stream* is named by the game's seed (a non-negative integer) and a label (a
   short ASCII string such as ``"hand/3"``).  Block ``i`` (``i = 0, 1, 2, ...``) of the
   stream is ``SHA-256(b"rummykit/v1|" + str(seed) + b"|" + label + b"|" + str(i))``,
   all parts ASCII.  Each block gives eight 32-bit words, big-endian, in order.
2. ``below(n)`` takes words until one is less than ``2**32 - (2**32 % n)`` and returns
   that word modulo ``n`` (rejection sampling: no bias).
3. ``shuffle(cards)`` is Fisher-Yates from the end: for ``i`` from ``len - 1`` down to
   ``1``, swap position ``i`` with position ``below(i + 1)``.

The engine gives each hand, round and reshuffle its own label, so one deal never
depends on how much randomness an earlier one consumed.

>>> stream = SeedStream(7, "example")
>>> cards = list(range(10))
>>> stream.shuffle(cards)
>>> sorted(cards) == list(range(10))
True
>>> SeedStream(7, "example").below(1000) == SeedStream(7, "example").below(1000)
True
"""

from __future__ import annotations

import hashlib
from typing import Final, TypeVar

T = TypeVar("T")

MAX_SEED: Final = 2**63 - 1

_PREFIX: Final = b"rummykit/v1|"


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is an allowed seed (an int in 0..2**63-1), else raise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return seed


class SeedStream:
    """A deterministic stream of uniform integers named by a seed and a label."""

    __slots__ = ("_block", "_head", "_label", "_seed", "_words")

    def __init__(self, seed: int, label: str) -> None:
        self._seed = b"%d" % check_seed(seed)
        self._label = label.encode("ascii")
        self._block = 0
        self._words: list[int] = []
        self._head = 0

    def _next_word(self) -> int:
        if self._head == len(self._words):
            digest = hashlib.sha256(
                _PREFIX + self._seed + b"|" + self._label + b"|" + b"%d" % self._block
            ).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
            self._head = 0
        word = self._words[self._head]
        self._head += 1
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (``n`` from 1 to ``2**32``)."""
        if not 1 <= n <= 2**32:
            raise ValueError(f"below() takes n from 1 to 2**32, not {n}")
        limit = 2**32 - (2**32 % n)
        while True:
            word = self._next_word()
            if word < limit:
                return word % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
