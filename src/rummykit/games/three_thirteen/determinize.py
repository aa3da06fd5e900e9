"""Determinization: a full Three-Thirteen state built from one player's observation alone.

The cards the observer cannot place (the deck minus their hand, the discard pile, the
table melds and the cards opponents were seen to take) are dealt with
``SampleStream(seed, "determinize")``.  Before the round's reshuffle they are shuffled
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
from typing import NamedTuple

from rummykit.cards import Card
from rummykit.games.randomness import SampleStream, check_seed
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.state import State


class _Plan(NamedTuple):
    """What every determinization of one observation shares, worked out once: the
    unseen cards (sorted), the cards the stock may hold among them (sorted; ``None``
    before the reshuffle), and per seat the cards known in its hand and how many are
    hidden (``None`` for the observer)."""

    unseen: list[Card]
    stock_may_hold: list[Card] | None
    seats: list[tuple[list[Card], int] | None]
    stock_may_hold_per_player: list[tuple[Card, ...]] | None


_LAST: list[tuple[Observation, _Plan] | None] = [None]
"""The last observation planned and its plan (search determinizes one observation
many times; an observation is immutable, so its plan never changes)."""


def _plan(observation: Observation) -> _Plan:
    """The checked plan of ``observation`` (``ValueError`` if it cannot be dealt)."""
    last = _LAST[0]
    if last is not None and last[0] is observation:
        return last[1]
    observation.check_cards()
    unseen = observation.unseen_cards()
    possible: list[Card] | None = None
    if observation.stock_may_hold is not None:
        possible = sorted((Counter(observation.stock_may_hold) & Counter(unseen)).elements())
        if len(possible) < observation.stock_count:
            raise ValueError("the stock holds more cards than it may hold")
    seats: list[tuple[list[Card], int] | None] = []
    hidden_total = 0
    for seat in range(observation.rules.players):
        if seat == observation.player:
            seats.append(None)
            continue
        known = list(observation.known_hand(seat))
        hidden = observation.hand_sizes[seat] - len(known)
        seats.append((known, hidden))
        hidden_total += hidden
    dealt = len(unseen) if possible is None else len(unseen) - observation.stock_count
    if hidden_total > dealt:
        raise ValueError("the observation hides fewer cards than the hands need")
    if dealt - hidden_total != (observation.stock_count if possible is None else 0):
        raise ValueError("the observation's stock count does not fit its hidden cards")
    per_player = None
    if observation.stock_may_hold is not None:
        per_player = [observation.stock_may_hold] * observation.rules.players
    plan = _Plan(unseen, possible, seats, per_player)
    _LAST[0] = (observation, plan)
    return plan


def determinize(observation: Observation, seed: int) -> State:
    """A state whose ``observation(observation.player)`` equals ``observation``.

    >>> from rummykit.games.three_thirteen.rules import Rules
    >>> real = State.new(Rules(players=3), seed=11)
    >>> seen = real.observation(0)
    >>> guess = determinize(seen, seed=99)
    >>> guess.observation(0) == seen, guess.hand(0) == real.hand(0)
    (True, True)

    The observation is checked and its unseen cards listed once, then remembered for
    the next call with the same observation object (search asks for many).
    """
    if not isinstance(observation, Observation):
        raise ValueError(f"determinize needs an Observation, not {type(observation).__name__}")
    check_seed(seed)
    plan = _plan(observation)
    stream = SampleStream(seed, "determinize")
    stock: list[Card] | None = None
    if plan.stock_may_hold is not None:
        possible = list(plan.stock_may_hold)
        stream.shuffle(possible)
        stock = possible[: observation.stock_count]
        unseen = sorted((Counter(plan.unseen) - Counter(stock)).elements())
    else:
        unseen = list(plan.unseen)
    stream.shuffle(unseen)
    hands: list[list[Card]] = []
    for seat in plan.seats:
        if seat is None:
            hands.append(list(observation.hand))
            continue
        known, hidden = seat
        end = len(unseen) - hidden
        hands.append(known + unseen[end:])
        del unseen[end:]
    if stock is None:
        stock = unseen
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
        stock_may_hold=plan.stock_may_hold_per_player,
        known_cards=observation.known_cards,
        discard_history=observation.discard_history,
        turn=observation.turn,
        hand_results=observation.hand_results,
        hand_over=observation.hand_over,
        check=False,
    )
