"""``rummykit hint``: the move the strongest bot suggests at the end of a record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from rummykit.bots.hints import HINT_SECONDS, suggest
from rummykit.games.record import RecordError, final_state, loads


def hint(
    record: Annotated[Path, typer.Argument(help="A game record.")],
    player: Annotated[int, typer.Option(help="The seat to advise (0 = first).")] = 0,
    seconds: Annotated[float, typer.Option(help="Thinking time.")] = HINT_SECONDS,
) -> None:
    """Suggest a move for PLAYER at the end of RECORD, with a reason."""
    console = Console(highlight=False)
    try:
        loaded = loads(record.read_bytes())
        state = final_state(loaded)
    except OSError as error:
        console.print(f"[red]cannot read {record}: {error.strerror or error}[/]")
        raise typer.Exit(2) from None
    except RecordError as error:
        console.print(f"[red]{record} is not a valid record: {error}[/]")
        raise typer.Exit(2) from None
    if not 0 <= player < state.num_players:
        console.print(f"[red]--player must be from 0 to {state.num_players - 1}[/]")
        raise typer.Exit(2)
    if seconds <= 0:
        console.print("[red]--seconds must be positive[/]")
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
    console.print(f"[bold]{game.format_action(decision.action)}[/] — {decision.reason}")
