"""Golden games: whole games stored as records must play through as their text says.

Each ``<name>.txt`` lists every action of the stored game ``<name>.json`` with its events
and what each player's observation became (see :mod:`tests.golden.playthrough`).  The
text is compared line by line, so a failure names the first line that differs: the
action, event or observation a change altered.  Such a change alters what every stored
record means; it must be deliberate and say why (then run
``python -m tests.golden.regenerate``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden.playthrough import playthrough
from tests.golden.regenerate import GOLDEN, HERE, stored_record


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_game_plays_through_as_its_text_says(name: str) -> None:
    record = stored_record(name)
    game, rules, seed, levels = GOLDEN[name]
    assert (record.game, record.rules, record.seed, record.players) == (
        game.name,
        rules,
        seed,
        levels,
    )
    expected = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    lines = list(playthrough(record))
    assert lines == expected
    assert '"game_over":true' in lines[-1]


def test_golden_files_are_all_listed() -> None:
    for suffix in (".json", ".txt"):
        assert {path.stem for path in Path(HERE).glob(f"*{suffix}")} == set(GOLDEN)
