"""How the simulator scales with worker processes: greedy against greedy, both games.

Prints games per second with one worker and with two, and the speed-up (the target
is close to 2 on a two-core machine).
"""

from __future__ import annotations

import time

from rummykit.games import burraco, three_thirteen
from rummykit.sim.series import make_tasks, run_tasks


def games_per_second(game: str, rules: object, games: int, workers: int) -> float:
    tasks = make_tasks(
        game=game,
        rules=rules,
        entries=["greedy", "greedy"],
        games=games,
        seed=0,
        duplicate=False,
    )
    started = time.perf_counter()
    run_tasks(tasks, workers=workers)
    return games / (time.perf_counter() - started)


def main() -> None:
    for game, rules, games in (
        ("burraco", burraco.Rules(), 200),
        ("three-thirteen", three_thirteen.Rules(), 120),
    ):
        one = games_per_second(game, rules, games, 1)
        two = games_per_second(game, rules, games, 2)
        print(
            f"{game:15s} greedy vs greedy: {one:6.1f} games/s with 1 worker,"
            f" {two:6.1f} with 2 workers: speed-up {two / one:.2f}"
        )


if __name__ == "__main__":
    main()
