"""The plain front end of ``rummykit play``: a log of lines, for pipes and ``--plain``.

Used when standard output is not a terminal (a file, a pipe, a test) or when asked
for.  The table is printed before each of the person's moves, every move as it
happens, and nothing is ever redrawn.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

from rich.console import Console

from rummykit.cli.game_views import terminal_game
from rummykit.cli.moves import MoveGroup, flow
from rummykit.cli.scene import LogEntry, Scene
from rummykit.cli.text import safe


class PlainFront:
    """Prints everything in order on ``console``; reads moves with ``read``."""

    def __init__(self, console: Console, read: Callable[[str], str]) -> None:
        self.console = console
        self.read = read

    def your_turn(self, scene: Scene) -> None:
        self.console.print()
        for line in terminal_game(scene.game.name).table(scene.observation, scene.names):
            self.console.print(line)

    def moved(self, scene: Scene, entry: LogEntry) -> None:
        for line in entry.lines:
            self.console.print(line)
        if entry.reason:
            self.console.print(f"  [dim]({entry.reason})[/]")

    def say(self, scene: Scene, markup: str) -> None:
        self.console.print(markup)

    def page(self, scene: Scene, title: str, lines: Sequence[str]) -> None:
        if title:
            self.console.print(f"[bold]{safe(title)}[/]")
        for line in lines:
            self.console.print(line)

    def moves(self, scene: Scene, groups: Sequence[MoveGroup]) -> None:
        self.console.print("[bold]Your legal moves[/]")
        for group in groups:
            self.console.print(f"{group.title}:")
            for line in flow(group.moves, max(20, self.console.width - 4)):
                self.console.print("    " + safe(line))

    def ask(self, scene: Scene, prompt: str) -> str:
        return self.read(prompt)

    @contextlib.contextmanager
    def thinking(self, scene: Scene, name: str) -> Iterator[None]:
        yield

    def end(self, scene: Scene, lines: Sequence[str]) -> None:
        """Nothing: the closing lines are printed once the session is over."""

    def close(self) -> None:
        """Nothing to undo."""
