"""Computer players are named by level as players know it (Very easy to Expert) in
records and pages, numbered by seat when a table has more than one, while the level
specs stay the protocol's values."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rummykit.bots.levels import LEVELS
from rummykit.server.bots.names import LEVEL_NAMES, computer_name, level_name, seat_names


@dataclass
class Seat:
    kind: str
    name: str | None = None
    level: str | None = None


def test_every_level_has_a_players_name_and_none_names_an_algorithm() -> None:
    assert set(LEVEL_NAMES) == set(LEVELS)
    assert sorted(LEVEL_NAMES.values()) == ["Easy", "Expert", "Hard", "Medium", "Very easy"]


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("random", "Very easy"),
        ("easy", "Easy"),
        ("greedy", "Medium"),
        ("ismcts", "Hard"),
        ("ismcts:seconds=2", "Hard"),
        ("expert:seconds=0.1", "Expert"),
    ],
)
def test_a_spec_with_parameters_names_its_level(spec: str, name: str) -> None:
    assert level_name(spec) == name
    assert computer_name(spec) == f"Computer ({name})"


def test_one_computer_is_not_numbered() -> None:
    seats = [Seat("human", "Anna"), Seat("bot", level="greedy")]
    assert seat_names(seats) == ("Anna", "Computer (Medium)")


def test_several_computers_all_carry_their_seat_numbers() -> None:
    seats = [
        Seat("human", "Anna"),
        Seat("bot", level="greedy"),
        Seat("bot", level="ismcts:seconds=1"),
        Seat("human", None),
    ]
    names = seat_names(seats)
    assert names == ("Anna", "Computer 2 (Medium)", "Computer 3 (Hard)", "")
    assert not any("greedy" in n or "bot" in n for n in names)
