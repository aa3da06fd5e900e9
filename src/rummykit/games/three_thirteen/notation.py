"""The text notation of Three-Thirteen actions: ``draw``, ``take``, ``discard Qh``, ``out Qh``.

Words are case-insensitive on input and lower-case on output; cards use the notation of
:mod:`rummykit.cards` (``10h`` is read as ``Th``).  Parsing never checks legality (the
state does): it only says whether the text names an action.

>>> format_action(parse_action("  OUT 10h "))
'out Th'
>>> parse_action("discard")
Traceback (most recent call last):
...
rummykit.games.core.NotationError: 'discard' needs one card, as in 'discard Qh'
"""

from __future__ import annotations

from rummykit.cards import CardError, format_card, parse_card
from rummykit.games.core import NotationError
from rummykit.games.three_thirteen.actions import (
    DRAW_STOCK,
    TAKE_DISCARD,
    Action,
    Discard,
    DrawStock,
    GoOut,
    TakeDiscard,
)

_EXPECTED = "expected 'draw', 'take', 'discard <card>' or 'out <card>'"


def parse_action(text: str) -> Action:
    """The action named by ``text``; :class:`~rummykit.games.core.NotationError` otherwise."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError(f"an empty text is not an action: {_EXPECTED}")
    verb = words[0].lower()
    if verb in ("draw", "take"):
        if len(words) != 1:
            raise NotationError(f"{verb!r} takes no card: {text.strip()!r}")
        return DRAW_STOCK if verb == "draw" else TAKE_DISCARD
    if verb in ("discard", "out"):
        if len(words) != 2:
            raise NotationError(f"{verb!r} needs one card, as in '{verb} Qh'")
        try:
            card = parse_card(words[1])
        except CardError as error:
            raise NotationError(str(error)) from None
        return Discard(card) if verb == "discard" else GoOut(card)
    raise NotationError(f"{words[0]!r} is not an action: {_EXPECTED}")


def format_action(action: Action) -> str:
    """The notation of ``action`` (the inverse of :func:`parse_action`)."""
    kind = type(action)
    if kind is DrawStock:
        return "draw"
    if kind is TakeDiscard:
        return "take"
    if kind is Discard or kind is GoOut:
        card = action.card  # type: ignore[union-attr]
        try:
            name = format_card(card)
        except (CardError, TypeError):
            raise NotationError(f"{card!r} is not a card") from None
        return f"discard {name}" if kind is Discard else f"out {name}"
    raise NotationError(f"{action!r} is not a Three-Thirteen action")
