"""Consistency checks for a Three-Thirteen state assembled from parts.

``State.from_parts`` (used by tests and by determinization) calls :func:`check_parts`
so that a state built by hand is one the turn flow could have reached: the cards add up
to the deck, hand sizes fit the round and the phase, the melds belong to the player who
went out.  These checks run once per assembled state, never per action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.cards import CARD_COUNT, Card
from rummykit.games.three_thirteen.rules import Rules, hand_size
from rummykit.games.three_thirteen.scoring import RoundResult
from rummykit.games.three_thirteen.table import TableMeld

PHASES = ("draw", "discard", "over")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_cards(cards: Sequence[Card], what: str) -> None:
    for card in cards:
        if not _is_int(card) or not 0 <= card < CARD_COUNT:
            raise ValueError(f"{what} holds {card!r}, which is not a card")


def is_sub_multiset(part: Sequence[Card], whole: Sequence[Card]) -> bool:
    """True if every card of ``part`` is in ``whole`` at least as many times."""
    available = Counter(whole)
    available.subtract(part)
    return min(available.values(), default=0) >= 0


def check_parts(
    *,
    rules: Rules,
    round_number: int,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    stock: Sequence[Card],
    discard_pile: Sequence[Card],
    current_player: int | None,
    phase: str,
    melds: Sequence[TableMeld],
    went_out: int | None,
    last_turns_remaining: int,
    reshuffled: bool = False,
    stock_may_hold: Sequence[Sequence[Card]] | None = None,
    known_cards: Sequence[Sequence[Card]],
    turn: int,
    hand_results: Sequence[RoundResult],
) -> None:
    """Raise ``ValueError`` naming the first part that does not fit the others."""
    players = rules.players
    if not _is_int(round_number) or round_number not in rules.rounds:
        raise ValueError(f"round {round_number!r} is not one of this game's rounds")
    if not _is_int(dealer) or not 0 <= dealer < players:
        raise ValueError(f"the dealer must be a player 0..{players - 1}, not {dealer!r}")
    if len(hands) != players or len(known_cards) != players:
        raise ValueError(f"a game of {players} players needs {players} hands")
    for player, hand in enumerate(hands):
        _check_cards(hand, f"the hand of player {player}")
    _check_cards(stock, "the stock")
    _check_cards(discard_pile, "the discard pile")
    everything = [card for hand in hands for card in hand] + list(stock) + list(discard_pile)
    for meld in melds:
        everything.extend(meld.cards)
    if Counter(everything) != Counter(rules.deck()):
        raise ValueError("the hands, stock, discard pile and melds do not make up the deck")
    if phase not in PHASES:
        raise ValueError(f"the phase is one of {', '.join(PHASES)}, not {phase!r}")
    hand_number = round_number - rules.first_round
    rounds_done = hand_number + (1 if phase == "over" else 0)
    if len(hand_results) != rounds_done:
        raise ValueError(f"{rounds_done} rounds are over, but {len(hand_results)} results given")
    for index, result in enumerate(hand_results):
        if result.round_number != rules.first_round + index or len(result.players) != players:
            raise ValueError(f"round result {index} does not fit the rules")
    if phase == "over":
        if current_player is not None or round_number != rules.last_round:
            raise ValueError("a finished game is in its last round with no current player")
    elif current_player is None or not _is_int(current_player):
        raise ValueError("a game in play needs a current player")
    elif not 0 <= current_player < players:
        raise ValueError(f"there is no player {current_player}")
    if went_out is None:
        if last_turns_remaining != 0 or melds:
            raise ValueError("no one went out, so there are no last turns and no table melds")
    else:
        if not _is_int(went_out) or not 0 <= went_out < players:
            raise ValueError(f"there is no player {went_out!r} to have gone out")
        if hands[went_out]:
            raise ValueError("the player who went out holds no card")
        if phase != "over" and not 1 <= last_turns_remaining < players:
            raise ValueError("after going out, 1 to players - 1 last turns remain")
    for index, meld in enumerate(melds):
        if meld.meld_id != index or meld.owner != went_out:
            raise ValueError("table melds are numbered from 0 and owned by who went out")
    if phase != "over":
        if phase == "draw" and not stock and not discard_pile:
            raise ValueError("a turn cannot start with both the stock and discard pile empty")
        for player, hand in enumerate(hands):
            expected = 0 if player == went_out else hand_size(round_number)
            if player == current_player and phase == "discard":
                expected += 1
            if len(hand) != expected:
                raise ValueError(f"player {player} should hold {expected} cards, not {len(hand)}")
    for player, cards in enumerate(known_cards):
        _check_cards(cards, f"the cards taken by player {player}")
        if not is_sub_multiset(cards, hands[player]):
            raise ValueError(f"player {player} does not hold every card said taken")
    if not isinstance(reshuffled, bool):
        raise ValueError(f"reshuffled is true or false, not {reshuffled!r}")
    if stock_may_hold is not None:
        if not reshuffled:
            raise ValueError("before the reshuffle no one knows what the stock may hold")
        if len(stock_may_hold) != players:
            raise ValueError(f"what the stock may hold is given per player ({players})")
        for player, cards in enumerate(stock_may_hold):
            _check_cards(cards, f"what player {player} knows the stock may hold")
            if not is_sub_multiset(stock, cards):
                raise ValueError(f"the stock holds a card player {player} knows it cannot")
    if not _is_int(turn) or turn < 0:
        raise ValueError(f"the turn number is a whole number, not {turn!r}")
