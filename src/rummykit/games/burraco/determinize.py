"""A full Burraco state built from one player's observation alone, for search.

The cards the observation does not show (the deck minus the player's hand, the melds,
the discard pile and the cards seen taken with the pile) are shuffled with
``SeedStream(seed, "determinize")`` and dealt, in this order, into the other player's
unseen hand slots, the stock (its end is the top) and the pozzetti left.  One thing the
observer knows about an unseen card is kept: when the other player is in the middle of
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

from rummykit.cards import Card, burraco_deck, format_card
from rummykit.games.burraco.legality import is_wild_in_hand
from rummykit.games.burraco.observation import Observation
from rummykit.games.burraco.state import State
from rummykit.games.burraco.table import NUM_PLAYERS, POZZETTO_SIZE, Table
from rummykit.games.history import History
from rummykit.games.randomness import SeedStream


def determinize(observation: Observation, seed: int) -> State:
    """A state consistent with ``observation``; ``ValueError`` if no state could be."""
    if not isinstance(observation, Observation):
        raise ValueError("determinize needs a Burraco observation")
    player = observation.player
    other = 1 - player
    unseen = Counter(burraco_deck(jokers=observation.rules.jokers))
    seen: list[Card] = list(observation.hand) + list(observation.discard_pile)
    seen.extend(observation.known_cards[other])
    for table_meld in observation.melds:
        seen.extend(table_meld.meld.cards)
    for card in seen:
        if unseen[card] == 0:
            raise ValueError(f"the observation shows more {format_card(card)} than the deck holds")
        unseen[card] -= 1
    hidden = sorted(unseen.elements())
    stream = SeedStream(seed, "determinize")
    hidden_in_hand = observation.hand_sizes[other] - len(observation.known_cards[other])
    slots = hidden_in_hand + observation.stock_count
    slots += POZZETTO_SIZE * len(observation.pozzetti_left)
    if hidden_in_hand < 0 or slots != len(hidden):
        raise ValueError(
            f"the observation leaves {len(hidden)} unseen cards for {slots} hidden places"
        )
    if (
        observation.current_player == other
        and observation.phase == "play"
        and observation.hand_sizes[other] == hidden_in_hand == 1
    ):
        last = _a_legal_last_card(observation, other, hidden, stream)
        stream.shuffle(hidden)
        hidden.insert(0, last)
    else:
        stream.shuffle(hidden)
    hands: list[list[Card]] = [[] for _ in range(NUM_PLAYERS)]
    hands[player] = list(observation.hand)
    hands[other] = list(observation.known_cards[other]) + hidden[:hidden_in_hand]
    position = hidden_in_hand + observation.stock_count
    stock = hidden[hidden_in_hand:position]
    pozzetti: list[tuple[Card, ...] | None] = [None] * 2
    for index in observation.pozzetti_left:
        pozzetti[index] = tuple(hidden[position : position + POZZETTO_SIZE])
        position += POZZETTO_SIZE
    table = Table(
        hand_number=observation.hand_number,
        dealer=observation.dealer,
        hands=hands,
        pozzetti=pozzetti,
        discard_pile=list(observation.discard_pile),
        stock=stock,
    )
    if observation.current_player is not None:
        table.player = observation.current_player
    table.phase = "play" if observation.phase == "play" else "draw"
    table.turn = observation.turn
    for table_meld in observation.melds:
        meld = table_meld.meld
        owner = table_meld.owner
        table.melds.append(meld)
        table.owners.append(owner)
        if meld.kind == "set":
            table.set_ranks[owner] |= 1 << meld.rank
        if meld.is_burraco:
            table.has_burraco[owner] = True
    table.took_pozzetto = list(observation.took_pozzetto)
    table.known = [list(cards) for cards in observation.known_cards]
    table.restricted_card = observation.restricted_card
    table.restricted = 0 if observation.restricted_card is None else 1
    table.discard_history = History(observation.discard_history)
    return State.from_parts(
        rules=observation.rules,
        seed=seed,
        table=table,
        totals=observation.totals,
        hand_results=observation.hand_results,
        hand_over=observation.hand_over,
        winners=observation.winners if observation.game_over else None,
    )


def _a_legal_last_card(
    observation: Observation, player: int, hidden: list[Card], stream: SeedStream
) -> Card:
    """Take out of ``hidden`` (sorted) and return the single card of ``player``, in the
    middle of their turn: one they may discard (not the card taken alone from the pile,
    and not a wild if discarding it closes the hand), chosen uniformly among the unseen
    copies of such cards."""
    can_refill = not observation.took_pozzetto[player] and bool(observation.pozzetti_left)

    def suitable(card: Card) -> bool:
        if card == observation.restricted_card:
            return False
        return can_refill or not is_wild_in_hand(card)

    places = [index for index, card in enumerate(hidden) if suitable(card)]
    if not places:
        raise ValueError("no unseen card could be the last card of the player to move")
    return hidden.pop(places[stream.below(len(places))])
