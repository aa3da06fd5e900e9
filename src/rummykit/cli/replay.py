"""``rummykit replay``: a recorded game, turn by turn, with every hand's scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from rummykit.cli import views
from rummykit.games.record import RecordError, loads, replay


def _drawn_card(events: list[Any]) -> str:
    for event in events:
        if type(event).__name__ == "StockDrawn" and getattr(event, "card", None) is not None:
            return f"  [dim]({views.card_markup(event.card)})[/]"
    return ""


def run(path: Path, console: Console) -> int:
    """Print the game recorded in ``path``; returns the process exit code."""
    try:
        text = path.read_bytes()
    except OSError as error:
        console.print(f"[red]cannot read {path}: {error.strerror or error}[/]")
        return 2
    try:
        record = loads(text)
        steps = list(replay(record))
    except RecordError as error:
        console.print(f"[red]{path} is not a valid record: {error}[/]")
        return 2
    game = record.info
    final = steps[-1].state if steps else game.new_state(record.rules, record.seed)
    names = list(record.players) or [f"Player {p + 1}" for p in range(final.num_players)]
    console.print(
        f"[bold]{game.title}[/] · seed {record.seed} · {len(record.actions)} actions"
        f" · recorded with rummykit {record.engine_version}"
    )
    for step in steps:
        console.print(
            f"{step.index + 1:5d}  {names[step.player]:>12}  {game.format_action(step.action)}"
            + _drawn_card(step.events)
        )
        if step.state.hand_over:
            for line in views.result_lines(game.name, step.state.hand_results[-1], names):
                console.print(line)
    if final.game_over:
        winners = " and ".join(names[w] for w in final.winners)
        verb = "win" if len(final.winners) > 1 else "wins"
        console.print(f"[bold]Game over[/]: {winners} {verb}.")
    else:
        console.print("The record ends before the game is over.")
    return 0
