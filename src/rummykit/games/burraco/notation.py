"""Burraco actions as short text: ``draw``, ``take``, ``meld 3h 4h 5h``, ``extend 2 5h``,
``discard Qh`` (docs/engine.md).

Parsing is case-insensitive and accepts ``10`` for ``T``; formatting is canonical, so
``parse_action(format_action(a)) == a``.  Bad text raises ``core.NotationError`` with a
message saying what was expected.  This module converts text only; whether an action is
legal is the game state's question.

>>> format_action(parse_action("MELD 10h jh QH"))
'meld Th Jh Qh'
>>> parse_action("extend 0 2c") == Extend(0, (parse_card("2c"),))
True
>>> parse_action("discard")
Traceback (most recent call last):
...
rummykit.games.core.NotationError: 'discard' needs exactly one card, as in 'discard Qh'
"""

from __future__ import annotations

from rummykit.cards import CardError, format_cards, parse_card
from rummykit.games.burraco.actions import Action, Discard, DrawStock, Extend, Meld, TakePile
from rummykit.games.core import NotationError

MAX_MELD_ID = 10_000
_WORDS = "draw, take, meld <cards>, extend <meld id> <cards>, discard <card>"


def _cards(words: list[str], text: str) -> tuple[int, ...]:
    try:
        return tuple(parse_card(word) for word in words)
    except CardError as error:
        raise NotationError(f"{text!r}: {error}") from None


def parse_action(text: str) -> Action:
    """The action written as ``text`` (see the module docstring for the words)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}")
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError(f"an empty text is not an action; the actions are {_WORDS}")
    verb, rest = words[0].lower(), words[1:]
    if verb in ("draw", "take"):
        if rest:
            raise NotationError(f"{verb!r} takes no cards: {text!r}")
        return DrawStock() if verb == "draw" else TakePile()
    if verb == "meld":
        if not rest:
            raise NotationError(f"'meld' needs cards, as in 'meld 3h 4h 5h': {text!r}")
        return Meld(_cards(rest, text))
    if verb == "extend":
        if len(rest) < 2 or not rest[0].isdigit() or not rest[0].isascii():
            raise NotationError(
                f"'extend' needs a meld id and cards, as in 'extend 2 5h': {text!r}"
            )
        digits = rest[0].lstrip("0") or "0"
        if len(digits) > len(str(MAX_MELD_ID)) or int(digits) > MAX_MELD_ID:
            raise NotationError(f"{rest[0][:12]!r} is not a meld id: {text[:40]!r}")
        meld_id = int(digits)
        return Extend(meld_id, _cards(rest[1:], text))
    if verb == "discard":
        if len(rest) != 1:
            raise NotationError(f"{text!r} needs exactly one card, as in 'discard Qh'")
        return Discard(_cards(rest, text)[0])
    raise NotationError(f"{words[0]!r} is not an action; the actions are {_WORDS}")


def format_action(action: Action) -> str:
    """The canonical text of ``action``."""
    if isinstance(action, DrawStock):
        return "draw"
    if isinstance(action, TakePile):
        return "take"
    if isinstance(action, Meld):
        return "meld " + format_cards(action.cards)
    if isinstance(action, Extend):
        return f"extend {action.meld_id} " + format_cards(action.cards)
    if isinstance(action, Discard):
        return "discard " + format_cards((action.card,))
    raise NotationError(f"{action!r} is not a Burraco action")
