"""Rewriting only the slots of a kept vector that changed since it was last written.

An environment encodes the table after every step, and one step changes few slots: a
card moves from the stock to a hand, the phase flips, a count goes up.  The encoders
keep each observer's vector and, from the fields they wrote it from last time, add and
take away counts through a ``memoryview`` of it (a Python write to one ``float32``
slot, much cheaper than a NumPy call).  Counts are small whole numbers, exact in
``float32``, so adding and taking away gives exactly the vector written from scratch.

>>> import numpy as np
>>> vector = np.zeros(6, dtype=np.float32)
>>> cells = cells_of(vector)
>>> move_counts(cells, 0, (), (1, 1, 2))
>>> move_counts(cells, 0, (1, 1, 2), (1, 2, 2))
>>> move_counts(cells, 0, [], [5])  # a one-hot slot is a count of 0 or 1
>>> vector.tolist()
[0.0, 1.0, 2.0, 0.0, 0.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from rummykit.envs.layout import FloatArray


def cells_of(vector: FloatArray) -> memoryview[float]:
    """Write access to ``vector``'s slots one at a time (``vector`` must stay alive and
    keep its size while the view is used)."""
    return cast("memoryview[float]", vector.data)


def move_counts(
    cells: memoryview[float], offset: int, old: Sequence[int], new: Sequence[int]
) -> None:
    """Change the counts of a block of card slots at ``offset`` from the cards ``old``
    to the cards ``new`` (a card may appear several times in each).

    The block must hold exactly the counts of ``old``.  A pile that only grew or shrank
    at its end costs only the cards that moved.
    """
    if old == new:
        return
    kept = len(old)
    size = len(new)
    if size > kept and new[:kept] == old:
        for card in new[kept:]:
            cells[offset + card] += 1.0
        return
    if kept > size and old[:size] == new:
        for card in old[size:]:
            cells[offset + card] -= 1.0
        return
    for card in old:
        cells[offset + card] = 0.0
    for card in new:
        cells[offset + card] += 1.0


def follow_counts(
    cells: memoryview[float], offset: int, kept: list[int], new: Sequence[int]
) -> None:
    """Make ``kept``, a list the caller keeps of the cards the block at ``offset``
    counts, equal to ``new``, and the counts with it: :func:`move_counts` without a
    copy of ``new``.  A list that grew at its end, or lost one card anywhere (the
    first copy of it), costs only that change.

    >>> import numpy as np
    >>> vector = np.zeros(4, dtype=np.float32)
    >>> cells, kept = cells_of(vector), []
    >>> follow_counts(cells, 0, kept, [3, 1, 3])
    >>> follow_counts(cells, 0, kept, [3, 3])
    >>> follow_counts(cells, 0, kept, (2,))
    >>> kept, vector.tolist()
    ([2], [0.0, 0.0, 1.0, 0.0])
    """
    count = len(kept)
    size = len(new)
    if size > count:
        if new[:count] == kept:
            added = new[count:]
            for card in added:
                cells[offset + card] += 1.0
            kept += added
            return
    elif size == count - 1:
        card = sum(kept) - sum(new)
        if card in kept:
            kept.remove(card)
            if kept == new:
                cells[offset + card] -= 1.0
                return
            kept.append(card)  # the same cards, as the block counts them
    for card in kept:
        cells[offset + card] = 0.0
    for card in new:
        cells[offset + card] += 1.0
    kept[:] = new


def move_hot(cells: memoryview[float], hot: list[int], block: int, slot: int) -> None:
    """Move the one-hot slot ``hot[block]`` of a vector (-1: none set) to ``slot``, in
    ``cells`` and in ``hot`` (a list of one kept slot per block; no two blocks share a
    slot)."""
    kept = hot[block]
    if kept >= 0:
        cells[kept] = 0.0
    if slot >= 0:
        cells[slot] = 1.0
    hot[block] = slot
