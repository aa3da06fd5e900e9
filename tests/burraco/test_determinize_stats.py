"""Burraco determinization places the unseen cards as chance would (chi-square tests).

Given one observation, the sampler should deal the cards the observer cannot see as a
uniformly random deal among those consistent with what the observer knows.  The seeds
are fixed (0 .. SAMPLES-1), so each verdict is the same on every run; the limits are
the 0.1% points of the chi-square distribution (tests/chi_square.py), which the
sampler of an earlier version, biased towards putting wilds at the bottom of the
stock, exceeded many times over.
"""

from __future__ import annotations

from collections import Counter

from rummykit.cards import Card, burraco_deck
from rummykit.games.burraco import determinize
from rummykit.games.burraco.legality import is_wild_in_hand
from rummykit.games.burraco.observation import Observation
from tests.chi_square import binomial_statistic, limit, multinomial_statistic

from .support import BURRACO, position

SAMPLES = 2000


def unseen_by(observation: Observation) -> Counter[Card]:
    unseen = Counter(burraco_deck(jokers=observation.rules.jokers))
    unseen.subtract(observation.hand)
    unseen.subtract(observation.discard_pile)
    for cards in observation.known_cards:
        unseen.subtract(cards)
    for table_meld in observation.melds:
        unseen.subtract(table_meld.meld.cards)
    return +unseen


def test_the_last_card_of_the_player_to_move_and_the_wilds_land_as_chance_would() -> None:
    # Player 1 is in the middle of a turn holding one card, has taken a pozzetto and
    # holds a burraco: that card cannot be a wild (it could not close the hand), and
    # nothing else is known about it.  Player 0 looks on.
    state = position(
        hands=["3c 4c 8s Js Qd Kd Ac Ah 6h 7h 9s", "9c"],
        melds=[(1, BURRACO), (0, "Tc Jc Qc")],
        pile="5h 5s",
        took=(False, True),
        pozzetti=(True, False),
        player=1,
    )
    seen = state.observation(0)
    unseen = unseen_by(seen)
    total = sum(unseen.values())
    wilds = sum(n for card, n in unseen.items() if is_wild_in_hand(card))
    suitable = {card: n for card, n in unseen.items() if not is_wild_in_hand(card)}
    slots = {"stock bottom": 0, "stock second": 1, "stock top": -1}
    wild_at = Counter[str]()
    last_cards = Counter[Card]()
    for seed in range(SAMPLES):
        table = determinize(seen, seed).locations()
        (last,) = table["hand/1"]
        assert not is_wild_in_hand(last)
        last_cards[last] += 1
        for name, index in slots.items():
            wild_at[name] += is_wild_in_hand(table["stock"][index])
        wild_at["pozzetto"] += is_wild_in_hand(table["pozzetto/0"][0])
    # The last card: uniform over the unseen copies of the cards it may be.
    copies = sum(suitable.values())
    faces = {card: n / copies for card, n in suitable.items()}
    statistic = multinomial_statistic(last_cards, faces)
    assert statistic < limit(len(faces) - 1), statistic
    # Every other place: a wild with the chance of the wilds among the other cards.
    chance = wilds / (total - 1)
    statistic = binomial_statistic(
        (wild_at[name], SAMPLES, chance) for name in (*slots, "pozzetto")
    )
    assert statistic < limit(len(slots) + 1), (statistic, dict(wild_at), SAMPLES * chance)


def test_unseen_cards_land_in_each_place_in_proportion_to_its_size() -> None:
    # At the start of player 1's turn nothing constrains the unseen cards.
    state = position(
        hands=["3c 4c 8s Js Qd Kd Ac Ah 6h 7h 9s", "9c 4h Th Kh 2d"],
        melds=[(1, "Tc Jc Qc")],
        pile="5h 5s",
        pozzetti=(True, True),
        player=1,
        phase="draw",
    )
    seen = state.observation(0)
    unseen = unseen_by(seen)
    total = sum(unseen.values())
    in_hand = Counter[Card]()
    for seed in range(SAMPLES // 4):
        in_hand.update(determinize(seen, seed).locations()["hand/1"])
    size = 5 / total
    # The copies of a face in the hand are hypergeometric: mean n*p, variance as below.
    statistic = 0.0
    for card, n in unseen.items():
        mean = SAMPLES // 4 * n * size
        variance = mean * (1 - size) * (total - n) / (total - 1)
        statistic += (in_hand[card] - mean) ** 2 / variance
    assert statistic < limit(len(unseen)), statistic
