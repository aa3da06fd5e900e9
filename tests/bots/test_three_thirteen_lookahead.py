"""The Three-Thirteen lookahead guide of the search: its draws and discards against a
brute-force count over the unseen cards, and the cards it counts as unseen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch
from rummykit.bots.three_thirteen.greedy import ThreeThirteenGreedyBot
from rummykit.bots.three_thirteen.lookahead import MARGIN, LookaheadGuide, unseen_cards
from rummykit.bots.three_thirteen.progress import moves_with_progress
from rummykit.cards import Card, parse_cards
from rummykit.games.three_thirteen import (
    Discard,
    DrawStock,
    GoOut,
    Observation,
    Rules,
    State,
    TakeDiscard,
)
from rummykit.games.three_thirteen.arrange import deadwood
from tests.bots.test_three_thirteen_greedy import stacked


def view(state: State) -> Observation:
    player = state.current_player
    assert player is not None
    return state.observation(player)


def least(cards: Sequence[Card], wild_rank: int) -> int:
    return deadwood(cards, wild_rank=wild_rank, ace_high=False, wild_only_melds=False)


def after_best_discard(cards: Sequence[Card], wild_rank: int) -> int:
    """Brute force: the least deadwood after discarding one of ``cards``."""
    outcomes = []
    for index in range(len(cards)):
        outcomes.append(least([*cards[:index], *cards[index + 1 :]], wild_rank))
    return min(outcomes)


def brute_unseen(observation: Observation) -> list[Card]:
    deck = Counter(range(52))
    seen = [*observation.hand, *observation.discard_pile]
    for seat, cards in enumerate(observation.known_cards):
        if seat != observation.player:
            seen.extend(cards)
    deck.subtract(seen)
    return sorted(deck.elements())


def test_unseen_cards_leave_out_the_hand_the_pile_and_what_others_took() -> None:
    state = stacked(
        round_number=3,
        hands=["7h 8h 9h Kc Qd", "2c 2d 3c 4c 6s"],
        pile="Ts 9c",
        taken=["", "2c"],
    )
    unseen = unseen_cards(view(state))
    assert len(unseen) == 52 - 5 - 2 - 1
    assert not set(parse_cards("7h 8h 9h Kc Qd Ts 9c 2c")) & set(unseen)
    assert set(parse_cards("2d 3c 4c 6s")) <= set(unseen)  # the opponent's unknown cards


def test_draws_from_the_stock_when_it_promises_more_than_the_top_discard() -> None:
    # Round 3 (fives wild): 7h 8h 9h melded, Kc Qd left (20).  Greedy takes 9c for the
    # king (19); a stock card leaves 15.6 on average (any low card replaces the king as
    # well, a wild or a heart next to the run melds).
    state = stacked(round_number=3, hands=["7h 8h 9h Kc Qd", "2c 2d 3c 4c 6s"], pile="9c")
    observation = view(state)
    legal = list(state.legal_actions())
    assert ThreeThirteenGreedyBot().decide(observation, legal, random.Random(0)).action == (
        TakeDiscard()
    )
    hand = list(observation.hand)
    unseen = brute_unseen(observation)
    stock = sum(after_best_discard([*hand, card], 3) for card in unseen) / len(unseen)
    assert after_best_discard([*hand, *parse_cards("9c")], 3) == 19 > stock
    decision = LookaheadGuide().decide(observation, legal, random.Random(0))
    assert decision.action == DrawStock()
    assert decision.reason.text == "draw from the stock"


def test_takes_a_low_card_that_beats_the_stock() -> None:
    state = stacked(round_number=3, hands=["7h 8h 9h Kc Qd", "2c 2d 3c 4c 6s"], pile="Ac")
    decision = LookaheadGuide().decide(view(state), list(state.legal_actions()), random.Random(0))
    assert decision.action == TakeDiscard()
    assert decision.reason.text == "take Ac: deadwood 20 -> 11"


def discard_position(round_number: int, seed: int, moves: int) -> State:
    """A discard phase after ``moves`` moves of greedy players in one round."""
    state = State.new(Rules(first_round=round_number, last_round=round_number), seed)
    bot = ThreeThirteenGreedyBot()
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(bot.decide(view(state), list(state.legal_actions()), rng).action)
    assert state.phase == "discard" and state.went_out is None
    assert not any(type(action) is GoOut for action in state.legal_actions())
    return state


# Positions where the lookahead's discard is not greedy's.
@pytest.mark.parametrize(
    ("round_number", "seed", "moves"),
    [(6, 2, 5), (8, 4, 11), (4, 6, 9), (7, 9, 11), (8, 10, 5), (9, 11, 9)],
)
def test_discards_the_card_leaving_the_best_next_draw(
    round_number: int, seed: int, moves: int
) -> None:
    state = discard_position(round_number, seed, moves)
    observation = view(state)
    wild = observation.wild_rank
    hand = list(observation.hand)
    unseen = brute_unseen(observation)
    wood: dict[Card, int] = {}
    value: dict[Card, float] = {}
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        wood[card] = least(rest, wild)
        outcomes = [min(wood[card], after_best_discard([*rest, c], wild)) for c in unseen]
        value[card] = sum(outcomes) / len(outcomes)
    # Only the discards that keep the round moving are open: a card just taken from the
    # pile is not thrown back (rummykit.bots.progress).
    legal = list(state.legal_actions())
    open_cards = {action.card for action in moves_with_progress(observation, legal)}
    weighed = [
        card for card in wood if wood[card] <= min(wood.values()) + MARGIN and card in open_cards
    ]
    decision = LookaheadGuide().decide(observation, legal, random.Random(0))
    usual = ThreeThirteenGreedyBot().decide(observation, legal, random.Random(0))
    assert type(decision.action) is Discard and decision.action != usual.action
    assert value[decision.action.card] < value[usual.action.card]
    assert value[decision.action.card] == pytest.approx(min(value[card] for card in weighed))


def test_is_the_guide_of_the_search_and_greedy_plays_the_simulations() -> None:
    search = ThreeThirteenSearch()
    assert isinstance(search.guide, LookaheadGuide)
    assert isinstance(search.rollout_guide, ThreeThirteenGreedyBot)
