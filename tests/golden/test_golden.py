"""Golden records: whole games stored as records must replay to the same games.

A change that alters them alters what every stored record means; it must be deliberate
and say why (then run ``python -m tests.golden.regenerate``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummykit.games.record import final_state, loads
from tests.golden.regenerate import GOLDEN, HERE, digest

DIGESTS = json.loads((HERE / "digests.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_record_replays_to_the_same_game(name: str) -> None:
    record = loads((HERE / f"{name}.json").read_text())
    game, rules, seed, _ = GOLDEN[name]
    assert (record.game, record.rules, record.seed) == (game.name, rules, seed)
    state = final_state(record)
    assert state.game_over
    assert digest(state) == DIGESTS[name]


def test_golden_files_are_all_listed() -> None:
    stored = {path.stem for path in Path(HERE).glob("*.json")} - {"digests"}
    assert stored == set(GOLDEN)
