"""Keeping play moving: the discards that would let a hand go round in circles.

Taking the top of the discard pile and throwing back the card just taken (in Burraco:
taking a pile of one card and discarding its twin) changes nothing but whose turn it
is.  Two players who both do that, or who hand two cards back and forth, bring the
table back to a position it was in, turn after turn, until the stalemate rule ends the
hand.  Search bots drift into it because their evaluation sees a hand kept as it is as
no worse than a draw from the stock, which usually adds a card to the hand.

The rule the bots follow, read from the discard pile's history alone (public): since
the last time anyone drew from the stock, a player never discards a card of a face that
they took alone from the discard pile (a one-card Burraco pile, or a Three-Thirteen top
card), this turn's take included, unless every discard open to them is such a card.
That is enough: while nobody draws from the stock, a position can come back only if
each player threw away what they took since it; the last of a player's discards in
such a stretch would be a card they took earlier in it.  And a player does not take
the pile's single card when the hand would then hold nothing else to discard (the rule
would have to give way); a draw from the stock is the progress.

This module knows no game: each game's bots turn its history into :data:`PileMove` and
its actions into cards (``burraco.progress``, ``three_thirteen.progress``).  It never
does I/O and never uses randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from rummykit.cards import Card

PileMove = tuple[str, int | None, tuple[Card, ...]]
"""One line of a discard pile's history: its kind (``"start"``, ``"take"``,
``"discard"`` or ``"out"``, the discard of a player going out), the player (``None`` for
the card turned up at the deal) and the cards."""

A = TypeVar("A")


def faces_taken(moves: Iterable[PileMove], player: int, *, drawing: bool) -> frozenset[Card]:
    """The faces ``player`` took alone from the pile since anyone last drew from the
    stock (a discard without a take just before it, by the same player, followed a
    draw from the stock; the card turned up at the deal starts the count too).
    ``drawing``: the player has not drawn yet this turn; otherwise a turn that took no
    card from the pile drew from the stock, and the set is empty.

    >>> faces_taken([("start", None, (1,)), ("take", 0, (1,)), ("discard", 0, (5,)),
    ...              ("take", 1, (5,)), ("discard", 1, (7,)), ("take", 0, (7,))],
    ...             0, drawing=False)
    frozenset({1, 7})
    >>> faces_taken([("take", 0, (1,)), ("discard", 0, (5,)), ("discard", 1, (7,))],
    ...             0, drawing=True)
    frozenset()
    """
    taken: set[Card] = set()
    previous: PileMove | None = None
    for move in moves:
        kind, who, cards = move
        if kind == "start":
            taken.clear()
        elif kind in ("discard", "out"):
            if previous is None or previous[0] != "take" or previous[1] != who:
                taken.clear()
        elif kind == "take" and who == player and len(cards) == 1:
            taken.add(cards[0])
        previous = move
    if not drawing and (previous is None or previous[0] != "take" or previous[1] != player):
        return frozenset()
    return frozenset(taken)


def without_throwbacks(
    actions: Sequence[A], faces: frozenset[Card], discarded: Callable[[A], Card | None]
) -> list[A]:
    """``actions`` less the discards of ``faces`` (``discarded`` gives an action's
    discarded card, ``None`` for another kind), unless no other discard is among them.

    >>> without_throwbacks([1, 2, 3, -1], frozenset({2}), lambda a: a if a > 0 else None)
    [1, 3, -1]
    >>> without_throwbacks([2, -1], frozenset({2}), lambda a: a if a > 0 else None)
    [2, -1]
    """
    if not faces:
        return list(actions)
    kept = [action for action in actions if discarded(action) not in faces]
    if any(discarded(action) is not None for action in kept):
        return kept
    return list(actions)


def taking_stalls(hand: Sequence[Card], top: Card, faces: frozenset[Card]) -> bool:
    """Would taking ``top`` alone leave ``hand`` nothing to discard but faces taken
    since the last draw from the stock (``top``'s included)?

    >>> taking_stalls([4, 4], 4, frozenset())
    True
    >>> taking_stalls([4, 9], 4, frozenset({9}))
    True
    >>> taking_stalls([4, 9], 4, frozenset())
    False
    """
    return all(card == top or card in faces for card in hand)
