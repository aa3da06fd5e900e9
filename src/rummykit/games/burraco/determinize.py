"""A full Burraco state built from one player's observation alone, for search.

The cards the observation does not show (the deck minus the player's hand, the melds,
the discard pile and the cards seen taken with the pile) are shuffled with
``SampleStream(seed, "determinize")`` and dealt, in this order, into the other players'
unseen hand slots (seat by seat: with four players three hands, the partner's
included), the stock (its end is the top) and the pozzetti left.  One thing the
observer knows about an unseen card is kept: when another player is in the middle of
a turn with a single card, unseen, that card is one they may discard (the rules never
leave a player without a legal move), so it is drawn first, uniformly among the unseen
cards that could be it, and only the others are shuffled (every card then lands where
chance would put it, given what the observer knows).  Everything public is copied as observed; the
game's future (later deals) comes from ``seed``, never from the real game.  The
result's ``observation(player)`` equals the given one.  This module reads nothing but
the observation.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from rummykit.cards import Card, burraco_deck, format_card
from rummykit.games.burraco.legality import is_wild_in_hand
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.observation import Observation
from rummykit.games.burraco.state import State
from rummykit.games.burraco.table import POZZETTO_SIZE, PileEntry, Table
from rummykit.games.burraco.teams import TEAMS
from rummykit.games.history import History
from rummykit.games.randomness import SampleStream


class _Plan(NamedTuple):
    """What every determinization of one observation shares, worked out once: the
    unseen cards (sorted), the other seats with how many unseen cards each holds, how
    many go to the stock, and the indexes in ``hidden`` of the cards that may be the
    last card of the player to move (``None`` unless that is known of it) with where
    that card goes among the hidden places; the table's public parts as the new table
    takes them (lists copied per state)."""

    hidden: list[Card]
    others: list[tuple[int, int]]
    hidden_in_hands: int
    stock_count: int
    last_card_places: list[int] | None
    last_card_position: int
    set_ranks: list[int]
    has_burraco: list[bool]
    history: History[PileEntry]


_LAST: list[tuple[Observation, _Plan] | None] = [None]
"""The last observation planned and its plan (search determinizes one observation
many times; an observation is immutable, so its plan never changes)."""


def _plan(observation: Observation) -> _Plan:
    """The checked plan of ``observation`` (``ValueError`` if no state could show it)."""
    last = _LAST[0]
    if last is not None and last[0] is observation:
        return last[1]
    player = observation.player
    seats = range(len(observation.hand_sizes))
    unseen = Counter(burraco_deck(jokers=observation.rules.jokers))
    seen: list[Card] = list(observation.hand) + list(observation.discard_pile)
    for seat in seats:
        if seat != player:
            seen.extend(observation.known_cards[seat])
    for table_meld in observation.melds:
        seen.extend(table_meld.meld.cards)
    for card in seen:
        if unseen[card] == 0:
            raise ValueError(f"the observation shows more {format_card(card)} than the deck holds")
        unseen[card] -= 1
    hidden = sorted(unseen.elements())
    others = [
        (seat, observation.hand_sizes[seat] - len(observation.known_cards[seat]))
        for seat in seats
        if seat != player
    ]
    hidden_in_hands = sum(count for _seat, count in others)
    slots = hidden_in_hands + observation.stock_count
    slots += POZZETTO_SIZE * len(observation.pozzetti_left)
    if any(count < 0 for _seat, count in others) or slots != len(hidden):
        raise ValueError(
            f"the observation leaves {len(hidden)} unseen cards for {slots} hidden places"
        )
    places = None
    position = 0
    current = observation.current_player
    for seat, count in others:
        if (
            seat == current
            and observation.phase == "play"
            and observation.hand_sizes[seat] == count == 1
        ):
            places = _last_card_places(observation, seat, hidden)
            break
        position += count
    set_ranks = [0] * TEAMS
    has_burraco = [False] * TEAMS
    for table_meld in observation.melds:
        meld: Meld = table_meld.meld
        if meld.kind == "set":
            set_ranks[table_meld.owner] |= 1 << meld.rank
        if meld.is_burraco:
            has_burraco[table_meld.owner] = True
    plan = _Plan(
        hidden=hidden,
        others=others,
        hidden_in_hands=hidden_in_hands,
        stock_count=observation.stock_count,
        last_card_places=places,
        last_card_position=position,
        set_ranks=set_ranks,
        has_burraco=has_burraco,
        history=History(observation.discard_history),
    )
    _LAST[0] = (observation, plan)
    return plan


def determinize(observation: Observation, seed: int) -> State:
    """A state consistent with ``observation``; ``ValueError`` if no state could be.

    The observation is checked and its unseen cards listed once, then remembered for
    the next call with the same observation object (search asks for many).
    """
    if not isinstance(observation, Observation):
        raise ValueError("determinize needs a Burraco observation")
    plan = _plan(observation)
    player = observation.player
    stream = SampleStream(seed, "determinize")
    hidden = list(plan.hidden)
    if plan.last_card_places is not None:
        places = plan.last_card_places
        last = hidden.pop(places[stream.below(len(places))])
        stream.shuffle(hidden)
        hidden.insert(plan.last_card_position, last)
    else:
        stream.shuffle(hidden)
    hands: list[list[Card]] = [[] for _ in observation.hand_sizes]
    hands[player] = list(observation.hand)
    position = 0
    for seat, count in plan.others:
        hands[seat] = [*observation.known_cards[seat], *hidden[position : position + count]]
        position += count
    position += plan.stock_count
    pozzetti: list[tuple[Card, ...] | None] = [None] * 2
    for index in observation.pozzetti_left:
        pozzetti[index] = tuple(hidden[position : position + POZZETTO_SIZE])
        position += POZZETTO_SIZE
    del hidden[plan.hidden_in_hands + plan.stock_count :]
    del hidden[: plan.hidden_in_hands]
    table = Table.__new__(Table)
    table.hand_number = observation.hand_number
    table.dealer = observation.dealer
    current = observation.current_player
    table.player = (observation.dealer + 1) % len(hands) if current is None else current
    table.phase = "play" if observation.phase == "play" else "draw"
    table.turn = observation.turn
    table.hands = hands
    table.pozzetti = pozzetti
    table.discard_pile = list(observation.discard_pile)
    table.stock = hidden
    table.melds = [table_meld.meld for table_meld in observation.melds]
    table.owners = [table_meld.owner for table_meld in observation.melds]
    table.took_pozzetto = list(observation.took_pozzetto)
    table.has_burraco = list(plan.has_burraco)
    table.set_ranks = list(plan.set_ranks)
    table.known = [list(cards) for cards in observation.known_cards]
    table.restricted_card = observation.restricted_card
    table.restricted = 0 if observation.restricted_card is None else 1
    table.discard_history = plan.history.copy()
    return State.from_parts(
        rules=observation.rules,
        seed=seed,
        table=table,
        totals=observation.totals,
        hand_results=observation.hand_results,
        hand_over=observation.hand_over,
        winners=observation.winners if observation.game_over else None,
    )


def _last_card_places(observation: Observation, player: int, hidden: list[Card]) -> list[int]:
    """The indexes in ``hidden`` (sorted) of the cards that may be the single card of
    ``player``, in the middle of their turn: one they may discard (not the card taken
    alone from the pile, and not a wild if discarding it closes the hand); one is drawn
    uniformly among these unseen copies."""
    can_refill = not observation.took_pozzetto[observation.team_of(player)] and bool(
        observation.pozzetti_left
    )

    def suitable(card: Card) -> bool:
        if card == observation.restricted_card:
            return False
        return can_refill or not is_wild_in_hand(card)

    places = [index for index, card in enumerate(hidden) if suitable(card)]
    if not places:
        raise ValueError("no unseen card could be the last card of the player to move")
    return places
