"""A clone costs the current position, not the history (issue: replay memory grew with
the square of a record's length).

Memory is counted with ``tracemalloc`` (bytes a ``clone()`` allocates and keeps, bytes a
replay keeps per step), never time.  The history still reads the same and a clone's
history stays its own.
"""

from __future__ import annotations

import copy
import pickle
import random
import tracemalloc
from typing import Any

from rummykit.games import burraco, three_thirteen
from rummykit.games.history import History
from rummykit.games.record import GameRecord, record_of, replay
from rummykit.games.registry import game_named


def clone_bytes(state: Any) -> int:
    """Bytes a ``clone()`` of ``state`` allocates and keeps (after a first clone, which
    also freezes what was logged since the previous one)."""
    state.clone()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        twin = state.clone()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert twin.events == state.events
    return kept


def long_burraco_game(actions: int, seed: int = 1) -> tuple[burraco.State, dict[int, int]]:
    """A target game no one reaches, played at random; clone costs at a few points."""
    rng = random.Random(seed)
    state = burraco.State.new(burraco.Rules(mode="target", target=1_000_000), seed)
    costs: dict[int, int] = {}
    for step in range(1, actions + 1):
        state.apply(rng.choice(list(state.legal_actions())))
        if step in (100, 200, 300) or step > actions - 3:
            costs[step] = clone_bytes(state)
    return state, costs


def test_a_burraco_clone_costs_the_same_after_2000_actions_as_after_100() -> None:
    state, costs = long_burraco_game(2_000)
    assert state.hand_number >= 3 and len(state.actions) == 2_000
    early = max(cost for step, cost in costs.items() if step <= 300)
    late = max(cost for step, cost in costs.items() if step > 300)
    # The log alone would add over 16 bytes an action (a pointer to each action and
    # to each of its events) if a clone copied it: 32 kB here.
    assert late < early * 1.5, costs


def test_a_three_thirteen_clone_costs_the_same_after_ten_rounds_as_on_a_fresh_deal() -> None:
    rules = three_thirteen.Rules(players=4, jokers=True)
    rng = random.Random(2)
    state = three_thirteen.State.new(rules, 2)
    while state.round_number < rules.last_round:
        state.apply(rng.choice(list(state.legal_actions())))
    assert len(state.actions) > 300
    fresh = three_thirteen.State.new(
        three_thirteen.Rules(players=4, jokers=True, first_round=11), 2
    )
    assert clone_bytes(state) < clone_bytes(fresh) * 1.5


def test_a_replay_keeps_the_same_memory_per_step_for_a_longer_record() -> None:
    state, _ = long_burraco_game(2_000, seed=3)
    record = record_of(game_named("burraco"), state)
    per_step = []
    for length in (500, 2_000):
        part = GameRecord(
            game=record.game,
            rules=record.rules,
            seed=record.seed,
            actions=record.actions[:length],
            totals=(),
        )
        tracemalloc.start()
        try:
            steps = list(replay(part))
            per_step.append(tracemalloc.get_traced_memory()[0] / length)
        finally:
            tracemalloc.stop()
        assert steps[-1].state.actions == state.actions[:length]
        del steps
    assert per_step[1] < per_step[0] * 1.3, per_step


def test_clones_share_the_history_yet_each_keeps_its_own() -> None:
    rng = random.Random(4)
    state = burraco.State.new(burraco.Rules(), 4)
    for _ in range(30):
        state.apply(rng.choice(list(state.legal_actions())))
    before = (state.actions, state.events)
    twins = [state.clone() for _ in range(3)]
    for twin in twins:
        twin.apply(rng.choice(list(twin.legal_actions())))
        assert twin.actions[:-1] == before[0] and len(twin.events) > len(before[1])
    state.apply(rng.choice(list(state.legal_actions())))
    assert (state.actions[:-1], state.events[: len(before[1])]) == before
    assert all(len(twin.actions) == 31 for twin in twins)
    state.actions.clear()  # a new list each time: the state's log is untouched
    assert len(state.actions) == 31


def test_a_history_reads_back_what_was_logged_across_copies() -> None:
    log = History[int](range(3))
    copies = []
    for item in range(3, 50):
        log.append(item)
        if item % 7 == 0:
            copies.append((log.copy(), item))
    assert log.to_list() == list(range(50)) == list(log) and len(log) == 50
    for older, last in copies:
        assert older.to_list() == list(range(last + 1)) and len(older) == last + 1
        older.extend([-1, -2])
        assert older.to_list()[-3:] == [last, -1, -2]
    assert log.to_list() == list(range(50))


def test_a_history_of_many_copies_pickles_and_deep_copies_flat() -> None:
    log = History[int]()
    for item in range(20_000):
        log.append(item)
        log.copy()
    for again in (pickle.loads(pickle.dumps(log)), copy.deepcopy(log)):
        assert again.to_list() == list(range(20_000))
        again.append(-1)
        assert len(again) == 20_001 and len(log) == 20_000
