"""``rummykit simulate``: many games between named bots, with a summary table.

The simulator, the engine and Rich are imported when the command runs, not with its
options.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummykit.cli.backend_flags import Address, BackendName, Workers, enter_backend

if TYPE_CHECKING:
    from rich.table import Table

    from rummykit.sim.series import MatchSummary, TaskResult


def _interval(low_high: tuple[float, float] | None, scale: float = 1.0, digits: int = 1) -> str:
    if low_high is None:
        return "n/a"
    low, high = low_high
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def summary_table(summary: "MatchSummary") -> "Table":
    """The match summary as a Rich table."""
    from rich.table import Table

    table = Table(
        title=f"{summary.game}: {summary.games} games, seed {summary.seed}"
        + (", duplicate" if summary.duplicate else "")
    )
    for column in (
        "bot",
        "games",
        "wins",
        "draws",
        "win rate (95% CI)",
        "score diff (95% CI)",
        "decisions/s",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for entry in summary.entries:
        rate = entry.to_json()["decisions_per_second"]
        table.add_row(
            entry.name,
            str(entry.games),
            str(entry.wins),
            str(entry.draws),
            f"{entry.win_rate * 100:.1f}% {_interval(entry.win_rate_ci, 100)}",
            f"{entry.mean_score_diff:+.1f} {_interval(entry.mean_score_diff_ci)}",
            "n/a" if rate is None else f"{rate:,.0f}",
        )
    return table


def simulate(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Option(help="burraco or three-thirteen", metavar="GAME")
    ] = "burraco",
    bots: Annotated[
        str,
        typer.Option(
            help="One bot per seat, e.g. greedy,ismcts or ismcts:seconds=0.5; with partners"
            " (Burraco --players 4) one per seat or one per team.",
            metavar="BOTS",
        ),
    ] = "greedy,random",
    players: Annotated[
        int | None,
        typer.Option(
            help="Seats at the table (default: one per bot); Burraco 2 or 4.",
            metavar="N",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option(help="Deals to play (x seats with --duplicate).", metavar="N")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.", metavar="N")] = 0,
    workers: Workers = None,
    backend: BackendName = None,
    address: Address = None,
    duplicate: Annotated[bool, typer.Option(help="Play every deal once per seating.")] = False,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write results here.", metavar="FILE")
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Keep every game record here.", metavar="DIR")
    ] = None,
) -> None:
    """Play many games between bots and print wins, win rates and score differences.

    The game's rule options come from its descriptor (:mod:`rummykit.cli.rule_flags`)."""
    import json
    from contextlib import ExitStack

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from rummykit.bots.levels import BotSpecError, make_bot
    from rummykit.cli.options import rules_from_values
    from rummykit.cli.rule_flags import given_rules
    from rummykit.games.core import rules_to_json
    from rummykit.games.record import dumps
    from rummykit.games.registry import game_named
    from rummykit.sim.backend_options import open_backend
    from rummykit.sim.backends import BackendError
    from rummykit.sim.series import make_tasks, run_tasks, seat_teams, seatings, summarize

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 120
    entries = [spec.strip() for spec in bots.split(",") if spec.strip()]
    try:
        info = game_named(game)
        seats = len(entries) if players is None else players
        if seats not in info.player_counts:
            counts = " or ".join(map(str, info.player_counts))
            if players is None:
                raise ValueError(f"{info.title} needs {counts} bots, one per seat, not {seats}")
            raise ValueError(f"{info.title} is for {counts} players, not {seats}")
        for spec in entries:
            make_bot(info.name, spec)
        rules = rules_from_values(info, given_rules(ctx), seats=seats)
        seatings(seats, len(entries), seat_teams(info.name, rules_to_json(rules)))
        if games < 1:
            raise ValueError("--games must be at least 1")
        runner = open_backend(backend, workers=workers, address=address)
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
    except (ValueError, BotSpecError, OSError, BackendError) as error:
        console.print(str(error), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    tasks = make_tasks(
        game=info.name,
        rules=rules,
        entries=entries,
        games=games,
        seed=seed,
        duplicate=duplicate,
        keep_records=records is not None,
    )

    with ExitStack() as stack:
        enter_backend(stack, runner, console)
        progress = stack.enter_context(
            Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
        )
        bar = progress.add_task(f"{info.title}: {' vs '.join(entries)}", total=len(tasks))

        def done(result: "TaskResult") -> None:
            progress.advance(bar)
            if records is not None and result.record is not None:
                name = f"game-{result.task.index:05d}-seed-{result.task.seed}.json"
                (records / name).write_text(dumps(result.record), encoding="utf-8")

        results = run_tasks(tasks, backend=runner, on_result=done)
    summary = summarize(
        game=info.name,
        entries=entries,
        results=results,
        seed=seed,
        duplicate=duplicate,
        rules=rules_to_json(rules),
    )
    console.print(summary_table(summary))
    rate = summary.decisions_per_second
    console.print(f"decisions per second, all bots: {'n/a' if rate is None else f'{rate:,.0f}'}")
    if json_path is not None:
        json_path.write_text(json.dumps(summary.to_json(), indent=1) + "\n", encoding="utf-8")
        console.print(f"results written to {json_path}")
