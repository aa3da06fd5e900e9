"""Events played by bots: every table of a round plays the same deals from every seat."""

from __future__ import annotations

from rummykit.games import three_thirteen
from rummykit.sim.event import BotTables, run_swiss
from rummykit.sim.series import TaskResult


def test_every_table_of_a_round_plays_the_same_deals_from_every_seat() -> None:
    games: list[TaskResult] = []
    play = BotTables(
        game="three-thirteen",
        rules=three_thirteen.Rules(players=3, last_round=2),
        entries=["greedy", "random", "random", "greedy", "random", "greedy"],
        deals=2,
        seed=40,
        on_game=games.append,
    )
    results = play(3, [(0, 1, 2), (3, 4, 5)])
    assert play.seeds_of_round(3) == [46, 47]
    assert len(games) == 2 * 2 * 3 == play.games_played
    for unit in (0, 1):
        mine = [g.task for g in games if g.task.unit == unit]
        assert sorted({t.seed for t in mine}) == [46, 47]
        # each deal once from every rotation of the seating
        for seed in (46, 47):
            assert sorted(t.seating for t in mine if t.seed == seed) == [
                (0, 1, 2),
                (1, 2, 0),
                (2, 0, 1),
            ]
    # a table's totals add up every game of the table, player by player
    for unit, table in enumerate(results):
        expected = [0.0, 0.0, 0.0]
        for game in games:
            if game.task.unit == unit:
                for seat, member in enumerate(game.task.seating):
                    expected[member] += game.totals[seat]
        assert list(table.totals) == expected


def test_a_bot_swiss_event_ranks_greedy_above_random() -> None:
    from rummykit.games import burraco

    entries = ["random", "greedy", "random", "greedy", "random", "greedy"]
    play = BotTables(game="burraco", rules=burraco.Rules(), entries=entries, seed=3)
    event = run_swiss(game="burraco", players=6, rounds=3, table_size=2, play=play)
    top = {line.player for line in event.standings[:3]}
    assert top == {1, 3, 5}
    assert event.repeats == 0
