"""Meld numbers as a player sees them: each player's melds numbered 1, 2, 3 ...

The engine names a meld by its id in the hand (0, 1, 2 ... across both players).  On
the screen each player's melds are numbered from 1 in the order they were laid, so
``extend 2 5h`` typed by a person means *my meld 2 as displayed*.  This module maps
both ways: typed numbers to engine ids for the person's moves, engine ids to displayed
numbers for everything printed (the person's moves, the computer's, the move list).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rummykit.games.core import NotationError


@dataclass(frozen=True, slots=True)
class MeldNumbers:
    """Displayed meld numbers for one hand: ``meld id -> (owner, number)``."""

    numbers: dict[int, tuple[int, int]]

    @classmethod
    def of(cls, melds: Iterable[tuple[int, int]]) -> MeldNumbers:
        """Number ``(meld_id, owner)`` pairs per owner, in the order of their ids."""
        numbers: dict[int, tuple[int, int]] = {}
        counts: dict[int, int] = {}
        for meld_id, owner in sorted(melds):
            counts[owner] = counts.get(owner, 0) + 1
            numbers[meld_id] = (owner, counts[owner])
        return cls(numbers)

    def number(self, meld_id: int) -> int:
        """The displayed number of a meld (the engine id + 1 for one not yet numbered)."""
        entry = self.numbers.get(meld_id)
        return meld_id + 1 if entry is None else entry[1]

    def owned_by(self, owner: int) -> dict[int, int]:
        """``number -> meld id`` for the melds of ``owner``."""
        return {n: meld_id for meld_id, (o, n) in self.numbers.items() if o == owner}

    def meld_id(self, owner: int, number: int) -> int:
        """The engine id of ``owner``'s meld ``number``; ``NotationError`` if none."""
        own = self.owned_by(owner)
        if number in own:
            return own[number]
        if not own:
            raise NotationError("you have no meld on the table yet: start one with 'meld'")
        raise NotationError(f"you have no meld {number}: your melds are numbered 1 to {max(own)}")


def numbers_for(observation: Any) -> MeldNumbers:
    """The numbers of the melds in an observation of either game."""
    return MeldNumbers.of((m.meld_id, m.owner) for m in observation.melds)


def typed_to_engine(action: Any, numbers: MeldNumbers, player: int) -> Any:
    """The engine action for one typed by ``player``: meld numbers as displayed to ids."""
    if hasattr(action, "meld_id"):
        return dataclasses.replace(action, meld_id=numbers.meld_id(player, action.meld_id))
    return action


def engine_to_shown(action: Any, numbers: MeldNumbers) -> Any:
    """The action with its meld id replaced by the displayed number (for printing)."""
    if hasattr(action, "meld_id"):
        return dataclasses.replace(action, meld_id=numbers.number(action.meld_id))
    return action
