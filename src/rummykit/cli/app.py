"""The ``rummykit`` command line, every command registered here:

- ``play``: a game at the terminal against bots (:mod:`.play`);
- ``replay``: a recorded game, turn by turn (:mod:`.replay`);
- ``hint``: the strongest bot's move for a position (:mod:`.hint`);
- ``rules``: rules questions answered as JSON lines (:mod:`.rules_service`);
- ``simulate``: a series of games between bots, with its statistics (:mod:`.simulate`);
- ``ladder``: the bots' ratings on the anchored scale (:mod:`.ladder`);
- ``tournament``: a Swiss or knockout event between bots (:mod:`.tournament`);
- ``serve``: the game server, and ``bot-worker``: a site's shared bot worker
  (:mod:`.serve`);
- ``db upgrade``: the server's database brought to the newest schema (:mod:`.db`);
- ``admin grant``: a role (moderator) given to a registered player (:mod:`.admin`);
- ``fairplay assess``: recorded games assessed for help from a bot (:mod:`.fairplay`);
- ``verify``: a server game's record checked: its fair deal and every action
  (:mod:`.verify`).

Every command is registered here from its function's signature, so this module and the
command modules load only Typer and the standard library.  What a command runs (the
engine, the bots, Rich, the server) is imported inside it: ``rummykit --help`` and one
command never pay for the others (``tests/cli/test_startup.py`` holds this).
"""

import sys
from pathlib import Path
from typing import Annotated

import typer

import rummykit
from rummykit.cli import admin as admin_command
from rummykit.cli import db as db_command
from rummykit.cli import fairplay as fairplay_command
from rummykit.cli import hint as hint_command
from rummykit.cli import ladder as ladder_command
from rummykit.cli import play as play_command
from rummykit.cli import serve as serve_command
from rummykit.cli import simulate as simulate_command
from rummykit.cli import tournament as tournament_command
from rummykit.cli import verify as verify_command
from rummykit.cli.help import Command, Group
from rummykit.cli.rule_flags import RulesCommand, SimulateCommand

app = typer.Typer(
    name="rummykit",
    cls=Group,
    help="Rummy-family card games: Burraco and Three-Thirteen.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"rummykit {rummykit.__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_show_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Rummy-family card games: Burraco and Three-Thirteen."""


@app.command(cls=Command)
def rules() -> None:
    """Answer rules questions: JSON requests on stdin, one JSON answer per line."""
    from rummykit.cli import rules_service

    if sys.stdin.isatty():
        sys.stderr.write(rules_service.USAGE)
    rules_service.serve(sys.stdin.buffer, sys.stdout)


@app.command(cls=Command)
def replay(
    record: Annotated[
        Path, typer.Argument(help="A game record written by 'rummykit play'.", metavar="RECORD")
    ],
) -> None:
    """Print a recorded game turn by turn: deals, moves, scores."""
    from rich.console import Console

    from rummykit.cli.replay import run

    code = run(record, Console(highlight=False))
    raise typer.Exit(code)


app.command(name="play", cls=RulesCommand)(play_command.play)
app.command(name="simulate", cls=SimulateCommand)(simulate_command.simulate)
app.command(name="ladder", cls=SimulateCommand)(ladder_command.ladder)
app.command(name="tournament", cls=SimulateCommand)(tournament_command.tournament)
app.command(name="hint", cls=Command)(hint_command.hint)
app.command(name="serve", cls=Command)(serve_command.serve)
app.command(name="bot-worker", cls=Command)(serve_command.bot_worker)
app.add_typer(db_command.db_app, name="db")
app.add_typer(admin_command.admin_app, name="admin")
app.add_typer(fairplay_command.fairplay_app, name="fairplay")
app.command(name="verify", cls=Command)(verify_command.verify)


def main() -> None:
    """Entry point of the ``rummykit`` console script."""
    app()
