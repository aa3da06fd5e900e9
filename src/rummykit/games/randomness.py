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

Determinizations (states sampled for search, which no record replays) draw from a
:class:`SampleStream` instead: the same ``below`` and ``shuffle`` on words that cost
one hash call however many are needed.

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
import struct
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

    __slots__ = ("_block", "_head", "_stem", "_words")

    def __init__(self, seed: int, label: str) -> None:
        self._stem = b"%s%d|%s|" % (_PREFIX, check_seed(seed), label.encode("ascii"))
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._head = 8  # every word of the (empty) current block used

    def _hash_blocks(self, first: int, count: int) -> tuple[int, ...]:
        """The words of blocks ``first`` .. ``first + count - 1``, in order."""
        stem = self._stem
        sha256 = hashlib.sha256
        data = b"".join(
            [sha256(stem + b"%d" % block).digest() for block in range(first, first + count)]
        )
        return struct.unpack(f">{8 * count}I", data)

    def _refill(self) -> tuple[int, ...]:
        """The next block's words (the head back at the first)."""
        self._words = words = self._hash_blocks(self._block, 1)
        self._block += 1
        self._head = 0
        return words

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (``n`` from 1 to ``2**32``)."""
        if not 1 <= n <= 2**32:
            raise ValueError(f"below() takes n from 1 to 2**32, not {n}")
        limit = 2**32 - (2**32 % n)
        while True:
            if self._head == 8:
                self._refill()
            word = self._words[self._head]
            self._head += 1
            if word < limit:
                return word % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates from the end: ``below(i + 1)`` for
        each ``i``).

        The words are taken all at once, and while none of them could be rejected (a
        word under ``2**32 - len(items)`` never is) each swap uses one; otherwise the
        stream is put back and the shuffle is done one ``below`` at a time, so the
        result is the procedure's either way.
        """
        count = len(items)
        if count < 2:
            return
        saved = (self._block, self._words, self._head)
        words = self._take(count - 1)
        if max(words) < 2**32 - count:
            for i, word in zip(range(count - 1, 0, -1), words, strict=True):
                j = word % (i + 1)
                items[i], items[j] = items[j], items[i]
            return
        self._block, self._words, self._head = saved
        self._shuffle_one_by_one(items)

    def _shuffle_one_by_one(self, items: list[T]) -> None:
        """:meth:`shuffle` as the procedure says it, one ``below`` a card."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def _take(self, count: int) -> list[int]:
        """The next ``count`` words of the stream (at least one), the blocks still
        needed hashed in one go."""
        head = self._head
        words = self._words
        if count <= 8 - head:
            self._head = head + count
            return list(words[head : head + count])
        missing = count - (8 - head)
        blocks = (missing + 7) // 8
        first = self._block
        fresh = self._hash_blocks(first, blocks)
        self._block = first + blocks
        self._words = fresh[-8:]
        self._head = missing - 8 * (blocks - 1)
        return [*words[head:], *fresh[:missing]]


_SAMPLE_PREFIX: Final = b"rummykit/sample/v1|"


class SampleStream:
    """Uniform integers for sampled states (determinizations), quicker to draw many of
    than :class:`SeedStream`'s.

    The words are the output of SHAKE-256 (an extendable-output hash: one call gives
    any number of bytes) of ``b"rummykit/sample/v1|" + str(seed) + b"|" + label``, read
    as big-endian 32-bit words; ``below`` and ``shuffle`` use them as the deal
    procedure does (rejection sampling; Fisher-Yates from the end).  So a sample is the
    same on every Python version, and uniform; deals use :class:`SeedStream`.

    >>> cards = list(range(10))
    >>> SampleStream(7, "example").shuffle(cards)
    >>> sorted(cards) == list(range(10))
    True
    """

    __slots__ = ("_hash", "_head", "_words")

    def __init__(self, seed: int, label: str) -> None:
        name = b"%s%d|%s" % (_SAMPLE_PREFIX, check_seed(seed), label.encode("ascii"))
        self._hash = hashlib.shake_256(name)
        self._words: tuple[int, ...] = ()
        self._head = 0

    def _reserve(self, count: int) -> None:
        """Make at least ``count`` words ready past the head (the output read again,
        longer: SHAKE-256's first bytes do not depend on how many are asked)."""
        needed = self._head + count
        if needed > len(self._words):
            total = max(needed, 2 * len(self._words), 64)
            self._words = struct.unpack(f">{total}I", self._hash.digest(4 * total))

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (``n`` from 1 to ``2**32``)."""
        if not 1 <= n <= 2**32:
            raise ValueError(f"below() takes n from 1 to 2**32, not {n}")
        limit = 2**32 - (2**32 % n)
        while True:
            self._reserve(1)
            word = self._words[self._head]
            self._head += 1
            if word < limit:
                return word % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates from the end, ``below(i + 1)`` for
        each ``i``; the words taken at once while none could be rejected, as in
        :meth:`SeedStream.shuffle`)."""
        count = len(items)
        if count < 2:
            return
        self._reserve(count - 1)
        head = self._head
        words = self._words[head : head + count - 1]
        if max(words) >= 2**32 - count:
            for i in range(count - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        self._head = head + count - 1
        for i, word in zip(range(count - 1, 0, -1), words, strict=True):
            j = word % (i + 1)
            items[i], items[j] = items[j], items[i]
