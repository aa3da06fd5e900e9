"""Seeded random Burraco playouts checking the engine's invariants.

Every listed action is legal and applies; ``check`` agrees with ``apply``; illegal
actions are refused with the state unchanged; the listing agrees with ``check`` on
every sub-multiset of small hands; every card is always somewhere; totals add up;
clones are independent; shuffling what a player cannot see leaves their observation
unchanged (with four players for every seat: the partner's hand is shuffled too);
determinized states give back the observation and play on to the end.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.cards import burraco_deck
from rummykit.games.burraco import (
    Action,
    Discard,
    DrawStock,
    Extend,
    Meld,
    Observation,
    Rules,
    State,
    TakePile,
    determinize,
    format_action,
    parse_action,
)
from rummykit.games.burraco.results import game_winners
from rummykit.games.core import IllegalAction

HEAVY_EVERY = 15


def deck_counts(state: State) -> Counter[int]:
    counts: Counter[int] = Counter()
    for cards in state.locations().values():
        counts.update(cards)
    return counts


def snapshot(state: State) -> tuple[Any, ...]:
    return (
        state.locations(),
        *(state.observation(seat) for seat in range(state.num_players)),
        len(state.events),
        len(state.actions),
        state.totals,
        state.current_player,
    )


def illegal_candidates(state: State, rng: random.Random) -> list[object]:
    """Actions that are often illegal here: the other phase, cards not held, foreign melds."""
    player = state.current_player
    assert player is not None
    hand = state.locations()[f"hand/{player}"]
    other_hand = state.locations()[f"hand/{(player + 1) % state.num_players}"]
    guesses: list[object] = [DrawStock(), TakePile(), Extend(99, (0,)), "draw", Discard(53)]
    if hand:
        guesses.append(Discard(rng.choice(hand)))
        guesses.append(Meld(tuple(rng.sample(hand, min(3, len(hand))))))
    if other_hand:
        guesses.append(Discard(rng.choice(other_hand)))
    melds = state.observation(player).melds
    if melds and hand:
        guesses.append(Extend(rng.choice(melds).meld_id, (rng.choice(hand),)))
    return guesses


def check_refusals(state: State, rng: random.Random) -> int:
    refused = 0
    for action in illegal_candidates(state, rng):
        refusal = state.check(action)
        if refusal is None:
            continue
        before = snapshot(state)
        with pytest.raises(IllegalAction) as raised:
            state.apply(action)  # type: ignore[arg-type]
        assert raised.value.refusal == refusal
        assert snapshot(state) == before
        refused += 1
    return refused


def check_listing_against_check(state: State, listed: set[Action]) -> None:
    """In ``play`` with a small hand: every meld, single extension and discard that
    ``check`` accepts is listed, and nothing else."""
    player = state.current_player
    assert player is not None
    hand = sorted(state.locations()[f"hand/{player}"])
    accepted_melds = set()
    for size in range(3, len(hand) + 1):
        for chosen in set(itertools.combinations(hand, size)):
            if state.check(Meld(chosen)) is None:
                accepted_melds.add(tuple(sorted(chosen)))
    listed_melds = {tuple(sorted(a.cards)) for a in listed if isinstance(a, Meld)}
    assert listed_melds == accepted_melds
    melds = state.observation(player).melds
    for card in set(hand):
        assert (state.check(Discard(card)) is None) == (Discard(card) in listed)
        for meld in melds:
            extension = Extend(meld.meld_id, (card,))
            assert (state.check(extension) is None) == (extension in listed)


def check_heavy(state: State, rng: random.Random, actions: list[Action]) -> None:
    for player in range(state.num_players):
        seen = state.observation(player)
        assert Observation.from_json(json.loads(json.dumps(seen.to_json()))) == seen
        shuffled = state.clone()
        shuffled.shuffle_hidden(player, rng.randrange(2**32))
        assert deck_counts(shuffled) == deck_counts(state)
        assert shuffled.observation(player) == seen, "an observation leaks hidden cards"
        rebuilt = determinize(seen, rng.randrange(2**32))
        assert rebuilt.observation(player) == seen
        assert deck_counts(rebuilt) == deck_counts(state)
        for _ in range(8):
            if rebuilt.game_over:
                break
            rebuilt.apply(rng.choice(list(rebuilt.legal_actions())))
    twin = state.clone()
    before = snapshot(state)
    twin.apply(rng.choice(actions))
    assert snapshot(state) == before, "a clone shares state with its original"


def playout(rules: Rules, seed: int, tally: Counter[str]) -> State:
    rng = random.Random(seed)
    state = State.new(rules, seed)
    deck = Counter(burraco_deck(jokers=rules.jokers))
    step = 0
    while not state.game_over:
        actions = list(state.legal_actions())
        assert actions, "a state that is not over has no legal action"
        listed = set(actions)
        assert len(listed) == len(actions), "an action is listed twice"
        for action in actions:
            assert state.check(action) is None, action
            assert parse_action(format_action(action)) == action
        if state.phase == "play" and len(state.locations()[f"hand/{state.current_player}"]) <= 8:
            check_listing_against_check(state, listed)
            tally["listing_checks"] += 1
        tally["refused"] += check_refusals(state, rng)
        if step % HEAVY_EVERY == 0:
            check_heavy(state, rng, actions)
            tally["heavy"] += 1
        action = rng.choice(actions)
        events = state.apply(action)
        assert events and state.events[-len(events) :] == events
        tally[type(action).__name__] += 1
        assert deck_counts(state) == deck, "a card was lost or made"
        step += 1
    sums = [sum(r.scores[team] for r in state.hand_results) for team in (0, 1)]
    assert tuple(sums) == state.hand_results[-1].totals
    assert state.totals == tuple(sums[seat % 2] for seat in range(rules.players))
    for result in state.hand_results:
        assert result.scores == tuple(b.total for b in result.breakdown)
        tally[result.reason] += 1
    assert state.winners == game_winners(rules, state.totals, hands_played=len(state.hand_results))
    assert list(state.legal_actions()) == []
    return state


RULE_SETS = {
    "default": Rules(),
    "jokers4-free-sets": Rules(jokers=4, one_set_per_rank=False),
    "target": Rules(mode="target", target=1005),
    "stalemate": Rules(stalemate_turns=40),
    "four": Rules(players=4),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_random_playouts(name: str) -> None:
    rules = RULE_SETS[name]
    tally: Counter[str] = Counter()
    for seed in range(3 if rules.mode == "target" else 6):
        playout(rules, seed, tally)
    if name == "stalemate":
        assert tally["stalemate"] == 6
    if name == "target":
        assert tally["closed"] + tally["stock_exhausted"] > 4  # several hands per game
    # The checks had teeth: every kind of action and many refusals happened.
    for kind in ("DrawStock", "TakePile", "Meld", "Extend", "Discard"):
        assert tally[kind] > 0, kind
    assert tally["refused"] > 100 and tally["heavy"] > 20 and tally["listing_checks"] > 0


def test_same_seed_same_game() -> None:
    first = playout(Rules(), 3, Counter())
    again = playout(Rules(), 3, Counter())
    assert first.events == again.events and first.actions == again.actions
    for player in (0, 1):
        assert first.events_for(player) == again.events_for(player)


def test_determinized_states_play_to_the_end() -> None:
    rng = random.Random(5)
    state = State.new(Rules(), 5)
    for step in range(200):
        if state.game_over:
            break
        if step % 40 == 7:
            for player in (0, 1):
                rebuilt = determinize(state.observation(player), rng.randrange(2**32))
                moves = 0
                while not rebuilt.game_over:
                    rebuilt.apply(rng.choice(list(rebuilt.legal_actions())))
                    moves += 1
                assert moves > 0 and rebuilt.winners
        state.apply(rng.choice(list(state.legal_actions())))


def test_record_replays_the_game() -> None:
    from rummykit.games import burraco
    from rummykit.games.record import dumps, final_state, loads, record_of

    state = playout(Rules(), 6, Counter())
    record = loads(dumps(record_of(burraco.GAME, state)))
    replayed = final_state(record)
    assert replayed.events == state.events
    assert replayed.observation(0) == state.observation(0)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    steps=st.integers(min_value=0, max_value=120),
    jokers=st.sampled_from([2, 4]),
)
def test_any_seed_walk_keeps_the_invariants(seed: int, steps: int, jokers: int) -> None:
    rules = Rules(jokers=jokers)
    state = State.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.game_over:
            break
        state.apply(rng.choice(list(state.legal_actions())))
    assert deck_counts(state) == Counter(burraco_deck(jokers=jokers))
    for player in (0, 1):
        seen = state.observation(player)
        assert Observation.from_json(json.loads(json.dumps(seen.to_json()))) == seen
        assert determinize(seen, seed).observation(player) == seen
    if not state.game_over:
        assert any(True for _ in state.legal_actions())
