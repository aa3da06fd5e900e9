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
    if len(new) > kept and new[:kept] == old:
        for card in new[kept:]:
            cells[offset + card] += 1.0
        return
    kept = len(new)
    if len(old) > kept and old[:kept] == new:
        for card in old[kept:]:
            cells[offset + card] -= 1.0
        return
    for card in old:
        cells[offset + card] = 0.0
    for card in new:
        cells[offset + card] += 1.0
