"""The legal moves as a person reads them: grouped by kind, sorted, meld numbers as shown.

>>> from rummykit.games import three_thirteen
>>> state = three_thirteen.State.new(three_thirteen.Rules(), 3)
>>> [group.title for group in grouped_moves("three-thirteen", state.legal_actions(),
...     MeldNumbers({}))]
['Draw']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from rummykit.cards import sort_key
from rummykit.cli.numbering import MeldNumbers, engine_to_shown
from rummykit.games.registry import game_named

# Kind of move (the first word of its text) -> the group's title and its place.
_GROUPS: Final = {
    "draw": ("Draw", 0),
    "take": ("Draw", 0),
    "meld": ("Lay a new meld", 1),
    "extend": ("Add to your meld", 2),
    "out": ("Go out (discarding the card named)", 3),
    "discard": ("Discard", 4),
}


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """Moves of one kind, each as the text to type."""

    title: str
    moves: tuple[str, ...]


def _order(action: Any) -> tuple[Any, ...]:
    cards = getattr(action, "cards", None)
    if cards is None:
        card = getattr(action, "card", None)
        cards = () if card is None else (card,)
    meld_number = getattr(action, "meld_id", 0)
    return (meld_number, len(cards), [sort_key(c) for c in cards])


def grouped_moves(game: str, actions: Iterable[Any], numbers: MeldNumbers) -> list[MoveGroup]:
    """``actions`` grouped by kind and sorted (by meld number, size, then cards)."""
    info = game_named(game)
    by_group: dict[tuple[int, str], list[tuple[tuple[Any, ...], str]]] = {}
    for action in actions:
        shown = engine_to_shown(action, numbers)
        text = info.format_action(shown)
        title, place = _GROUPS.get(text.split()[0], (text.split()[0], 9))
        by_group.setdefault((place, title), []).append((_order(shown), text))
    return [
        MoveGroup(title, tuple(text for _, text in sorted(entries)))
        for (_, title), entries in sorted(by_group.items())
    ]


def flow(items: Iterable[str], width: int, separator: str = "   ") -> list[str]:
    """Items packed into lines at most ``width`` wide, never breaking an item.

    An item longer than ``width`` gets a line of its own (the screen cuts it).

    >>> flow(["meld 3h 4h 5h", "meld 3h 4h 5h 6h", "draw"], 20)
    ['meld 3h 4h 5h', 'meld 3h 4h 5h 6h', 'draw']
    >>> flow(["a", "b", "c"], 5, " ")
    ['a b c']
    """
    lines: list[str] = []
    current = ""
    for item in items:
        if current and len(current) + len(separator) + len(item) <= width:
            current += separator + item
        else:
            if current:
                lines.append(current)
            current = item
    if current:
        lines.append(current)
    return lines
