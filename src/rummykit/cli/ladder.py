"""``rummykit ladder``: the bots' ratings on one scale, from duplicate matches.

Every group of rungs that fills a table plays the same deals from every seat
(:mod:`rummykit.sim.ladder`); the games are rated in order with OpenSkill's
Plackett-Luce model and shown with the random bot at 1,000 (:mod:`rummykit.rating`).
Bots bounded by iterations (not seconds) play the same games on every machine, so the
ladder is reproducible from its command line.  OpenSkill, the engine and Rich are
imported when the command runs.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummykit.cli.backend_flags import Address, BackendName, Workers, enter_backend

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.table import Table

    from rummykit.rating.ladder import Rung
    from rummykit.sim.series import TaskResult

DEFAULT_RUNGS = "random,easy,greedy,ismcts:iterations=100"
ANCHOR = "random"


def ladder_table(rungs: "list[Rung]", title: str) -> "Table":
    """The ladder as a Rich table, strongest first."""
    from rich.table import Table

    table = Table(title=title)
    for column in ("bot", "rating", "95% interval", "own interval", "mu", "sigma", "games"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rung in rungs:
        own_low, own_high = rung.own_interval
        table.add_row(
            rung.name,
            f"{rung.points:,.0f}",
            f"[{rung.low:,.0f}, {rung.high:,.0f}]",
            f"[{own_low:,.0f}, {own_high:,.0f}]",
            f"{rung.rating.mu:.2f}",
            f"{rung.rating.sigma:.2f}",
            str(rung.games),
        )
    return table


def faults_of(
    results: "Sequence[TaskResult]", outside: "Sequence[str]"
) -> dict[str, dict[str, int]]:
    """For each outside rung: its decisions and its moves replaced by the fallback, by
    kind, over every game it played."""
    from rummykit.sim.entrants import FAULT_KINDS

    tallies: dict[str, dict[str, int]] = {
        name: {"decisions": 0, **dict.fromkeys(FAULT_KINDS, 0)} for name in outside
    }
    for result in results:
        task = result.task
        for seat, entry in enumerate(task.seating):
            name = task.entries[entry]
            if name not in tallies:
                continue
            tallies[name]["decisions"] += result.decisions[seat]
            seat_faults = result.faults[seat] if result.faults else {}
            for kind in FAULT_KINDS:
                tallies[name][kind] += seat_faults.get(kind, 0)
    return tallies


def ladder(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Option(help="burraco (the default) or three-thirteen", metavar="GAME"),
    ] = None,
    suite: Annotated[
        str | None,
        typer.Option(
            help="A benchmark suite (docs/benchmark.md): its game, players, rules and"
            " deals; --deals N plays its first N.",
            metavar="GAME/PLAYERS",
            show_default=False,
        ),
    ] = None,
    rungs: Annotated[
        str,
        typer.Option(
            help="The bots to rate, comma-separated; 'random' is the anchor at 1,000.",
            metavar="BOTS",
        ),
    ] = DEFAULT_RUNGS,
    deals: Annotated[
        int | None,
        typer.Option(
            help="Deals each group of bots plays, each from every seat (default 20, or the"
            " suite's).",
            metavar="N",
            show_default=False,
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",
            help="Players a table: Burraco 2 or 4 (a rung is a team of two);"
            " Three-Thirteen 2 to 4 (default 2).",
            metavar="N",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the first deal (default 0).", metavar="N", show_default=False),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            help="Seconds of wall time a bot from outside the package has for a decision"
            " (docs/benchmark.md says what happens when it overruns).",
            metavar="SECONDS",
        ),
    ] = 1.0,
    workers: Workers = None,
    backend: BackendName = None,
    address: Address = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the ladder here.", metavar="FILE")
    ] = None,
) -> None:
    """Rate bots against each other on duplicate deals and print the ladder."""
    import json
    from contextlib import ExitStack

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from rummykit.bots.levels import BotSpecError, make_bot
    from rummykit.cli.options import rules_from_values
    from rummykit.cli.rule_flags import given_rules
    from rummykit.games.core import rules_to_json
    from rummykit.games.registry import game_named
    from rummykit.rating.ladder import TableOutcome, ladder_of, rate_outcomes, unseparated
    from rummykit.rating.model import RatingError, pool_of
    from rummykit.sim.backend_options import open_backend
    from rummykit.sim.backends import BackendError
    from rummykit.sim.entrants import FAULT_KINDS, check_entrant, outside_target
    from rummykit.sim.ladder import LadderError, head_to_head, ladder_tasks, outcome_of
    from rummykit.sim.series import TaskResult, run_tasks
    from rummykit.sim.suites import suite_named

    console = Console(highlight=False, emoji=False)
    if not console.is_terminal:
        console.width = 120
    names = [spec.strip() for spec in rungs.split(",") if spec.strip()]
    outside = [spec for spec in names if outside_target(spec) is not None]
    try:
        if not time_limit > 0:
            raise ValueError(f"the time limit must be positive, not {time_limit:g}")
        if suite is not None:
            chosen = suite_named(suite)
            given = [name for name, value in given_rules(ctx).items() if value is not None]
            if game is not None or seats is not None or seed is not None or given:
                raise ValueError(
                    "a suite fixes the game, the players, the rules and the seeds:"
                    " give --suite without --game, --seats, --seed or rule options"
                )
            info = game_named(chosen.game)
            table_size = chosen.players
            rules = chosen.rules()
            first_seed = chosen.first_seed
            deals = chosen.deals if deals is None else deals
            if deals > chosen.deals:
                raise ValueError(f"the suite {chosen.name} has {chosen.deals} deals, not {deals}")
        else:
            info = game_named(game or "burraco")
            table_size = seats or 2
            if table_size not in info.player_counts:
                counts = " or ".join(map(str, info.player_counts))
                raise ValueError(f"{info.title} tables seat {counts} players, not {table_size}")
            rules = rules_from_values(info, given_rules(ctx), seats=table_size)
            first_seed = 0 if seed is None else seed
            deals = 20 if deals is None else deals
        if ANCHOR not in names:
            raise ValueError(f"the ladder needs the anchor {ANCHOR!r} among its bots")
        for spec in names:
            if spec in outside:
                check_entrant(spec, info.name)
            else:
                make_bot(info.name, spec)
        runner = open_backend(backend, workers=workers, address=address)
        tasks = ladder_tasks(
            game=info.name,
            rules=rules,
            rungs=names,
            seats=table_size,
            deals=deals,
            seed=first_seed,
            time_limit=time_limit,
        )
    except (ValueError, BotSpecError, LadderError, BackendError) as error:
        console.print(str(error), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None

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
        bar = progress.add_task(f"{info.title} ladder", total=len(tasks))

        def done(result: TaskResult) -> None:
            progress.advance(bar)

        results = run_tasks(tasks, backend=runner, on_result=done)
    seed = first_seed
    faults = faults_of(results, outside)
    seated = [outcome_of(result) for result in results]
    outcomes = [TableOutcome(*outcome) for outcome in seated]
    meetings = head_to_head(seated)
    try:
        ratings, games = rate_outcomes(outcomes)
        rungs_rated = ladder_of(ratings, games, anchor=ANCHOR)
    except RatingError as error:
        console.print(str(error), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    pool = pool_of(
        info.name, table_size, player_counts=info.player_counts, named_size=info.named_pool_size
    )
    console.print(
        ladder_table(
            rungs_rated,
            f"{pool}: {len(results)} games, deals {seed} to {seed + deals - 1}, random = 1,000",
        )
    )
    for meeting in meetings:
        console.print(
            f"{meeting['first']} against {meeting['second']}: {meeting['games']} games,"
            f" {meeting['first_ahead']} ahead, {meeting['level']} level,"
            f" {meeting['second_ahead']} behind"
        )
    for name, tally in faults.items():
        replaced = ", ".join(f"{tally[kind]} {kind}" for kind in FAULT_KINDS)
        console.print(
            f"{name}: {tally['decisions']} decisions, moves replaced by the fallback: {replaced}"
        )
    unsettled = unseparated(rungs_rated)
    if unsettled:
        pairs = "; ".join(f"{upper} and {lower}" for upper, lower in unsettled)
        console.print(f"own intervals overlap (order not settled): {pairs}")
    else:
        console.print("every rung's own interval is above the next one's")
    if json_path is not None:
        document = {
            "game": info.name,
            "pool": pool,
            "rules": rules_to_json(rules),
            "seats": table_size,
            "deals": deals,
            "suite": suite,
            "seed": seed,
            "games": len(results),
            "time_limit": time_limit,
            "outside": faults,
            "anchor": {"name": ANCHOR, "rating": 1000},
            "model": "openskill PlackettLuce, tau=0, rated in game order",
            "ladder": [rung.to_json() for rung in rungs_rated],
            "head_to_head": meetings,
            "unseparated": [list(pair) for pair in unsettled],
        }
        json_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        console.print(f"ladder written to {json_path}")
