"""The ``rummykit`` command line: ``rules``, ``play`` and ``replay``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from rummykit.cli import hint as hint_command
from rummykit.cli import play as play_command
from rummykit.cli import replay as replay_command
from rummykit.cli import rules_service
from rummykit.cli import simulate as simulate_command

app = typer.Typer(
    name="rummykit",
    help="Rummy-family card games: Burraco and Three-Thirteen.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def rules() -> None:
    """Answer rules questions: JSON requests on stdin, one JSON answer per line."""
    if sys.stdin.isatty():
        sys.stderr.write(rules_service.USAGE)
    rules_service.serve(sys.stdin, sys.stdout)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record written by 'rummykit play'.")],
) -> None:
    """Print a recorded game turn by turn."""
    console = Console(highlight=False)
    code = replay_command.run(record, console)
    raise typer.Exit(code)


app.command(name="play")(play_command.play)
app.command(name="simulate")(simulate_command.simulate)
app.command(name="hint")(hint_command.hint)


def main() -> None:
    """Entry point of the ``rummykit`` console script."""
    app()
