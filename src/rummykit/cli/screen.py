"""The full-screen table of ``rummykit play``: it stays in place and is redrawn on change.

The terminal's alternate screen holds the table: the opponents at the top, the melds,
pile and stock in the middle, your melds, score and hand at the bottom, the last moves
in a column on the right, and the prompt on the last line.  Every change redraws the
whole screen from the person's observation (nothing scrolls away), sized to the
terminal (80 x 24 at the least).  ``moves``, ``help`` and the results of a hand are
pages over the table, left with Enter.  While a bot searches, a spinner turns on the
prompt line.

Each line is laid out here, in :class:`~.scene.Lines` (cut to the width, never wrapped
by the terminal), so the screen always has exactly the terminal's height.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Final

from rich.console import Console
from rich.text import Text

from rummykit.cli.game_views import terminal_game
from rummykit.cli.moves import MoveGroup, flow
from rummykit.cli.scene import Lines, LogEntry, Scene
from rummykit.cli.text import safe

MIN_WIDTH: Final = 60
MIN_HEIGHT: Final = 16


def fits(console: Console) -> bool:
    """Whether the terminal is big enough for the table."""
    width, height = console.size
    return width >= MIN_WIDTH and height >= MIN_HEIGHT


def _side_width(width: int) -> int:
    return 24 if width < 90 else min(40, width // 3)


# ---------------------------------------------------------------------------------------
# Laying out lines


def _cut(lines: list[Text], width: int) -> list[Text]:
    out = []
    for line in lines:
        copy = line.copy()
        copy.truncate(width, overflow="ellipsis")
        out.append(copy)
    return out


def _log(scene: Scene, console: Console, width: int, height: int) -> list[Text]:
    """The last moves that fit, newest at the bottom."""
    blocks: list[list[Text]] = []
    for entry in scene.log:
        lines = Lines(console, width)
        for line in entry.lines:
            lines.add(line)
        if entry.reason:
            lines.add(f"  [dim italic]{entry.reason}[/]")
        blocks.append(lines.lines)
    shown: list[Text] = []
    for block in reversed(blocks):
        if len(shown) + len(block) > height - 1:
            break
        shown = block + shown
    return [Text.from_markup("[bold]Last moves[/]"), *shown]


def table(scene: Scene, console: Console, message: Sequence[str]) -> list[Text]:
    """The whole screen but the prompt line: exactly ``height - 1`` lines."""
    width, height = console.size
    side = _side_width(width)
    main_width = width - side - 3
    main = Lines(console, main_width)
    shown = terminal_game(scene.game.name)
    main.add(
        f"[reverse] {scene.game.title} {shown.mode(scene.observation)} [/]"
        f" {shown.where(scene.observation)} · seed {scene.seed}"
    )
    shown.screen(scene, main)
    notes = Lines(console, width)
    for line in message:
        notes.add(line)
    room = height - 1 - len(notes.lines)
    body = _squeeze(main.lines, room)
    log = _log(scene, console, side, room)
    rows: list[Text] = []
    for index in range(room):
        left = body[index] if index < len(body) else Text()
        left = _cut([left], main_width)[0]
        left.pad_right(main_width - left.cell_len)
        right = log[index] if index < len(log) else Text()
        rows.append(left + Text(" │ ", style="dim") + _cut([right], side)[0])
    return rows + _cut(notes.lines, width)


def _squeeze(lines: list[Text], room: int) -> list[Text]:
    """Drop the rules between sections, then lines from the top half, to fit ``room``."""
    if len(lines) <= room:
        return lines
    lines = [line for line in lines if not line.plain.startswith("───")]
    if len(lines) <= room:
        return lines
    return [*lines[: room - 1], Text("…", style="dim")]


# ---------------------------------------------------------------------------------------
# The front end


class ScreenFront:
    """Shows the session as a table that stays in place on a terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.message: list[str] = []
        self.console.set_alt_screen(True)

    def _draw(self, scene: Scene) -> None:
        self.console.clear()
        for row in table(scene, self.console, self.message):
            self.console.print(row, no_wrap=True, overflow="crop", crop=True)

    def your_turn(self, scene: Scene) -> None:
        self._draw(scene)

    def moved(self, scene: Scene, entry: LogEntry) -> None:
        self.message = []
        self._draw(scene)

    def say(self, scene: Scene, markup: str) -> None:
        self.message = [markup]
        self._draw(scene)

    def ask(self, scene: Scene, prompt: str) -> str:
        self._draw(scene)
        return self.console.input(prompt)

    def page(self, scene: Scene, title: str, lines: Sequence[str]) -> None:
        width, height = self.console.size
        out = Lines(self.console, width)
        if title:
            out.add(f"[bold]{safe(title)}[/]")
        for line in lines:
            out.add(line)
        self._pages(out.lines, height, last="back to the table")

    def moves(self, scene: Scene, groups: Sequence[MoveGroup]) -> None:
        width, height = self.console.size
        out = Lines(self.console, width)
        out.add("[bold]Your legal moves[/] (type one as shown)")
        for group in groups:
            out.add(f"[bold cyan]{safe(group.title)}[/]")
            for line in flow(group.moves, width - 4):
                out.lines.append(Text("    " + line))
        self._pages(out.lines, height, last="back to the table")

    def _pages(self, lines: list[Text], height: int, *, last: str) -> None:
        room = height - 1
        start = 0
        while True:
            self.console.clear()
            chunk = lines[start : start + room]
            for line in chunk:
                self.console.print(line, no_wrap=True, overflow="crop", crop=True)
            for _ in range(room - len(chunk)):
                self.console.print()
            start += room
            more = start < len(lines)
            prompt = f"[dim]Enter: {'more' if more else last}[/] "
            self.console.input(prompt)
            if not more:
                return

    @contextlib.contextmanager
    def thinking(self, scene: Scene, name: str) -> Iterator[None]:
        self._draw(scene)
        with self.console.status(f"{safe(name)} is thinking…", spinner="dots"):
            yield

    def end(self, scene: Scene, lines: Sequence[str]) -> None:
        width, height = self.console.size
        out = Lines(self.console, width)
        for line in lines:
            out.add(line)
        self._pages(out.lines, height, last="leave the table")

    def close(self) -> None:
        self.console.set_alt_screen(False)
