"""``rummykit hint``: the move the strongest bot suggests at the end of a record.

The bots, the engine and Rich are imported when the command runs, not with its options.
"""

import math
from pathlib import Path
from typing import Annotated

import typer

from rummykit.bots.hints import HINT_SECONDS

MAX_SECONDS = 3600.0


def hint(
    record: Annotated[Path, typer.Argument(help="A game record.", metavar="RECORD")],
    player: Annotated[
        int, typer.Option(help="The seat to advise (0 = first).", metavar="SEAT")
    ] = 0,
    seconds: Annotated[
        float, typer.Option(help="Thinking time in seconds.", metavar="SECONDS")
    ] = HINT_SECONDS,
) -> None:
    """Suggest a move for a player at the end of RECORD, with a reason."""
    from rich.console import Console

    from rummykit.bots.hints import suggest
    from rummykit.cli.record_files import RecordFileError, read_record
    from rummykit.cli.text import safe
    from rummykit.games.record import RecordError, final_state

    console = Console(highlight=False)
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        console.print(
            f"[red]--seconds must be a number of seconds above 0 and at most {MAX_SECONDS:g},"
            f" not {seconds}[/]"
        )
        raise typer.Exit(2)
    try:
        loaded = read_record(record)
        state = final_state(loaded)
    except RecordFileError as error:
        console.print(f"[red]{safe(error)}[/]")
        raise typer.Exit(2) from None
    except RecordError as error:
        console.print(f"[red]{safe(record)} is not a valid record: {safe(error)}[/]")
        raise typer.Exit(2) from None
    if not 0 <= player < state.num_players:
        console.print(f"[red]--player must be from 0 to {state.num_players - 1}[/]")
        raise typer.Exit(2)
    if state.game_over:
        console.print("The game is over: there is no move to suggest.")
        return
    if state.current_player != player:
        console.print(
            f"It is not player {player}'s turn: player {state.current_player} is to move."
        )
        return
    game = loaded.info
    decision = suggest(
        game.name, state.observation(player), list(state.legal_actions()), seconds=seconds
    )
    console.print(
        f"[bold]{safe(game.format_action(decision.action))}[/] — {safe(decision.reason.text)}"
    )
