"""Observations: what they show, their JSON round trip and refusal of malformed JSON."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit.games.three_thirteen import GAME, Observation, Rules, State
from rummykit.games.three_thirteen.actions import TakeDiscard
from tests.three_thirteen.helpers import cards, play_randomly, stacked


def states_along_a_game(rules: Rules, seed: int, every: int) -> list[State]:
    """Snapshots of one random game, every ``every`` actions, and its end."""
    rng = random.Random(seed)
    state = State.new(rules, seed)
    snapshots = [state.clone()]
    step = 0
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
        step += 1
        if step % every == 0 or state.hand_over:
            snapshots.append(state.clone())
    return snapshots


@pytest.mark.parametrize(
    "rules",
    [
        Rules(first_round=1, last_round=3),
        Rules(players=3, jokers=True, first_round=9, last_round=10),
        Rules(players=4, ace_high=True, wild_only_melds=True, first_round=5, last_round=6),
    ],
)
def test_json_round_trip(rules):
    for state in states_along_a_game(rules, 5, every=37):
        for player in range(rules.players):
            observation = state.observation(player)
            text = json.dumps(observation.to_json())
            assert Observation.from_json(json.loads(text)) == observation
            assert GAME.observation_from_json(json.loads(text)) == observation


def test_what_an_observation_shows():
    rules = Rules(players=3)
    state = stacked(
        rules=rules,
        hands=["Qh 2c 9d", "4s 9s Qd", "Ac Ad 6h"],
        round_number=1,
        discard_pile="7c Qh",
        current=0,
        dealer=2,
    )
    state.apply(TakeDiscard())
    seen = state.observation(1)
    assert seen.player == 1 and seen.hand == tuple(sorted(cards("4s 9s Qd")))
    assert seen.hand_sizes == (4, 3, 3)
    assert seen.discard_pile == state.discard_pile and seen.stock_count == state.stock_count
    assert [(m.player, m.kind, m.card) for m in seen.discard_history] == [
        (0, "take", cards("Qh")[0])
    ]
    assert seen.known_cards == ((cards("Qh")[0],), (), ())
    assert (seen.current_player, seen.phase, seen.dealer, seen.round_number) == (0, "discard", 2, 1)
    assert seen.wild_rank == 3 and seen.went_out is None and seen.last_turns_remaining == 0
    assert seen.hand_results == () and seen.totals == (0, 0, 0) and seen.winners == ()
    # No field holds another player's hidden cards or the stock.
    text = json.dumps(seen.to_json())
    for hidden in ("2c", "9d", "Ac", "Ad", "6h"):
        assert f'"{hidden}"' not in text


def valid_json(players: int = 2, seed: int = 3, steps: int = 25) -> dict[str, Any]:
    rng = random.Random(seed)
    state = State.new(Rules(players=players, first_round=4, last_round=5), seed)
    for _ in range(steps):
        state.apply(rng.choice(list(state.legal_actions())))
    return state.observation(0).to_json()


def finished_json() -> dict[str, Any]:
    state = State.new(Rules(first_round=2, last_round=2), 9)
    play_randomly(state, random.Random(9))
    return state.observation(1).to_json()


def mutated(change) -> dict[str, Any]:
    data = copy.deepcopy(valid_json())
    change(data)
    return data


BAD = {
    "empty object": lambda d: d.clear(),
    "missing field": lambda d: d.pop("hand"),
    "unknown field": lambda d: d.update({"stock": ["Ah"]}),
    "wrong version": lambda d: d.update({"version": 1}),
    "bad rules": lambda d: d.update({"rules": {"players": 9}}),
    "unknown rule": lambda d: d["rules"].update({"pozzetti": 2}),
    "bad card name": lambda d: d.update({"hand": ["Zz", *d["hand"][1:]]}),
    "card not a string": lambda d: d.update({"discard_pile": [5]}),
    "hand size mismatch": lambda d: d["hand_sizes"].__setitem__(0, 99),
    "hand sizes length": lambda d: d["hand_sizes"].append(3),
    "negative stock": lambda d: d.update({"stock_count": -1}),
    "stock count off": lambda d: d.update({"stock_count": d["stock_count"] + 1}),
    "stock count bool": lambda d: d.update({"stock_count": True}),
    "player out of range": lambda d: d.update({"player": 2}),
    "bad phase": lambda d: d.update({"phase": "meld"}),
    "no current player": lambda d: d.update({"current_player": None}),
    "wrong wild rank": lambda d: d.update({"wild_rank": 3}),
    "wrong hand number": lambda d: d.update({"hand_number": 5}),
    "round out of range": lambda d: d.update({"round_number": 11}),
    "totals off": lambda d: d.update({"totals": [1, 0]}),
    "winners before the end": lambda d: d.update({"winners": [0]}),
    "duplicate card": lambda d: d.update({"discard_pile": d["discard_pile"] + [d["hand"][0]]}),
    "joker without jokers": lambda d: d.update({"discard_pile": d["discard_pile"] + ["Jk"]}),
    "history not a list": lambda d: d.update({"discard_history": "take"}),
    "bad history move": lambda d: d.update(
        {"discard_history": [{"player": 0, "kind": "meld", "card": "Ah"}]}
    ),
    "taken not held": lambda d: d["known_cards"].__setitem__(1, ["Ah"] * 9),
    "meld of two": lambda d: d.update(
        {"melds": [{"meld_id": 0, "owner": 0, "kind": "set", "cards": ["Ah", "Ad"]}]}
    ),
    "reshuffled not bool": lambda d: d.update({"reshuffled": "no"}),
    "results without rounds": lambda d: d.update({"hand_results": [{}]}),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_json_is_refused_with_a_message(name):
    data = mutated(BAD[name])
    with pytest.raises(ValueError) as raised:
        Observation.from_json(data)
    assert str(raised.value)


@pytest.mark.parametrize("data", [None, [], "observation", 3])
def test_json_that_is_not_an_object(data):
    with pytest.raises(ValueError, match="JSON object"):
        Observation.from_json(data)


def test_finished_game_results_are_checked():
    data = finished_json()
    assert Observation.from_json(data).phase == "over"
    broken = copy.deepcopy(data)
    broken["hand_results"][0]["players"][0]["deadwood"] += 1
    with pytest.raises(ValueError, match="deadwood"):
        Observation.from_json(broken)
    broken = copy.deepcopy(data)
    broken["winners"] = []
    with pytest.raises(ValueError, match="winners"):
        Observation.from_json(broken)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | st.sampled_from(["Ah", "Jk", "x", "draw"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(paths(item, (*prefix, index)))
    return found


BASE = valid_json(players=3, seed=8, steps=60)
BASE_PATHS = [path for path in paths(BASE) if path]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(path=st.sampled_from(BASE_PATHS), value=JSON_VALUES, delete=st.booleans())
def test_fuzzed_json_is_either_read_or_refused_with_value_error(path, value, delete):
    data = copy.deepcopy(BASE)
    target = data
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    try:
        observation = Observation.from_json(data)
    except ValueError as error:
        assert str(error)
    else:
        assert Observation.from_json(observation.to_json()) == observation
