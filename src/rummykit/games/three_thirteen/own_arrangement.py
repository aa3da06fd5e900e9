"""A player's own hand as the round would score it now, for that player to be shown.

:func:`own_arrangement` reads one :class:`.Observation` and nothing else: the player's
own hand, the round's wild rank and the rules.  It answers with the arrangement
:mod:`.arrange` finds (the melds, what each wild stands for, the cards left over and
their points) and, while the player holds the extra card of the discard phase, the
deadwood each possible discard would leave.  It sees only what the observation holds,
so it can never show a card of another hand; the server sends it to the seat alone.

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.cards import JOKER, RANK_OF, RANKS, SUIT_OF, SUITS, Card, format_card, sorted_cards
from rummykit.games.three_thirteen.arrange import arrange, classify_meld, deadwood
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.rules import Rules

__all__ = ["arrangement_json", "own_arrangement", "stands_for"]


def _is_wild(card: Card, wild_rank: int) -> bool:
    return card == JOKER or RANK_OF[card] == wild_rank


def stands_for(meld: Sequence[Card], *, wild_rank: int, kind: str) -> list[str | None]:
    """For each card of ``meld`` (as :func:`.arrange` lays it out), what it stands for
    if it is a wild: in a run the card of its place (``"6h"``), in a set the set's rank
    (``"9"``); ``None`` for a natural card, and for the wilds of a meld of wilds alone.

    >>> from rummykit.cards import parse_cards
    >>> stands_for(parse_cards("4h 8c 6h Jk"), wild_rank=8, kind="run")
    [None, '5h', None, '7h']
    >>> stands_for(parse_cards("9d 9s 8c"), wild_rank=8, kind="set")
    [None, None, '9']
    >>> stands_for(parse_cards("Qh Kh 8c"), wild_rank=8, kind="run")  # an ace high
    [None, None, 'Ah']
    """
    naturals = [(index, card) for index, card in enumerate(meld) if not _is_wild(card, wild_rank)]
    if not naturals:
        return [None] * len(meld)
    if kind == "set":
        rank = RANKS[RANK_OF[naturals[0][1]] - 1]
        return [None if not _is_wild(card, wild_rank) else rank for card in meld]
    first_index, first = naturals[0]
    suit = SUITS[SUIT_OF[first]]
    low = RANK_OF[first] - first_index  # the place of the meld's first card
    return [
        None if not _is_wild(card, wild_rank) else RANKS[(low + index - 1) % 13] + suit
        for index, card in enumerate(meld)
    ]


def arrangement_json(hand: Sequence[Card], *, wild_rank: int, rules: Rules) -> dict[str, Any]:
    """The least-deadwood arrangement of ``hand`` as JSON: ``melds`` (each with its
    ``kind``, ``cards`` and ``stands_for``), ``unmelded`` (sorted) and ``deadwood``.

    >>> from rummykit.cards import parse_cards
    >>> shown = arrangement_json(parse_cards("Ah 2h 4h 5h 7h 8h Th Tc"), wild_rank=8, rules=Rules())
    >>> shown["melds"]
    [{'kind': 'set', 'cards': ['Tc', 'Th', '8h'], 'stands_for': [None, None, 'T']}]
    >>> shown["unmelded"], shown["deadwood"]
    (['Ah', '2h', '4h', '5h', '7h'], 19)
    """
    best = arrange(
        hand, wild_rank=wild_rank, ace_high=rules.ace_high, wild_only_melds=rules.wild_only_melds
    )
    melds = []
    for meld in best.melds:
        kind = classify_meld(
            meld,
            wild_rank=wild_rank,
            ace_high=rules.ace_high,
            wild_only_melds=rules.wild_only_melds,
        )
        melds.append(
            {
                "kind": kind,
                "cards": [format_card(card) for card in meld],
                "stands_for": stands_for(meld, wild_rank=wild_rank, kind=kind),
            }
        )
    return {
        "melds": melds,
        "unmelded": [format_card(card) for card in sorted_cards(best.unmelded)],
        "deadwood": best.deadwood,
    }


def own_arrangement(observation: Observation) -> dict[str, Any] | None:
    """What the observing player is shown of their own hand: :func:`arrangement_json`
    of it, with ``discards``: while it is this player's discard phase, each distinct
    card of the hand with the ``deadwood`` left after discarding it (least first, then
    in card order), else ``[]``.  ``None`` once the game is over."""
    if observation.game_over:
        return None
    rules = observation.rules
    wild_rank = observation.wild_rank
    hand = list(observation.hand)
    shown = arrangement_json(hand, wild_rank=wild_rank, rules=rules)
    discards: list[dict[str, Any]] = []
    if observation.phase == "discard" and observation.current_player == observation.player:
        for card in sorted_cards(set(hand)):
            rest = list(hand)
            rest.remove(card)
            points = deadwood(
                rest,
                wild_rank=wild_rank,
                ace_high=rules.ace_high,
                wild_only_melds=rules.wild_only_melds,
            )
            discards.append({"card": format_card(card), "deadwood": points})
        discards.sort(key=lambda option: int(option["deadwood"]))
    shown["discards"] = discards
    return shown
