"""Determinization: a full Three-Thirteen state built from one player's observation alone.

The cards the observer cannot place (the deck minus their hand, the discard pile, the
table melds and the cards opponents were seen to take) are dealt with
``SeedStream(seed, "determinize")``.  Before the round's reshuffle they are shuffled
and dealt, from the end of the list, into each opponent's hidden slots in seat order;
the rest becomes the stock.  After it the stock can hold only cards that were
reshuffled into it and that the observer neither drew since nor sees elsewhere
(``Observation.stock_may_hold``): the stock is drawn first, uniformly among those, and
the other unseen cards are shuffled into the opponents' hidden slots.  The new state plays
on with ``seed`` as its own seed, so later reshuffles and deals come from ``seed`` and
never from the real game.  Search algorithms sample many determinizations; this module
never sees the real state.
"""

from __future__ import annotations

from collections import Counter

from rummykit.cards import Card
from rummykit.games.randomness import SeedStream, check_seed
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.state import State


def determinize(observation: Observation, seed: int) -> State:
    """A state whose ``observation(observation.player)`` equals ``observation``.

    >>> from rummykit.games.three_thirteen.rules import Rules
    >>> real = State.new(Rules(players=3), seed=11)
    >>> seen = real.observation(0)
    >>> guess = determinize(seen, seed=99)
    >>> guess.observation(0) == seen, guess.hand(0) == real.hand(0)
    (True, True)
    """
    if not isinstance(observation, Observation):
        raise ValueError(f"determinize needs an Observation, not {type(observation).__name__}")
    check_seed(seed)
    observation.check_cards()
    unseen = observation.unseen_cards()
    stream = SeedStream(seed, "determinize")
    stock: list[Card] | None = None
    if observation.stock_may_hold is not None:
        possible = sorted((Counter(observation.stock_may_hold) & Counter(unseen)).elements())
        if len(possible) < observation.stock_count:
            raise ValueError("the stock holds more cards than it may hold")
        stream.shuffle(possible)
        stock = possible[: observation.stock_count]
        unseen = sorted((Counter(unseen) - Counter(stock)).elements())
    stream.shuffle(unseen)
    hands: list[list[Card]] = []
    for seat in range(observation.rules.players):
        if seat == observation.player:
            hands.append(list(observation.hand))
            continue
        known = list(observation.known_hand(seat))
        hidden = observation.hand_sizes[seat] - len(known)
        if hidden > len(unseen):
            raise ValueError("the observation hides fewer cards than the hands need")
        hands.append(known + unseen[len(unseen) - hidden :])
        del unseen[len(unseen) - hidden :]
    if stock is None:
        stock = unseen
    elif unseen:
        raise ValueError("the observation's stock count does not fit its hidden cards")
    if len(stock) != observation.stock_count:
        raise ValueError("the observation's stock count does not fit its hidden cards")
    return State.from_parts(
        rules=observation.rules,
        seed=seed,
        round_number=observation.round_number,
        dealer=observation.dealer,
        hands=hands,
        stock=stock,
        discard_pile=observation.discard_pile,
        current_player=observation.current_player,
        phase=observation.phase,
        melds=observation.melds,
        went_out=observation.went_out,
        last_turns_remaining=observation.last_turns_remaining,
        reshuffled=observation.reshuffled,
        stock_may_hold=(
            None
            if observation.stock_may_hold is None
            else [observation.stock_may_hold] * observation.rules.players
        ),
        known_cards=observation.known_cards,
        discard_history=observation.discard_history,
        turn=observation.turn,
        hand_results=observation.hand_results,
        hand_over=observation.hand_over,
    )
