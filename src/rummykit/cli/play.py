"""``rummykit play``: a whole game in the terminal against computer opponents.

On a terminal the game is a table that stays in place (:mod:`screen`); with ``--plain``,
or when standard output is not a terminal, a plain log (:mod:`plain`).  The record's
file is chosen and created before the first move, so a place that cannot be written is
refused at once; an earlier record is never overwritten (the new name gets a number).
The engine, the bots and Rich are imported when the command runs, not with its options.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from rich.console import Console


def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="burraco or three-thirteen", metavar="GAME")],
    seed: Annotated[
        int | None, typer.Option(help="Deal seed (random if omitted).", metavar="N")
    ] = None,
    players: Annotated[
        int,
        typer.Option(
            help="Seats: Burraco 2, or 4 (you and a computer partner against two computers);"
            " Three-Thirteen 2-4.",
            metavar="N",
        ),
    ] = 2,
    bot: Annotated[
        str,
        typer.Option(
            help="Computer level: random, easy, greedy or ismcts[:seconds=2].", metavar="BOT"
        ),
    ] = "greedy",
    seat: Annotated[int, typer.Option(help="Your seat (0 = first to play).", metavar="N")] = 0,
    record: Annotated[
        Path | None,
        typer.Option(
            help="The record's file, or a folder for rummykit-GAME-SEED.json (the default).",
            metavar="FILE",
        ),
    ] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help="A plain log instead of the table on screen.")
    ] = False,
) -> None:
    """Play a whole game in the terminal against the computer.

    The game's rule options (``--jokers``, ``--mode``, ...) come from its descriptor
    (:mod:`rummykit.cli.rule_flags`)."""
    import random
    import secrets

    from rich.console import Console

    from rummykit.bots.levels import BotSpecError, make_bot
    from rummykit.cli import screen
    from rummykit.cli.options import rules_from_values
    from rummykit.cli.plain import PlainFront
    from rummykit.cli.record_files import (
        RecordFileError,
        claim,
        default_record_path,
        unused_path,
    )
    from rummykit.cli.rule_flags import given_rules
    from rummykit.cli.session import FrontEnd, Session, seat_names
    from rummykit.cli.text import safe
    from rummykit.games.randomness import MAX_SEED
    from rummykit.games.registry import game_named

    console = Console(highlight=False)
    try:
        info = game_named(game)
        rules = rules_from_values(info, given_rules(ctx), seats=players)
        make_bot(info.name, bot)
        deal_seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        state = info.new_state(rules, deal_seed)
        if not 0 <= seat < state.num_players:
            raise ValueError(f"--seat must be from 0 to {state.num_players - 1}")
        if record is None or record.is_dir():
            path = default_record_path(info.name, deal_seed, record)
        else:
            path = unused_path(record)
        claim(path)
    except (ValueError, BotSpecError, RecordFileError) as error:
        console.print(f"[red]{safe(error)}[/]")
        raise typer.Exit(2) from None
    names = seat_names(state.num_players, seat, getattr(state, "partner_of", lambda _: None)(seat))
    console.print(
        f"[bold]{info.title}[/] · seed {deal_seed} · the record goes to {safe(path)}"
        " · type 'help' for the moves"
    )
    front: FrontEnd
    if plain or not _screen_usable(console):
        front = PlainFront(console, console.input)
    else:
        front = screen.ScreenFront(console)
    session = Session(
        game=info,
        state=state,
        seat=seat,
        names=names,
        bots={p: make_bot(info.name, bot) for p in range(state.num_players) if p != seat},
        rng=random.Random(deal_seed),
        front=front,
        record_path=path,
    )
    for line in session.run():
        console.print(line)


def _screen_usable(console: "Console") -> bool:
    from rummykit.cli import screen

    return (
        console.is_terminal
        and not console.is_dumb_terminal
        and sys.stdin.isatty()
        and screen.fits(console)
    )
