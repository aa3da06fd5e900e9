"""The reasons a Three-Thirteen action can be refused, each with a stable code.

Clients translate by ``code`` and ``params`` (card names as strings); ``message`` is the
English text.  The codes:

=========================  ==============================================================
``not_an_action``          the object is not one of the four actions
``bad_card``               the action names something that is not a card
``game_over``              the game has ended
``wrong_phase``            drawing twice, or discarding before drawing
``stock_empty``            drawing from an empty stock
``discard_pile_empty``     taking from an empty discard pile
``card_not_in_hand``       discarding (or going out with) a card the player lacks
``last_turn_discard_only`` going out after someone else went out (last turns)
``cannot_go_out``          the cards but the discard do not all form melds
=========================  ==============================================================

This module builds refusals; it never decides legality (``State.check`` does).
"""

from __future__ import annotations

from rummykit.cards import Card, format_card
from rummykit.games.core import Refusal


def not_an_action(action: object) -> Refusal:
    return Refusal(
        "not_an_action",
        {"action": type(action).__name__},
        f"{type(action).__name__} is not a Three-Thirteen action"
        " (draw, take, discard a card or go out)",
    )


def bad_card(card: object) -> Refusal:
    return Refusal("bad_card", {"card": repr(card)}, f"{card!r} is not a card")


def game_over() -> Refusal:
    return Refusal("game_over", {}, "the game is over")


def wrong_phase(*, phase: str, action: str) -> Refusal:
    if phase == "draw":
        message = "draw first: take the top card of the stock or of the discard pile"
    else:
        message = "you have already drawn this turn: discard a card (or go out)"
    return Refusal("wrong_phase", {"phase": phase, "action": action}, message)


def stock_empty() -> Refusal:
    return Refusal("stock_empty", {}, "the stock is empty")


def discard_pile_empty() -> Refusal:
    return Refusal("discard_pile_empty", {}, "the discard pile is empty")


def card_not_in_hand(card: Card) -> Refusal:
    name = format_card(card)
    return Refusal("card_not_in_hand", {"card": name}, f"you do not hold {name}")


def last_turn_discard_only(*, went_out: int) -> Refusal:
    return Refusal(
        "last_turn_discard_only",
        {"went_out": went_out},
        f"player {went_out} has gone out: on this last turn you discard a card, you cannot go out",
    )


def cannot_go_out(card: Card) -> Refusal:
    name = format_card(card)
    return Refusal(
        "cannot_go_out",
        {"card": name},
        f"you cannot go out discarding {name}: the rest of your cards do not all form melds",
    )
