"""Standings: points, Buchholz, points difference, on a small event worked by hand."""

from __future__ import annotations

from rummykit.pairings.standings import EventRecord, TableResult


def test_a_worked_event() -> None:
    record = EventRecord("burraco", 5)
    # round 1: 0 beats 1 by 200, 2 and 3 draw, 4 has a bye
    record.add_table(TableResult((0, 1), (500.0, 300.0)))
    record.add_table(TableResult((2, 3), (400.0, 400.0)))
    record.add_bye(4)
    # round 2: 2 beats 0 by 500, 1 beats 4 by 500, 3 has a bye
    record.add_table(TableResult((0, 2), (100.0, 600.0)))
    record.add_table(TableResult((1, 4), (700.0, 200.0)))
    record.add_bye(3)
    lines = {line.player: line for line in record.standings()}
    assert {p: line.points for p, line in lines.items()} == {0: 1, 1: 1, 2: 1.5, 3: 1.5, 4: 1}
    # Buchholz: the points of the opponents met (a bye adds none)
    assert {p: line.buchholz for p, line in lines.items()} == {
        0: 1 + 1.5,
        1: 1 + 1,
        2: 1.5 + 1,
        3: 1.5,
        4: 1,
    }
    assert {p: line.points_difference for p, line in lines.items()} == {
        0: -300,
        1: 300,
        2: 500,
        3: 0,
        4: -500,
    }
    order = [line.player for line in record.standings()]
    # 2 and 3 lead on points, 2 ahead on Buchholz; 0, 1 and 4 are level on points and
    # ordered by Buchholz
    assert order == [2, 3, 0, 1, 4]
    assert [line.place for line in record.standings()] == [1, 2, 3, 4, 5]
    assert record.met() == {frozenset(p) for p in [(0, 1), (2, 3), (0, 2), (1, 4)]}
    assert record.byes() == {0: 0, 1: 0, 2: 0, 3: 1, 4: 1}


def test_players_level_on_every_tie_break_share_a_place() -> None:
    record = EventRecord("three-thirteen", 4)
    record.add_table(TableResult((0, 1, 2, 3), (10.0, 10.0, 30.0, 30.0)))
    places = [(line.player, line.place) for line in record.standings()]
    assert places == [(0, 1), (1, 1), (2, 3), (3, 3)]


def test_points_difference_breaks_a_tie_on_points_and_buchholz() -> None:
    record = EventRecord("burraco", 4)
    record.add_table(TableResult((0, 1), (400.0, 300.0)))
    record.add_table(TableResult((2, 3), (600.0, 300.0)))
    assert [line.player for line in record.standings()] == [2, 0, 1, 3]
