"""Helpers for the Three-Thirteen tests: stacked states and random play."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from rummykit.cards import Card, parse_cards
from rummykit.games.three_thirteen import Rules, State
from rummykit.games.three_thirteen.actions import Action, Discard, DrawStock, GoOut, TakeDiscard

ALL_ACTIONS: list[Action] = [DrawStock(), TakeDiscard()]
ALL_ACTIONS += [Discard(card) for card in range(53)]
ALL_ACTIONS += [GoOut(card) for card in range(53)]
"""Every action there is: both draws, and a discard and a going out for every card."""


E = TypeVar("E")


def only(events: Sequence[object], kind: type[E]) -> E:
    """The one event of type ``kind`` among ``events``."""
    found = [event for event in events if isinstance(event, kind)]
    assert len(found) == 1, events
    return found[0]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def stacked(
    *,
    hands: list[str],
    round_number: int,
    rules: Rules | None = None,
    discard_pile: str = "",
    stock: str | None = None,
    stock_top: str = "",
    current: int = 0,
    dealer: int | None = None,
    phase: str = "draw",
    seed: int = 0,
    **parts: object,
) -> State:
    """A state at ``round_number`` with the given hands (and pile, bottom to top).

    ``stock_top`` lists the next stock cards, next first; the rest of the deck goes
    below them.  With ``stock`` (next first) the stock is exactly that, and the rest of
    the deck goes to the bottom of the discard pile.
    """
    rules = rules or Rules(players=len(hands), first_round=round_number)
    hand_cards = [cards(hand) for hand in hands]
    pile = cards(discard_pile)
    rest = Counter(rules.deck())
    for hand in hand_cards:
        rest.subtract(hand)
    rest.subtract(pile)
    if stock is not None:
        stock_cards = list(reversed(cards(stock)))
        rest.subtract(stock_cards)
        assert min(rest.values()) >= 0, "a card is used too often"
        pile = sorted(rest.elements()) + pile
    else:
        top = list(reversed(cards(stock_top)))
        rest.subtract(top)
        assert min(rest.values()) >= 0, "a card is used too often"
        stock_cards = sorted(rest.elements()) + top
    players = rules.players
    return State.from_parts(
        rules=rules,
        seed=seed,
        round_number=round_number,
        dealer=(current - 1) % players if dealer is None else dealer,
        hands=hand_cards,
        stock=stock_cards,
        discard_pile=pile,
        current_player=current,
        phase=phase,  # type: ignore[arg-type]
        **parts,  # type: ignore[arg-type]
    )


def play_randomly(state: State, rng: random.Random, *, max_actions: int = 100_000) -> int:
    """Apply random legal actions until the game is over; return how many were applied."""
    applied = 0
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
        applied += 1
        assert applied <= max_actions, "the game does not end"
    return applied
