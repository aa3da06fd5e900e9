"""The deal: the documented procedure, who deals and plays first, sizes and wild ranks."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import JOKER, RANK_OF
from rummykit.games.randomness import SeedStream
from rummykit.games.three_thirteen import Rules, State
from rummykit.games.three_thirteen.events import HandDealt
from tests.three_thirteen.helpers import play_randomly


def deal_by_hand(seed: int, players: int, round_number: int, dealer: int, deck: list[int]):
    """An independent reading of docs/engine.md: shuffle, pop from the end, one at a time."""
    SeedStream(seed, f"round/{round_number}").shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(round_number + 2):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(deck.pop())
    upcard = deck.pop()
    return hands, upcard, deck


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 987654321])
def test_first_deal_follows_the_documented_procedure(players, seed):
    state = State.new(Rules(players=players), seed)
    dealer = SeedStream(seed, "first-dealer").below(players)
    deck = list(range(52)) * (1 if players == 2 else 2)
    hands, upcard, stock = deal_by_hand(seed, players, 1, dealer, deck)
    assert state.dealer == dealer
    assert state.current_player == (dealer + 1) % players
    assert state.phase == "draw"
    assert state.round_number == 1 and state.hand_number == 0 and state.wild_rank == 3
    for player in range(players):
        assert sorted(state.hand(player)) == sorted(hands[player])
        assert state.locations()[f"hand/{player}"] == hands[player]
    assert state.discard_pile == (upcard,)
    assert state.locations()["stock"] == stock
    dealt = state.events[0]
    assert isinstance(dealt, HandDealt)
    assert dealt.dealer == dealer and dealt.discard_pile == (upcard,)
    assert dealt.stock_count == len(stock)


def test_jokers_are_in_the_deck():
    state = State.new(Rules(players=3, jokers=True), 5)
    everything = [card for cards in state.locations().values() for card in cards]
    assert len(everything) == 108 and everything.count(JOKER) == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_deals_its_size_and_the_deal_passes_left(players):
    seed = 40 + players
    state = State.new(Rules(players=players), seed)
    first = SeedStream(seed, "first-dealer").below(players)
    play_randomly(state, random.Random(seed))
    deals = [event for event in state.events if isinstance(event, HandDealt)]
    assert [deal.round_number for deal in deals] == list(range(1, 12))
    for index, deal in enumerate(deals):
        round_number = index + 1
        assert deal.dealer == (first + index) % players
        assert deal.wild_rank == round_number + 2
        assert deal.hands is not None
        assert all(hand is not None and len(hand) == round_number + 2 for hand in deal.hands)
        deck = list(range(52)) * (1 if players == 2 else 2)
        hands, upcard, stock = deal_by_hand(seed, players, round_number, deal.dealer, deck)
        assert deal.hands == tuple(tuple(sorted(hand)) for hand in hands)
        assert deal.discard_pile == (upcard,) and deal.stock_count == len(stock)
    assert [result.dealer for result in state.hand_results] == [d.dealer for d in deals]
    assert [result.wild_rank for result in state.hand_results] == list(range(3, 14))


def test_first_player_of_each_round_sits_left_of_the_dealer():
    state = State.new(Rules(players=4, last_round=4), 3)
    rng = random.Random(3)
    starts = [(state.dealer, state.current_player)]
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
        if state.hand_over and not state.game_over:
            starts.append((state.dealer, state.current_player))
            assert state.phase == "draw"
    assert len(starts) == 4
    assert all(first == (dealer + 1) % 4 for dealer, first in starts)


def test_a_stacked_deck_replaces_the_first_shuffle():
    rules = Rules()
    deck = list(range(52))
    state = State.new(rules, 8, deck=deck)
    dealer = SeedStream(8, "first-dealer").below(2)
    first, second = (dealer + 1) % 2, dealer
    # Dealt from the end: 51 to the first player, 50 to the second, and so on.
    assert sorted(state.hand(first)) == [47, 49, 51]
    assert sorted(state.hand(second)) == [46, 48, 50]
    assert state.discard_pile == (45,)
    assert state.locations()["stock"] == list(range(45))
    with pytest.raises(ValueError, match="stacked deck"):
        State.new(rules, 8, deck=list(range(51)))


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    def record(seed):
        state = State.new(Rules(last_round=3), seed)
        play_randomly(state, random.Random(1))
        return state.events

    assert record(11) == record(11)
    assert record(11) != record(12)


def test_wild_rank_is_the_cards_dealt():
    state = State.new(Rules(first_round=9, last_round=9), 2)
    assert state.wild_rank == 11 == len(state.hand(0))
    assert RANK_OF[state.wild_rank - 1] == 11
