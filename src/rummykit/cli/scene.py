"""What a front end of ``rummykit play`` is given to show, and the column it lays it out in.

:class:`Scene` is the person's observation with the recent moves (each a
:class:`LogEntry`), made by the session (:mod:`.session`) and drawn by a front end
(:mod:`.screen`, :mod:`.plain`) through each game's views (:mod:`.game_views`);
:class:`Lines` is a column of Rich text laid out by hand, never wrapped by the terminal.
A leaf: it imports no other module of the command but the meld numbers, so every one of
them may import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from rummykit.cli.numbering import MeldNumbers
from rummykit.games.registry import AnyGame


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move as the person sees it: who, what (lines of markup) and the bot's reason."""

    player: int
    lines: tuple[str, ...]
    reason: str | None


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything a front end may show: the person's observation and the recent moves."""

    game: AnyGame
    seed: int
    seat: int
    names: tuple[str, ...]
    observation: Any
    numbers: MeldNumbers
    log: tuple[LogEntry, ...]


class Lines:
    """Lines of Rich text for a column ``width`` cells wide, laid out by hand."""

    def __init__(self, console: Console, width: int) -> None:
        self.console = console
        self.width = width
        self.lines: list[Text] = []

    def add(self, markup: str) -> None:
        """``markup`` wrapped at word breaks, continuation lines indented by two."""
        text = Text.from_markup(markup)
        wrapped = text.wrap(self.console, max(8, self.width - 2), no_wrap=False)
        for number, line in enumerate(wrapped):
            line.rstrip()
            self.lines.append(Text("  ") + line if number else line)

    def items(self, lead: str, items: Sequence[str], *, empty: str = "none") -> None:
        """``lead`` then items packed in lines, never breaking one."""
        if not items:
            self.lines.append(Text.from_markup(f"{lead}[dim]{empty}[/]"))
            return
        separator = Text("   ")
        line = Text.from_markup(lead)
        start = line.cell_len
        for markup in items:
            item = Text.from_markup(markup)
            item.rstrip()
            if line.cell_len > start and line.cell_len + 3 + item.cell_len > self.width:
                self.lines.append(line)
                line = Text(" " * 2)
                start = 2
            elif line.cell_len > start:
                line += separator
            line += item
        self.lines.append(line)

    def rule(self) -> None:
        self.lines.append(Text("─" * self.width, style="dim"))
