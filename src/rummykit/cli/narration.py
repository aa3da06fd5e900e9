"""Moves told as sentences: what a player did, with the cards involved.

``narrate`` turns the events of one action, as one viewer may see them (the engine's
``events_for``), into short lines: "Computer takes the pile: 7h 8h 9h", "You draw Qs",
"Computer adds 5h to meld 2" (a player adds only to their own melds, numbered as the
screen shows them).  It reads events only, never a state, so it can say no more than
the viewer may know.  Names are printed through :func:`text.safe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.cli import views
from rummykit.cli.numbering import MeldNumbers
from rummykit.cli.text import safe


def _says(name: str, singular: str, plural_form: str) -> str:
    return f"{safe(name)} {plural_form if name == 'You' else singular}"


def narrate(
    events: Sequence[Any],
    *,
    names: Sequence[str],
    numbers: MeldNumbers,
) -> list[str]:
    """One line of markup for each event worth telling (deals and results excepted)."""
    lines: list[str] = []
    for event in events:
        line = _event_line(event, names=names, numbers=numbers)
        if line is not None:
            lines.append(line)
    return lines


def _event_line(event: Any, *, names: Sequence[str], numbers: MeldNumbers) -> str | None:
    kind = type(event).__name__
    player = getattr(event, "player", None)
    name = names[player] if isinstance(player, int) and 0 <= player < len(names) else ""
    if kind == "StockDrawn":
        card = getattr(event, "card", None)
        told = _says(name, "draws", "draw")
        return told + (f" {views.card_markup(card)}" if card is not None else " from the stock")
    if kind == "PileTaken":
        return f"{_says(name, 'takes', 'take')} the pile: {views.cards_markup(event.cards)}"
    if kind == "DiscardTaken":
        return f"{_says(name, 'takes', 'take')} {views.card_markup(event.card)}"
    if kind == "Melded":
        number = numbers.number(event.meld_id)
        return f"{_says(name, 'melds', 'meld')} {views.meld_markup(event.meld)} as meld {number}"
    if kind == "Extended":
        number = numbers.number(event.meld_id)
        return f"{_says(name, 'adds', 'add')} {views.cards_markup(event.cards)} to meld {number}"
    if kind == "Discarded":
        return f"{_says(name, 'discards', 'discard')} {views.card_markup(event.card)}"
    if kind == "WentOut":
        melds = "  ".join(views.cards_markup(m.cards) for m in event.melds)
        return (
            f"[bold]{_says(name, 'goes', 'go')} out[/]: {melds or 'no melds'},"
            f" discarding {views.card_markup(event.discard)}"
        )
    if kind == "PozzettoTaken":
        cards = getattr(event, "cards", None)
        if cards:
            return (
                f"[yellow]{_says(name, 'takes', 'take')} a pozzetto: {views.cards_markup(cards)}[/]"
            )
        return f"[yellow]{_says(name, 'takes', 'take')} a pozzetto[/]"
    if kind == "PozzettoToStock":
        return "[dim]the stock ran out: a pozzetto becomes the new stock[/]"
    if kind == "StockReshuffled":
        return "[dim]the stock ran out: the pile but its top card is the new stock[/]"
    return None
