"""Seeded random playouts that check the state's invariants at every step.

Every listed action is legal and applies; ``check`` agrees with ``legal_actions`` on every
possible action; refused actions leave the state unchanged; the cards always make up the
deck; totals are the sums of the round results; clones are independent; shuffling what a
player cannot see leaves their observation unchanged; a determinized state shows the same
observation and plays on to the end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.games.core import IllegalAction
from rummykit.games.randomness import SeedStream
from rummykit.games.three_thirteen import GAME, GoOut, Rules, State, determinize
from rummykit.games.three_thirteen.dealing import deal_round
from rummykit.games.three_thirteen.events import HandDealt, StockDrawn
from tests.three_thirteen.helpers import ALL_ACTIONS, play_randomly


def deck_of(state: State) -> Counter[int]:
    counts: Counter[int] = Counter()
    for cards in state.locations().values():
        counts.update(cards)
    return counts


def snapshot(state: State):
    return (
        state.locations(),
        [state.observation(p) for p in range(state.num_players)],
        state.current_player,
        state.phase,
        state.totals,
        len(state.actions),
        len(state.events),
    )


def check_no_leak(state: State, rng: random.Random) -> bool:
    """Shuffle each player's unseen cards; return whether anything moved."""
    moved = False
    for player in range(state.num_players):
        shuffled = state.clone()
        shuffled.shuffle_hidden(player, rng.randrange(2**32))
        assert deck_of(shuffled) == deck_of(state)
        assert shuffled.observation(player) == state.observation(player)
        # What the player holds and what they saw taken stays where it was.
        assert shuffled.hand(player) == state.hand(player)
        moved = moved or shuffled.locations() != state.locations()
    return moved


def check_determinization(state: State, rng: random.Random, *, to_the_end: bool) -> None:
    player = rng.randrange(state.num_players)
    observation = state.observation(player)
    seed = rng.randrange(2**32)
    guess = determinize(observation, seed)
    assert guess.observation(player) == observation
    assert deck_of(guess) == deck_of(state)
    assert guess.seed == seed and guess.totals == state.totals
    for opponent in range(state.num_players):
        if opponent != player and not state.game_over:
            assert Counter(observation.known_cards[opponent]) <= Counter(guess.hand(opponent))
    if to_the_end:
        play_randomly(guess, rng)
        assert len(guess.hand_results) == len(state.rules.rounds)


def playout(rules: Rules, seed: int, *, heavy_every: int = 15) -> State:
    rng = random.Random(seed)
    state = State.new(rules, seed)
    expected = Counter(rules.deck())
    step = 0
    moved = 0
    while not state.game_over:
        legal = list(state.legal_actions())
        assert legal and len(set(legal)) == len(legal)
        for action in legal:
            assert state.check(action) is None
        if step % heavy_every == 0:
            refused = [a for a in ALL_ACTIONS if state.check(a) is not None]
            assert set(ALL_ACTIONS) - set(refused) == set(legal)
            before = snapshot(state)
            for illegal in rng.sample(refused, 3):
                with pytest.raises(IllegalAction) as raised:
                    state.apply(illegal)
                assert raised.value.refusal == state.check(illegal)
            assert snapshot(state) == before
            moved += check_no_leak(state, rng)
            check_determinization(state, rng, to_the_end=False)
            twin = state.clone()
            twin.apply(rng.choice(legal))
            assert snapshot(state) == before, "a clone shares state with its original"
        events = state.apply(rng.choice(legal))
        assert events
        assert deck_of(state) == expected
        step += 1
    assert moved > 0, "shuffle_hidden never moved a card: the no-leak check had no teeth"
    sums = tuple(sum(r.scores[p] for r in state.hand_results) for p in range(rules.players))
    assert state.totals == sums
    assert state.winners == tuple(p for p in range(rules.players) if sums[p] == min(sums))
    assert len(state.hand_results) == len(rules.rounds)
    check_no_leak(state, rng)
    check_determinization(state, rng, to_the_end=False)
    return state


CONFIGS = [
    Rules(first_round=1, last_round=2),
    Rules(first_round=10, last_round=11),
    Rules(players=3, first_round=6, last_round=7),
    Rules(players=4, jokers=True, first_round=3, last_round=4),
    Rules(players=2, jokers=True, ace_high=True, wild_only_melds=True, first_round=8, last_round=9),
]


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: f"{r.players}p-r{r.first_round}")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_keep_every_invariant(rules, seed):
    playout(rules, seed)


def test_a_whole_game_with_every_round():
    state = playout(Rules(), 2024, heavy_every=60)
    assert [r.round_number for r in state.hand_results] == list(range(1, 12))


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 4),
    round_number=st.integers(1, 11),
    jokers=st.booleans(),
)
def test_determinized_states_play_to_the_end(seed, players, round_number, jokers):
    rules = Rules(players=players, jokers=jokers, first_round=round_number, last_round=round_number)
    rng = random.Random(seed)
    state = State.new(rules, seed)
    for _ in range(rng.randrange(60)):
        if state.game_over:
            break
        state.apply(rng.choice(list(state.legal_actions())))
    check_determinization(state, rng, to_the_end=True)


def test_determinization_uses_the_new_seed_for_what_comes_next():
    rules = Rules(first_round=3, last_round=4)
    state = State.new(rules, 31)
    observation = state.observation(0)
    guess = determinize(observation, 5)
    play_randomly(guess, random.Random(0))
    dealt = [e for e in guess.events if isinstance(e, HandDealt)]
    assert len(dealt) == 1 and dealt[0].round_number == 4
    expected = deal_round(rules=rules, seed=5, round_number=4, dealer=dealt[0].dealer)
    assert dealt[0].hands == tuple(tuple(sorted(hand)) for hand in expected.hands)
    assert dealt[0].dealer == (state.dealer + 1) % 2
    # The unseen cards are spread by the new seed, not copied from the real game.
    guesses = {determinize(observation, seed).locations()["stock"].__repr__() for seed in range(5)}
    assert len(guesses) == 5


def test_determinize_refuses_what_is_not_an_observation():
    with pytest.raises(ValueError, match="Observation"):
        determinize("observation", 1)  # type: ignore[arg-type]


def test_clone_is_independent_and_equal():
    state = State.new(Rules(players=3, first_round=5, last_round=5), 12)
    rng = random.Random(12)
    for _ in range(30):
        state.apply(rng.choice(list(state.legal_actions())))
    twin = state.clone()
    assert snapshot(twin) == snapshot(state) and twin.events == state.events
    before = snapshot(state)
    play_randomly(twin, rng)
    assert twin.game_over and not state.game_over
    assert snapshot(state) == before


def test_replaying_the_actions_gives_the_same_events():
    state = State.new(Rules(players=3, first_round=2, last_round=4), 99)
    play_randomly(state, random.Random(99))
    replayed = GAME.new_state(state.rules, state.seed)
    for action in state.actions:
        replayed.apply(GAME.parse_action(GAME.format_action(action)))
    assert replayed.events == state.events
    for player in range(3):
        assert replayed.events_for(player) == state.events_for(player)
        assert replayed.observation(player) == state.observation(player)
        assert len(state.events_for(player)) == len(state.events)
        for event in state.events_for(player):
            if isinstance(event, StockDrawn):
                assert (event.card is None) == (event.player != player)
    went_out = [r.went_out for r in state.hand_results if r.went_out is not None]
    assert len(went_out) == sum(isinstance(a, GoOut) for a in state.actions)


def test_shuffle_hidden_uses_its_documented_stream():
    state = State.new(Rules(), 6)
    shuffled = state.clone()
    shuffled.shuffle_hidden(0, 17)
    opponent_hand = state.locations()["hand/1"]
    pool = state.locations()["stock"] + opponent_hand
    SeedStream(17, "shuffle-hidden").shuffle(pool)
    assert shuffled.locations()["hand/1"] == pool[-len(opponent_hand) :]
    assert shuffled.locations()["stock"] == pool[: -len(opponent_hand)]
    with pytest.raises(ValueError):
        state.shuffle_hidden(2, 1)
