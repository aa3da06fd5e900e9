"""``rummykit replay``: a recorded game, turn by turn."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from rummykit.games.record import RecordError, loads, replay


def run(path: Path, console: Console) -> int:
    """Print the game recorded in ``path``; returns the process exit code."""
    try:
        text = path.read_bytes()
    except OSError as error:
        console.print(f"[red]cannot read {path}: {error.strerror or error}[/red]")
        return 2
    try:
        record = loads(text)
        steps = list(replay(record))
    except RecordError as error:
        console.print(f"[red]{path} is not a valid record: {error}[/red]")
        return 2
    game = record.info
    names = list(record.players) or [f"player {i}" for i in range(len(record.totals))]
    console.print(
        f"[bold]{game.title}[/bold] · seed {record.seed} · {len(record.actions)} actions"
        f" · engine {record.engine_version}"
    )
    hand = -1
    for step in steps:
        if step.state.hand_number != hand and not step.state.game_over:
            hand = step.state.hand_number
        console.print(f"{step.index + 1:5d}  {names[step.player]:>12}  {game.format_action(step.action)}")
        if step.state.hand_over:
            totals = ", ".join(f"{names[i]} {t}" for i, t in enumerate(step.state.totals))
            console.print(f"       [bold]end of hand {hand + 1}[/bold]: totals {totals}")
    final = steps[-1].state if steps else game.new_state(record.rules, record.seed)
    if final.game_over:
        winners = " and ".join(names[i] for i in final.winners)
        console.print(f"[bold]Game over[/bold]: {winners} {'win' if len(final.winners) > 1 else 'wins'}.")
    else:
        console.print("The record ends before the game is over.")
    return 0
