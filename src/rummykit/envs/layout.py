"""Named blocks of a flat observation vector: where each slot lives, what it means, its bounds.

An encoding module declares its blocks once (:class:`Layout`); the environments take the
observation space's bounds from it, and the docs print its table, so the documentation
of every slot and the code that fills it cannot drift apart.

>>> layout = Layout()
>>> layout.add("hand", 53, high=2, meaning="cards held, by face")
Block(name='hand', offset=0, length=53, low=0.0, high=2.0, meaning='cards held, by face')
>>> layout.add("phase", 2, high=1, meaning="draw, discard").offset, layout.size
(53, 55)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Block:
    """``length`` consecutive slots from ``offset``, each between ``low`` and ``high``."""

    name: str
    offset: int
    length: int
    low: float
    high: float
    meaning: str

    @property
    def end(self) -> int:
        return self.offset + self.length


class Layout:
    """The blocks of one observation vector, in order."""

    def __init__(self) -> None:
        self.blocks: dict[str, Block] = {}
        self.size = 0

    def add(self, name: str, length: int, *, high: float, meaning: str, low: float = 0.0) -> Block:
        if name in self.blocks:
            raise ValueError(f"the block {name!r} is already in the layout")
        block = Block(name, self.size, length, float(low), float(high), meaning)
        self.blocks[name] = block
        self.size += length
        return block

    def __getitem__(self, name: str) -> Block:
        return self.blocks[name]

    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """The lowest and highest value of every slot (for a ``Box`` space)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.zeros(self.size, dtype=np.float32)
        for block in self.blocks.values():
            low[block.offset : block.end] = block.low
            high[block.offset : block.end] = block.high
        return low, high

    def table(self) -> str:
        """The layout as a Markdown table (slots, name, range, meaning)."""
        lines = ["| slots | block | range | meaning |", "|---|---|---|---|"]
        for block in self.blocks.values():
            slots = str(block.offset) if block.length == 1 else f"{block.offset}-{block.end - 1}"
            lines.append(
                f"| {slots} | `{block.name}` | {block.low:g}..{block.high:g} | {block.meaning} |"
            )
        return "\n".join(lines)
