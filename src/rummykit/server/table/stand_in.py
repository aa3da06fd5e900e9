"""What a stand-in may do: the moves a bot may choose when it plays for a person.

A bot that plays a turn whose timer ran out, or the seat of a player who is away,
plays cautiously: it never takes a discard pile of more than :data:`LARGE_PILE`
cards (a Burraco pile taken binds its owner's whole hand to it), so the player who
comes back is not left with a hand they never chose.  This module only filters
legal moves; it never decides one.

>>> pile = {"discard_pile": ["3h", "4h", "5h", "Kd"]}
>>> cautious_moves(pile, ["draw", "take"], whole_pile=True)
['draw']
>>> cautious_moves(pile, ["draw", "take"], whole_pile=False)  # Three-Thirteen: one card
['draw', 'take']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

LARGE_PILE: Final = 2
"""The most cards a stand-in takes from the discard pile."""


def cautious_moves(
    observation: Mapping[str, Any], legal: Sequence[str], *, whole_pile: bool
) -> list[str]:
    """``legal`` without taking a discard pile of more than :data:`LARGE_PILE` cards
    when ``take`` takes the whole pile (``whole_pile``: Burraco; in Three-Thirteen it
    takes the top card only); every legal move if nothing else would be left."""
    pile = observation.get("discard_pile")
    if not whole_pile or not isinstance(pile, list) or len(pile) <= LARGE_PILE:
        return list(legal)
    kept = [text for text in legal if text.split()[0].lower() != "take"]
    return kept or list(legal)
