"""``rummykit replay``: a recorded game told turn by turn, with every deal and score.

A record is read as untrusted input (its size is checked before it is read, and
:func:`rummykit.games.record.loads` verifies it), then played again from its seed one
action at a time.  Everything is shown: a replay is of a game already played.  Memory
stays that of one game (no copy of the state is kept per step).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from rummykit.cli import views
from rummykit.cli.game_views import TerminalGame, terminal_game
from rummykit.cli.narration import narrate
from rummykit.cli.numbering import MeldNumbers
from rummykit.cli.record_files import RecordFileError, read_record
from rummykit.cli.text import plural, safe
from rummykit.games.record import GameRecord, RecordError


def run(path: Path, console: Console) -> int:
    """Print the game recorded in ``path``; returns the process exit code."""
    try:
        record = read_record(path)
    except RecordFileError as error:
        console.print(f"[red]{safe(error)}[/]")
        return 2
    except RecordError as error:
        console.print(f"[red]{safe(path)} is not a valid record: {safe(error)}[/]")
        return 2
    tell(record, console)
    return 0


def tell(record: GameRecord, console: Console) -> None:
    """Print ``record`` (already verified) from the deal to the last action."""
    game = record.info
    state = game.new_state(record.rules, record.seed)
    names = list(record.players) or [f"Player {p + 1}" for p in range(state.num_players)]
    console.print(
        f"[bold]{game.title}[/] · seed {record.seed} · {plural(len(record.actions), 'action')}"
        f" · recorded with rummykit {safe(record.engine_version)}"
    )
    console.print(views.rules_line(record.rules))
    console.print("Players: " + ", ".join(f"{p}: {safe(n)}" for p, n in enumerate(names)))
    melds: list[tuple[int, int]] = []
    shown = terminal_game(game.name)
    owner_of: Callable[[int], int] = getattr(state, "team_of", lambda seat: seat)
    _tell_events(state.events, shown, names, melds, console, owner_of=owner_of)
    for index, text in enumerate(record.actions):
        player = state.current_player
        events = state.apply(game.parse_action(text))
        line = f"{index + 1:5d}  "
        told = _tell_events(events, shown, names, melds, console, owner_of=owner_of, lead=line)
        if not told:
            console.print(f"{line}{safe(names[player])}: {safe(text)}")
    if state.game_over:
        return
    console.print("The record ends before the game is over.")


def _tell_events(
    events: Sequence[Any],
    shown: TerminalGame,
    names: Sequence[str],
    melds: list[tuple[int, int]],
    console: Console,
    *,
    owner_of: Callable[[int], int],
    lead: str = "",
) -> bool:
    """Print the events of one action; ``False`` if none was worth a line."""
    told = False
    for event in events:
        kind = type(event).__name__
        if kind == "Melded":  # numbered by owner: the team where partners share melds
            melds.append((event.meld_id, owner_of(event.player)))
        lines = _special_lines(event, shown, names)
        if lines is None:
            lines = narrate([event], names=names, numbers=MeldNumbers.of(melds))
            lines = [(lead if not told else " " * len(lead)) + line for line in lines]
        if kind == "HandDealt":
            melds.clear()
        for line in lines:
            console.print(line)
            told = True
    return told


def _special_lines(event: Any, shown: TerminalGame, names: Sequence[str]) -> list[str] | None:
    """Deals, results and the end of the game; ``None`` for a player's move."""
    kind = type(event).__name__
    if kind == "HandDealt":
        first = names[event.first_player]
        plays = f"{safe(first)} {'play' if first == 'You' else 'plays'} first"
        header = shown.deal_header(event)
        return [
            "",
            f"{header} · dealer {safe(names[event.dealer])} · {plays} · stock {event.stock_count}",
            *_dealt_hands(event.hands, names),
            *shown.deal_extras(event),
            f"  discard pile: {views.cards_markup(event.discard_pile)}",
        ]
    if kind == "HandEnded":
        return shown.hand_ended(event, names)
    if kind == "GameEnded":
        return [shown.game_over(event.winners, event.totals, names)]
    return None


def _dealt_hands(hands: Sequence[Any], names: Sequence[str]) -> list[str]:
    return [
        f"  {safe(names[player])}: {views.hand_markup(hand)}"
        for player, hand in enumerate(hands)
        if hand is not None
    ]
