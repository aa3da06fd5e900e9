"""Three-Thirteen determinization places the unseen cards as chance would, and after
the reshuffle only where they could be (chi-square tests).

After the one reshuffle of a round every player knows what went into the stock: the
discard pile but its top card.  Each knows too which of those cards they drew since,
so the stock holds only cards of ``observation.stock_may_hold`` that the observer does
not see elsewhere, and given what the observer knows, any of them as likely as any
other.  The seeds are fixed, so each verdict is the same on every run; the limits are
the 0.1% points of the chi-square distribution (tests/chi_square.py).  A sampler that
drew the stock from every unseen card failed both tests below.
"""

from __future__ import annotations

import random
from collections import Counter

from rummykit.cards import Card
from rummykit.games.three_thirteen import DrawStock, Rules, State, TakeDiscard, determinize
from rummykit.games.three_thirteen.actions import Discard
from tests.chi_square import limit

SAMPLES = 1000


def after_a_reshuffle(*, players: int, round_number: int, seed: int, draws_after: int) -> State:
    """A game played at random (never going out, mostly drawing from the stock) until
    the stock was reshuffled and ``draws_after`` cards were drawn from the new stock."""
    rules = Rules(players=players, first_round=round_number, last_round=round_number)
    state = State.new(rules, seed)
    rng = random.Random(seed)
    reshuffled_size = None
    while True:
        seen = state.observation(0)
        if seen.reshuffled:
            if reshuffled_size is None:
                reshuffled_size = seen.stock_count
            if seen.stock_count <= reshuffled_size - draws_after and state.phase == "draw":
                return state
        if state.phase == "draw":
            take = not state.stock_count or rng.random() < 0.2
            state.apply(TakeDiscard() if take else DrawStock())
        else:
            hand = state.hand(state.current_player or 0)
            state.apply(Discard(rng.choice(hand)))


def stock_counts(state: State, player: int) -> tuple[Counter[Card], Counter[Card], int]:
    """What the sampler may put in the stock, how often it put each card there, and the
    stock size; every sample is checked to keep the observation."""
    seen = state.observation(player)
    possible = Counter(seen.stock_may_hold) & Counter(seen.unseen_cards())
    landed = Counter[Card]()
    for seed in range(SAMPLES):
        guess = determinize(seen, seed)
        assert guess.observation(player) == seen
        stock = Counter(guess.locations()["stock"])
        assert not stock - possible, "a card in the stock that cannot be there"
        landed.update(stock)
    return possible, landed, seen.stock_count


def test_after_the_reshuffle_the_stock_is_drawn_from_what_it_may_hold() -> None:
    state = after_a_reshuffle(players=2, round_number=6, seed=5, draws_after=8)
    seen = state.observation(0)
    assert seen.stock_may_hold is not None
    assert len(seen.stock_may_hold) < len(seen.unseen_cards())
    possible, landed, size = stock_counts(state, 0)
    # One deck: each possible card is in the stock with chance size/M; the counts sum to
    # SAMPLES*size, so the statistic scaled by (M-1)/M has M-1 degrees of freedom.
    cards = len(possible)
    assert sum(possible.values()) == cards and size < cards
    chance = size / cards
    statistic = sum(
        (landed[card] - SAMPLES * chance) ** 2 / (SAMPLES * chance * (1 - chance))
        for card in possible
    )
    statistic *= (cards - 1) / cards
    assert statistic < limit(cards - 1), statistic


def test_with_two_decks_every_sample_keeps_to_what_each_player_knows() -> None:
    state = after_a_reshuffle(players=4, round_number=9, seed=2, draws_after=10)
    for player in range(4):
        seen = state.observation(player)
        possible = Counter(seen.stock_may_hold) & Counter(seen.unseen_cards())
        for seed in range(50):
            guess = determinize(seen, seed)
            assert guess.observation(player) == seen
            assert not Counter(guess.locations()["stock"]) - possible


def test_before_the_reshuffle_the_stock_is_any_unseen_cards() -> None:
    rules = Rules(players=3, first_round=4, last_round=4)
    state = State.new(rules, 9)
    seen = state.observation(1)
    assert seen.stock_may_hold is None
    unseen = Counter(seen.unseen_cards())
    total = sum(unseen.values())
    size = seen.stock_count
    landed = Counter[Card]()
    for seed in range(SAMPLES // 2):
        landed.update(determinize(seen, seed).locations()["stock"])
    # Two decks: the copies of a face in the stock are hypergeometric.
    chance = size / total
    statistic = 0.0
    for card, copies in unseen.items():
        mean = SAMPLES // 2 * copies * chance
        variance = mean * (1 - chance) * (total - copies) / (total - 1)
        statistic += (landed[card] - mean) ** 2 / variance
    assert statistic < limit(len(unseen)), statistic
