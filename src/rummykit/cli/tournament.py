"""``rummykit tournament``: a Swiss or single-elimination event between bots.

Every table of a round plays the same deals, each from every seat (duplicate deals);
the pairing, the standings and their tie-breaks are those of :mod:`rummykit.pairings`, the same as
the server's tournaments, and :mod:`rummykit.sim.event` plays the rounds.  The engine
and Rich are imported when the command runs, not with its options.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rummykit.cli.backend_flags import Address, BackendName, Workers, enter_backend

if TYPE_CHECKING:
    from rich.table import Table

    from rummykit.sim.event import KnockoutEvent, SwissEvent

FORMATS = ("swiss", "knockout")


def entries_of(text: str) -> list[str]:
    """The bot specs of ``--bots``, one per player, ``spec*N`` standing for N copies.

    >>> entries_of("greedy*2, random,ismcts:seconds=0.1")
    ['greedy', 'greedy', 'random', 'ismcts:seconds=0.1']
    """
    specs: list[str] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        spec, star, count = item.rpartition("*")
        if not star:
            specs.append(item)
            continue
        if not count.strip().isdigit() or int(count) < 1:
            raise ValueError(f"{item!r}: the count after '*' must be a whole number from 1")
        specs.extend([spec.strip()] * int(count))
    return specs


def player_names(specs: list[str]) -> list[str]:
    """A name per player: the spec, numbered when several players share it.

    >>> player_names(["greedy", "random", "greedy"])
    ['greedy #1', 'random', 'greedy #2']
    """
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(f"{spec} #{seen[spec]}" if specs.count(spec) > 1 else spec)
    return names


def swiss_table(event: "SwissEvent", names: list[str]) -> "Table":
    from rich.table import Table

    table = Table(title=f"{event.game}: Swiss, {len(event.rounds)} rounds")
    for column in ("place", "player", "points", "Buchholz", "points diff", "tables", "byes"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for line in event.standings:
        table.add_row(
            str(line.place),
            names[line.player],
            f"{line.points:g}",
            f"{line.buchholz:g}",
            f"{line.points_difference:+,.0f}",
            str(line.tables),
            str(line.byes),
        )
    return table


def knockout_table(event: "KnockoutEvent", names: list[str]) -> "Table":
    from rich.table import Table

    table = Table(title=f"{event.game}: single elimination, champion {names[event.champion]}")
    for column in ("place", "player", "rounds won", "points diff"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for line in event.standings:
        table.add_row(
            str(line.place),
            names[line.player],
            str(line.rounds_won),
            f"{line.points_difference:+,.0f}",
        )
    return table


def tournament(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Option(help="burraco or three-thirteen", metavar="GAME")
    ] = "burraco",
    format_name: Annotated[
        str,
        typer.Option("--format", help="swiss or knockout (single elimination).", metavar="FORMAT"),
    ] = "swiss",
    bots: Annotated[
        str,
        typer.Option(
            help="One bot spec per player, in seeding order; spec*N for N players,"
            " e.g. ismcts:seconds=0.1,greedy*7,random*8.",
            metavar="BOTS",
        ),
    ] = "greedy*4,random*4",
    rounds: Annotated[
        int | None,
        typer.Option(
            help="Swiss rounds (default: log2 of the players, rounded up).",
            metavar="N",
            show_default=False,
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",
            help="Players a table: Burraco 2 or 4 (each bot then a team of two, two teams a"
            " table); Three-Thirteen 2 to 4 (default 2).",
            metavar="N",
            show_default=False,
        ),
    ] = None,
    deals: Annotated[
        int,
        typer.Option(help="Deals each table plays a round, each from every seat.", metavar="N"),
    ] = 1,
    seed: Annotated[
        int, typer.Option(help="Seed of the first round's first deal.", metavar="N")
    ] = 0,
    workers: Workers = None,
    backend: BackendName = None,
    address: Address = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the event here.", metavar="FILE")
    ] = None,
) -> None:
    """Run a Swiss or knockout event between bots; print the standings."""
    import json
    import math
    from contextlib import ExitStack

    from rich.console import Console

    from rummykit.bots.levels import BotSpecError, make_bot
    from rummykit.cli.options import rules_from_values
    from rummykit.cli.rule_flags import given_rules
    from rummykit.games.core import rules_to_json
    from rummykit.games.registry import game_named
    from rummykit.sim.backend_options import open_backend
    from rummykit.sim.backends import BackendError
    from rummykit.sim.event import BotTables, RoundRecord, run_knockout, run_swiss
    from rummykit.sim.series import seat_teams

    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 120
    try:
        info = game_named(game)
        if format_name not in FORMATS:
            raise ValueError(f"--format is swiss or knockout, not {format_name!r}")
        specs = entries_of(bots)
        table_players = seats or 2
        if table_players not in info.player_counts:
            counts = " or ".join(map(str, info.player_counts))
            raise ValueError(f"{info.title} tables seat {counts} players, not {table_players}")
        rules = rules_from_values(info, given_rules(ctx), seats=table_players)
        # entrants a table: one per seat, or one per team where partners play together
        table_size = len(set(seat_teams(info.name, rules_to_json(rules))))
        if len(specs) < table_size:
            raise ValueError(f"{len(specs)} bots cannot fill a table of {table_size}")
        for spec in set(specs):
            make_bot(info.name, spec)
        if deals < 1:
            raise ValueError("--deals must be at least 1")
        runner = open_backend(backend, workers=workers, address=address)
        if rounds is not None and format_name == "knockout":
            raise ValueError("--rounds is for Swiss events; a knockout runs to its final")
        swiss_rounds = rounds if rounds is not None else max(1, math.ceil(math.log2(len(specs))))
        if swiss_rounds < 1:
            raise ValueError(f"a Swiss event has at least one round, not {swiss_rounds}")
    except (ValueError, BotSpecError, BackendError) as error:
        console.print(str(error), style="red", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    names = player_names(specs)

    def report(number: int, done: RoundRecord) -> None:
        console.print(
            f"round {number + 1}: {len(done.tables)} table{'' if len(done.tables) == 1 else 's'}"
            + (f", byes: {', '.join(names[p] for p in done.byes)}" if done.byes else "")
        )

    with ExitStack() as stack:
        running = enter_backend(stack, runner, console)
        play = BotTables(
            game=info.name, rules=rules, entries=specs, deals=deals, seed=seed, backend=running
        )
        result: dict[str, Any]
        if format_name == "swiss":
            swiss = run_swiss(
                game=info.name,
                players=len(specs),
                rounds=swiss_rounds,
                table_size=table_size,
                play=play,
                on_round=report,
            )
            console.print(swiss_table(swiss, names))
            rounds_played = swiss.rounds
            result = {
                "repeats": swiss.repeats,
                "standings": [line.to_json() for line in swiss.standings],
            }
        else:
            knockout = run_knockout(
                game=info.name,
                players=len(specs),
                table_size=table_size,
                play=play,
                on_round=report,
            )
            console.print(knockout_table(knockout, names))
            rounds_played = knockout.rounds
            result = {
                "champion": knockout.champion,
                "standings": [line.to_json() for line in knockout.standings],
            }
    console.print(f"{play.games_played} games played")
    if json_path is not None:
        document = {
            "game": info.name,
            "format": format_name,
            "rules": rules_to_json(rules),
            "seats": table_players,
            "deals": deals,
            "seed": seed,
            "players": [
                {"player": p, "name": names[p], "bot": spec} for p, spec in enumerate(specs)
            ],
            "rounds": [
                {"seeds": play.seeds_of_round(number), **done.to_json(info.name)}
                for number, done in enumerate(rounds_played)
            ],
            **result,
        }
        json_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        console.print(f"event written to {json_path}")
