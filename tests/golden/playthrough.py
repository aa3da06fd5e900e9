"""A golden game as readable text, in the manner of OpenSpiel's playthrough files.

The text opens with the game, seed, seats and rules, the events of the deal and every
player's whole observation.  Then, for each action: its number, who made it and the
action in the game's notation; each event it yielded, as JSON; and for each player
what changed in that player's observation since the line before, as compact JSON.
A field that is a list of records (the discard pile's history, the melds, the hands'
results) shows only the entries that are new or different, as ``"melds[3]"``; any
other changed field shows its whole new value.  Every observation along the game can
be rebuilt from the text, and a change to the engine shows as the first lines that
differ, there in the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rummykit.games.core import rules_to_json
from rummykit.games.record import GameRecord, replay


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _is_list_of_records(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before`` (see the module docstring).

    >>> changes({"turn": 3, "hand": ["4c"]}, {"turn": 4, "hand": ["4c"]})
    {'turn': 4}
    >>> changes({"melds": [{"id": 0}]}, {"melds": [{"id": 0}, {"id": 1}]})
    {'melds[1]': {'id': 1}}
    >>> changes({"melds": [{"id": 0}, {"id": 1}]}, {"melds": []})
    {'melds': []}
    """
    if before.keys() != after.keys():
        raise ValueError(f"an observation's fields changed: {sorted(before)} -> {sorted(after)}")
    changed: dict[str, Any] = {}
    for key, value in after.items():
        old = before[key]
        if old == value:
            continue
        if _is_list_of_records(old) and _is_list_of_records(value) and len(value) >= len(old):
            for index, item in enumerate(value):
                if index >= len(old) or old[index] != item:
                    changed[f"{key}[{index}]"] = item
        else:
            changed[key] = value
    return changed


def playthrough(record: GameRecord) -> Iterator[str]:
    """The lines of ``record``'s playthrough (see the module docstring)."""
    game = record.info
    state = game.new_state(record.rules, record.seed)
    yield f"game {record.game}"
    yield f"seed {record.seed}"
    yield f"players {' '.join(record.players)}"
    yield f"rules {_json(rules_to_json(record.rules))}"
    yield ""
    yield "deal"
    for event in state.events:
        yield f"  event {_json(event.to_json())}"
    seen = [state.observation(player).to_json() for player in range(state.num_players)]
    for player, observation in enumerate(seen):
        yield f"  {player} {_json(observation)}"
    for step in replay(record):
        yield ""
        yield f"{step.index + 1} player {step.player}: {game.format_action(step.action)}"
        for event in step.events:
            yield f"  event {_json(event.to_json())}"
        for player in range(step.state.num_players):
            observation = step.state.observation(player).to_json()
            yield f"  {player} {_json(changes(seen[player], observation))}"
            seen[player] = observation
