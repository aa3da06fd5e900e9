"""Choosing a Burraco discard: the card least useful to the player and to the opponent.

Each legal discard gets a cost, and the cheapest goes:

- **keep**: what the card is worth to the player's own future melds: a wild (never
  thrown unless nothing else may be), a card that fits an own meld, cards of the same
  rank (a set to come), cards of the same suit one or two places away (a run to come);
- **danger**: what it would give the opponent: a card that extends one of their melds
  (they would take the pile for it), a card that makes a meld with the cards they are
  known to hold or with the pile they would take; the bigger the pile, the worse;
- **safety**: a card the opponent has just discarded, or whose twin is in sight, is
  less likely to help them;
- **shedding**: points leave the hand, more so when the hand may end soon.

This module only scores the discards it is given (all legal); it never sees a game
state and never uses randomness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.bots.burraco.reading import TableReading, is_wild_face
from rummykit.bots.reasons import Reason
from rummykit.cards import BURRACO_POINTS, JOKER, RANK_OF, SUIT_OF, Card
from rummykit.games.burraco import Discard

JOKER_KEEP: Final = 1000
TWO_KEEP: Final = 600
OWN_FIT_KEEP: Final = 70
RANK_MATE_KEEP: Final = 22
NEIGHBOUR_KEEP: Final = 18
SECOND_NEIGHBOUR_KEEP: Final = 8
OPPONENT_FIT_DANGER: Final = 120
MELD_DANGER: Final = 55
LINK_DANGER: Final = 10
RECENT_DISCARD_SAFETY: Final = 25
TWIN_SAFETY: Final = 10
SHED_EARLY: Final = 0.25
SHED_LATE: Final = 1.5


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """The chosen discard, its cost and the consideration that decided it."""

    action: Discard
    cost: float
    why: Reason


def _places(cards: Sequence[Card]) -> list[int]:
    """Run places of ``cards`` by suit as bit masks (bit 1 and bit 14 for the ace)."""
    masks = [0, 0, 0, 0]
    for card in cards:
        if card == JOKER or RANK_OF[card] == 2:
            continue
        rank = RANK_OF[card]
        masks[SUIT_OF[card]] |= (1 << rank) | ((1 << 14) if rank == 1 else 0)
    return masks


def _rank_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 14
    for card in cards:
        if card != JOKER and RANK_OF[card] != 2:
            counts[RANK_OF[card]] += 1
    return counts


def _neighbours(mask: int, rank: int) -> tuple[int, int]:
    """How many places one and two away from ``rank`` are in ``mask`` (both aces)."""
    near = 0
    far = 0
    for place in (rank, 14) if rank == 1 else (rank,):
        for offset in (-1, 1):
            if 1 <= place + offset <= 14 and mask >> (place + offset) & 1:
                near += 1
            if 1 <= place + 2 * offset <= 14 and mask >> (place + 2 * offset) & 1:
                far += 1
    return near, far


def _completes_run(mask: int, rank: int) -> bool:
    """Whether ``rank`` would make three in a row with the places of ``mask``."""
    for place in (rank, 14) if rank == 1 else (rank,):
        bits = mask | (1 << place)
        for low in range(max(1, place - 2), place + 1):
            if low + 2 <= 14 and (bits >> low) & 0b111 == 0b111:
                return True
    return False


_PAIRS_WORDS: Final = {
    "least_useful": "least_useful_pairs",
    "opponent_threw_one": "opponents_threw_one",
}
"""The reasons that name the other side, said of two opponents (a game of four)."""


def choose_discard(reading: TableReading, legal_discards: Sequence[Discard]) -> DiscardChoice:
    """The cheapest of ``legal_discards`` (ties: more points out, then card order).

    Raises ``ValueError`` if there is no discard to choose from.
    """
    if not legal_discards:
        raise ValueError("there is no legal discard to choose from")
    hand = reading.hand
    own_places = _places(hand)
    own_ranks = _rank_counts(hand)
    observation = reading.observation
    material = (*reading.opponent_known, *observation.discard_pile)
    their_places = _places(material)
    their_ranks = _rank_counts(material)
    pile_factor = 1.0 + len(observation.discard_pile) / 10
    shed = SHED_LATE if reading.endgame or reading.threat else SHED_EARLY
    visible = reading.visible_counts
    best: tuple[float, int, Card] | None = None
    best_why = Reason.of("least_useful")
    for action in legal_discards:
        card = action.card
        points = BURRACO_POINTS[card]
        why = "least_useful"
        if is_wild_face(card):
            keep = float(JOKER_KEEP if card == JOKER else TWO_KEEP)
            danger = 0.0
            safety = 0.0
            if len(legal_discards) == 1:
                why = "no_other_discard"
            elif all(is_wild_face(other.card) for other in legal_discards):
                why = "only_wilds_left"
        else:
            rank = RANK_OF[card]
            suit = SUIT_OF[card]
            keep = 0.0
            if card in reading.own_fits:
                keep += OWN_FIT_KEEP
            if rank not in reading.own_set_ranks:
                keep += RANK_MATE_KEEP * min(own_ranks[rank] - 1, 2)
            mask = own_places[suit] & ~(1 << rank)
            if rank == 1:
                mask &= ~(1 << 14)
            near, far = _neighbours(mask, rank)
            keep += NEIGHBOUR_KEEP * near + SECOND_NEIGHBOUR_KEEP * far
            danger = 0.0
            if card in reading.opponent_fits:
                danger += OPPONENT_FIT_DANGER
            if their_ranks[rank] >= 2 or _completes_run(their_places[suit], rank):
                danger += MELD_DANGER
            else:
                near, _ = _neighbours(their_places[suit], rank)
                danger += LINK_DANGER * (near + min(their_ranks[rank], 1))
            danger *= pile_factor
            safety = 0.0
            if card in reading.opponent_recent_discards:
                safety += RECENT_DISCARD_SAFETY
                if danger < RECENT_DISCARD_SAFETY:
                    why = "opponent_threw_one"
            if visible[card] >= 2:
                safety += TWIN_SAFETY
        cost = keep + danger - safety - shed * points
        if (
            shed == SHED_LATE
            and points >= 10
            and danger == 0
            and not is_wild_face(card)
            and why == "least_useful"
        ):
            why = "high_points_out"
        key = (cost, -points, card)
        if best is None or key < best:
            best = key
            best_why = Reason.of(why)
    assert best is not None
    if reading.partner is not None:  # with four, the sides are pairs
        best_why = Reason.of(_PAIRS_WORDS.get(best_why.phrases[0].code, best_why.phrases[0].code))
    return DiscardChoice(Discard(best[2]), best[0], best_why)
