"""The conformance harness: seeded random playouts that check what every game owes.

For each playout: every listed legal action is accepted by ``check``; illegal actions
are refused with a typed error and leave the state exactly as it was; every card is
always in exactly one place; totals equal the sum of the hand results; clones are
independent; shuffling what a player cannot see leaves that player's observation
unchanged (no leak); a determinized state gives back the same observation; observations
round-trip through JSON; the same seed and actions give the same events; the record
round-trips and replays to the same state; the events from a given index are the tail
of the whole log.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from rummykit.games.core import GameInfo, IllegalAction, Refusal
from rummykit.games.record import dumps, final_state, loads, record_of, replay

AnyGame = GameInfo[Any, Any, Any, Any]


@dataclass
class Tally:
    """What a run of playouts exercised, so a test can show its checks had teeth."""

    playouts: int = 0
    actions: int = 0
    refused: int = 0
    leak_checks: int = 0
    hidden_changed: int = 0
    determinized: int = 0
    hands_ended: int = 0
    refusal_codes: Counter[str] = field(default_factory=Counter)
    action_kinds: Counter[str] = field(default_factory=Counter)


def snapshot(state: Any, *, observations: bool = True) -> tuple[Any, ...]:
    """Everything that must not change when an action is refused (observations, the
    dearest part, may be left out on the cheap checks between the full ones)."""
    return (
        {k: sorted(v) for k, v in state.locations().items()},
        [state.observation(p) for p in range(state.num_players)] if observations else None,
        state.current_player,
        tuple(state.totals),
        len(state.actions),
        len(state.events),
    )


def card_multiset(state: Any) -> Counter[int]:
    counts: Counter[int] = Counter()
    for cards in state.locations().values():
        counts.update(cards)
    return counts


def check_observation_json(game: AnyGame, observation: Any) -> None:
    text = json.dumps(observation.to_json())
    assert game.observation_from_json(json.loads(text)) == observation


def check_no_leak(state: Any, rng: random.Random, tally: Tally) -> None:
    for player in range(state.num_players):
        shuffled = state.clone()
        shuffled.shuffle_hidden(player, rng.randrange(2**32))
        assert card_multiset(shuffled) == card_multiset(state)
        assert shuffled.observation(player) == state.observation(player), "observation leaks"
        tally.leak_checks += 1
        if shuffled.locations() != state.locations():
            tally.hidden_changed += 1


def check_determinization(game: AnyGame, state: Any, rng: random.Random, tally: Tally) -> None:
    player = rng.randrange(state.num_players)
    observation = state.observation(player)
    determinized = game.determinize(observation, rng.randrange(2**32))
    assert determinized.observation(player) == observation
    assert card_multiset(determinized) == card_multiset(state)
    # It must be playable: a few random moves.
    for _ in range(6):
        if determinized.game_over:
            break
        actions = list(determinized.legal_actions())
        assert actions, "a determinized state has no legal action"
        determinized.apply(rng.choice(actions))
    tally.determinized += 1


def check_refusals(state: Any, actions: list[Any], tally: Tally, *, full: bool) -> None:
    """Each of ``actions`` the state refuses is refused by ``apply`` with the same reason,
    and none of them changes the state (compared once, after them all)."""
    before = snapshot(state, observations=full)
    for action in actions:
        refusal = state.check(action)
        if refusal is None:
            continue
        assert isinstance(refusal, Refusal) and refusal.code and refusal.message
        with pytest.raises(IllegalAction) as raised:
            state.apply(action)
        assert raised.value.refusal == refusal
        tally.refused += 1
        tally.refusal_codes[refusal.code] += 1
    assert snapshot(state, observations=full) == before, "a refused action changed the state"


Chooser = Callable[[Any, list[Any], int], Any]
"""Picks the action to play: ``(state, legal_actions, step) -> action``."""


def playout(
    game: AnyGame,
    rules: Any,
    seed: int,
    *,
    expected_deck: Counter[int],
    illegal_pool: list[Any],
    tally: Tally,
    heavy_every: int = 20,
    max_actions: int = 20_000,
    choose: Chooser | None = None,
) -> Any:
    """Play one seeded game (or hand/round, as the rules say) with every check: random
    moves, or those ``choose`` picks (a bot's)."""
    rng = random.Random(seed)
    state = game.new_state(rules, seed)
    assert card_multiset(state) == expected_deck
    for step in range(max_actions):
        if state.game_over:
            break
        assert state.current_player is not None
        actions = list(state.legal_actions())
        assert actions, "a state that is not over has no legal action"
        assert len(set(actions)) == len(actions), "an action is listed twice"
        sample = actions if len(actions) <= 8 or step % heavy_every == 0 else rng.sample(actions, 8)
        for action in sample:
            assert state.check(action) is None, f"listed action {action} is refused"
        heavy = step % heavy_every == 0
        probes = rng.sample(illegal_pool, min(3, len(illegal_pool)))
        check_refusals(state, probes, tally, full=heavy)
        if heavy:
            check_no_leak(state, rng, tally)
            check_determinization(game, state, rng, tally)
            for player in range(state.num_players):
                check_observation_json(game, state.observation(player))
            twin = state.clone()
            twin_before = snapshot(state)
            twin.apply(rng.choice(actions))
            assert snapshot(state) == twin_before, "a clone shares state with its original"
            for player in range(state.num_players):
                whole = twin.events_for(player)
                start = step * 7 % (len(whole) + 2)
                assert twin.events_for(player, start) == whole[start:], "events from a start"
        action = rng.choice(actions) if choose is None else choose(state, actions, step)
        assert action in actions, f"{action!r} is not one of the legal actions"
        illegal_pool.append(action)
        if len(illegal_pool) > 200:
            del illegal_pool[: len(illegal_pool) - 200]
        events = state.apply(action)
        assert events, "an applied action yielded no event"
        tally.actions += 1
        tally.action_kinds[type(action).__name__] += 1
        if state.hand_over:
            tally.hands_ended += 1
        assert card_multiset(state) == expected_deck, "a card was lost or made"
    assert state.game_over, "the playout did not finish"
    check_totals(state)
    check_record(game, state)
    tally.playouts += 1
    return state


def check_totals(state: Any) -> None:
    """Each seat's total is the sum of its hand scores; a game of partnerships (with
    ``team_of``) scores each hand by team, and a seat's total is its team's."""
    side_of = getattr(state, "team_of", lambda seat: seat)
    sums = [0] * state.num_players
    for result in state.hand_results:
        for player in range(state.num_players):
            sums[player] += result.scores[side_of(player)]
    assert tuple(sums) == tuple(state.totals)
    assert state.winners and all(0 <= w < state.num_players for w in state.winners)


def check_record(game: AnyGame, state: Any) -> None:
    record = record_of(game, state)
    loaded = loads(dumps(record))
    assert loaded == record
    replayed = final_state(loaded)
    for player in range(state.num_players):
        assert replayed.observation(player) == state.observation(player)
        assert replayed.events_for(player) == state.events_for(player)
    assert replayed.events == state.events
    steps = list(replay(loaded))
    assert len(steps) == len(state.actions)


RulesFactory = Callable[[random.Random], Any]
