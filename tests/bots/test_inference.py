"""Inference (``rummykit.bots.inference``): determinizations drawn by the likelihood of
the other seats' moves.  The sampler deals only cards that can be where it puts them,
gives a seat the cards it was seen to take (all samples agree on a hand its moves
force), is the plain determinizer's uniform deal where no move was seen (chi-square),
and moves the deals the way the model says where moves were seen."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.bots.by_game import bots_for
from rummykit.bots.inference import DiscardModel, InferenceSampler, links
from rummykit.bots.levels import BotSpecError, levels_for, make_bot
from rummykit.games.registry import game_named
from tests.chi_square import binomial_statistic, limit

GAMES = {
    "tt2": ("three-thirteen", {"players": 2, "first_round": 6, "last_round": 6}),
    "tt3": ("three-thirteen", {"players": 3, "first_round": 4, "last_round": 5}),
    "tt4-jokers": ("three-thirteen", {"players": 4, "jokers": True, "last_round": 2}),
    "burraco": ("burraco", {}),
    "burraco-four": ("burraco", {"players": 4}),
}


def _model(game: str) -> DiscardModel:
    return DiscardModel(bots_for(game).pile_reading())


def _played(game: str, options: dict[str, Any], seed: int, moves: int) -> Any:
    """A state ``moves`` actions into the game of ``seed``, played by random and greedy
    bots taking turns (still running)."""
    info = game_named(game)
    state = info.new_state(info.rules_type(**options), seed)
    bots = [make_bot(game, "greedy"), make_bot(game, "random")]
    rng = random.Random(seed)
    for _ in range(moves):
        if state.current_player is None:
            break
        legal = list(state.legal_actions())
        player = state.current_player
        previous = state
        state = state.clone()
        state.apply(bots[player % 2].decide(previous.observation(player), legal, rng).action)
        if state.current_player is None:
            return previous
    return state


def _all_cards(state: Any) -> Counter[int]:
    return Counter(card for cards in state.locations().values() for card in cards)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 80),
    pool_seed=st.integers(0, 2**32),
)
def test_the_sampler_never_deals_a_card_that_cannot_be_there(
    kind: str, seed: int, moves: int, pool_seed: int
) -> None:
    game, options = GAMES[kind]
    info = game_named(game)
    real = _played(game, options, seed, moves)
    player = real.current_player
    assert player is not None
    observation = real.observation(player)
    sampler = InferenceSampler(info, observation, _model(game), pool_seed, pool=16)
    rng = random.Random(pool_seed)
    for _ in range(4):
        deal = sampler.sample(rng)
        # everything the player sees is as seen (its hand, melds, pile, known cards,
        # counts), and the deal holds the same cards as the real game, each once
        assert deal.observation(player) == observation
        assert _all_cards(deal) == _all_cards(real)


def _forced_three_thirteen() -> tuple[Any, int]:
    """A position of round 1 (three cards) where seat 1 has taken the discard three
    times, throwing away a card it was dealt each time: its hand is forced, every card
    of it seen taken.  Returns the state (seat 0 to move) and the seat."""
    info = game_named("three-thirteen")
    state = info.new_state(info.rules_type(players=2, first_round=1, last_round=1), 21)
    greedy = make_bot("three-thirteen", "greedy")
    rng = random.Random(3)
    taken: list[int] = []
    while len(taken) < 3 or state.current_player != 0:
        player = state.current_player
        legal = list(state.legal_actions())
        if player == 1:
            take = [a for a in legal if info.format_action(a) == "take"]
            if take:
                taken.append(state.observation(1).discard_pile[-1])
                state.apply(take[0])
                continue
            dealt = [
                a
                for a in legal
                if info.format_action(a).startswith("discard ")
                and info.parse_action(info.format_action(a)).card not in taken
            ]
            state.apply(dealt[0])
            continue
        moves = [a for a in legal if not info.format_action(a).startswith("out")]
        state.apply(greedy.decide(state.observation(0), moves or legal, rng).action)
    return state, 1


def test_a_hand_forced_by_what_its_player_did_is_the_same_in_every_sample() -> None:
    state, seat = _forced_three_thirteen()
    observation = state.observation(0)
    assert sorted(observation.known_hand(seat)) == sorted(state.hand(seat))
    info = game_named("three-thirteen")
    sampler = InferenceSampler(info, observation, _model("three-thirteen"), 5)
    rng = random.Random(9)
    hands = {tuple(sorted(sampler.sample(rng).hand(seat))) for _ in range(200)}
    assert hands == {tuple(sorted(state.hand(seat)))}


def test_the_cards_a_seat_took_are_in_its_hand_in_every_sample() -> None:
    for seed in range(40):
        state = _played("burraco", {}, seed, 60)
        observation = state.observation(state.current_player)
        known = {seat: observation.known_cards[seat] for seat in range(2)}
        if not any(known[seat] for seat in known if seat != observation.player):
            continue
        sampler = InferenceSampler(game_named("burraco"), observation, _model("burraco"), seed)
        rng = random.Random(seed)
        for _ in range(50):
            deal = sampler.sample(rng)
            for seat, cards in known.items():
                assert not Counter(cards) - Counter(deal.hand_of(seat))
        return
    pytest.fail("no position of the forty games had a card seen taken")


@pytest.mark.parametrize("kind", ["tt2", "burraco"])
def test_where_no_move_was_seen_the_deal_is_uniform(kind: str) -> None:
    game, options = GAMES[kind]
    info = game_named(game)
    state = info.new_state(info.rules_type(**options), 77)
    observer = state.current_player
    observation = state.observation(observer)
    other = 1 - observer
    reading = bots_for(game).pile_reading()
    assert [e for e in reading.evidence(observation) if e.player != observer] == []
    seen = Counter(observation.hand) + Counter(observation.discard_pile)
    unseen = sorted((_all_cards(state) - seen).elements())
    hidden = observation.hand_sizes[other]
    trials = 1500
    counts: Counter[int] = Counter()
    for sample in range(trials):
        sampler = InferenceSampler(info, observation, _model(game), sample, pool=4)
        counts.update(set(reading.hand(sampler.sample(random.Random(sample)), other)))
    copies = Counter(unseen)
    # each card face is in the other hand with the chance that one of its copies is
    cells = []
    for card, copy_count in copies.items():
        missing = 1.0
        for taken in range(hidden):
            missing *= (len(unseen) - copy_count - taken) / (len(unseen) - taken)
        cells.append((counts[card], trials, 1 - missing))
    assert binomial_statistic(cells) < limit(len(cells))


def test_where_moves_were_seen_the_deals_follow_the_model() -> None:
    """The cards a seat threw away or let go by link up with fewer cards of its hand in
    the weighted deals than in the plain determinizer's."""
    game, options = GAMES["tt2"]
    info = game_named(game)
    reading = bots_for(game).pile_reading()
    plain_links = weighted_links = 0.0
    positions = 0
    for seed in range(12):
        state = _played(game, options, seed, 14)
        observer = state.current_player
        observation = state.observation(observer)
        other = 1 - observer
        seen = [e for e in reading.evidence(observation) if e.player == other]
        if not seen:
            continue
        positions += 1
        wild = reading.wild(observation)
        sampler = InferenceSampler(info, observation, _model(game), seed, pool=64)
        rng = random.Random(seed)
        for _ in range(64):
            for total, deal in (
                ("weighted", sampler.sample(rng)),
                ("plain", info.determinize(observation, rng.getrandbits(63))),
            ):
                hand = reading.hand(deal, other)
                count = sum(links(e.card, hand, wild) for e in seen)
                if total == "weighted":
                    weighted_links += count
                else:
                    plain_links += count
    assert positions >= 6
    assert weighted_links < 0.8 * plain_links


def test_expert_is_the_search_with_inference_and_takes_its_options() -> None:
    assert levels_for("three-thirteen")[-1] == "expert"
    expert = make_bot("burraco", "expert:seconds=0.1")
    assert expert.name == "expert"
    assert getattr(expert, "play_model", None) is not None and expert.seconds == 0.1  # type: ignore[attr-defined]
    assert getattr(make_bot("burraco", "ismcts"), "play_model", "missing") is None
    assert make_bot("burraco", "ismcts:inference=1").play_model is not None  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="inference is 1"):
        make_bot("burraco", "expert:inference=2")
    with pytest.raises(BotSpecError, match="unknown expert option 'depth'"):
        make_bot("burraco", "expert:depth=2")


def test_expert_and_ismcts_with_inference_choose_alike_and_reproducibly() -> None:
    state = _played("three-thirteen", GAMES["tt2"][1], 4, 12)
    player = state.current_player
    legal = list(state.legal_actions())
    moves = set()
    for spec in ("expert:iterations=60", "ismcts:iterations=60:inference=1"):
        bot = make_bot("three-thirteen", spec)
        moves.add(bot.decide(state.observation(player), legal, random.Random(1)).action)
    assert len(moves) == 1
