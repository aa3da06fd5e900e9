"""docs/envs.md shows the observation layouts the code builds, slot for slot."""

from __future__ import annotations

from pathlib import Path

from rummykit.envs import burraco_encoding, three_thirteen_encoding

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def test_layout_tables_in_the_docs_are_the_code_s() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert three_thirteen_encoding.layout(2).table() in text
    assert burraco_encoding.LAYOUT.table() in text
    four = burraco_encoding.LAYOUT_FOUR.table().splitlines()
    assert "\n".join([*four[:2], *four[-3:]]) in text  # the blocks of four after the others


def test_documented_sizes() -> None:
    sizes = [three_thirteen_encoding.layout(players).size for players in (2, 3, 4)]
    assert sizes == [411, 522, 633]
    assert burraco_encoding.LAYOUT.size == 1361
    assert burraco_encoding.LAYOUT_FOUR.size == 1470
