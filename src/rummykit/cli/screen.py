"""The full-screen table of ``rummykit play``: it stays in place and is redrawn on change.

The terminal's alternate screen holds the table: the opponents at the top, the melds,
pile and stock in the middle, your melds, score and hand at the bottom, the last moves
in a column on the right, and the prompt on the last line.  Every change redraws the
whole screen from the person's observation (nothing scrolls away), sized to the
terminal (80 x 24 at the least).  ``moves``, ``help`` and the results of a hand are
pages over the table, left with Enter.  While a bot searches, a spinner turns on the
prompt line.

Each line is laid out here (cut to the width, never wrapped by the terminal), so the
screen always has exactly the terminal's height.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any, Final

from rich.console import Console
from rich.text import Text

from rummykit.cli import views
from rummykit.cli.moves import MoveGroup, flow
from rummykit.cli.session import LogEntry, Scene
from rummykit.cli.text import plural, safe

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


def _cut(lines: list[Text], width: int) -> list[Text]:
    out = []
    for line in lines:
        copy = line.copy()
        copy.truncate(width, overflow="ellipsis")
        out.append(copy)
    return out


# ---------------------------------------------------------------------------------------
# The table of each game


def _burraco_main(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    me = scene.seat
    names = scene.names
    for player, name in enumerate(names):
        if player == me:
            continue
        standing = views.burraco_standing(obs, player)
        pozzetto = "pozzetto taken" if obs.took_pozzetto[player] else "pozzetto not taken"
        out.add(
            f"[bold cyan]{safe(name)}[/] · {plural(obs.hand_sizes[player], 'card')}"
            f" · {pozzetto} · {standing.markup()}"
        )
        if obs.known_cards[player]:
            out.add(f"  holds {views.cards_markup(obs.known_cards[player])} (taken with the pile)")
        out.items("  melds: ", views.burraco_melds_of(obs, player, scene.numbers))
    out.rule()
    out.add(f"Pile ({len(obs.discard_pile)}): {_pile(obs.discard_pile, out.width - 12)}")
    out.add(
        f"Stock {obs.stock_count} · pozzetti left {len(obs.pozzetti_left)}"
        + (f" · {views.totals_line(obs.totals, names)}" if obs.rules.mode == "target" else "")
    )
    out.rule()
    out.items("[bold]Your melds:[/] ", views.burraco_melds_of(obs, me, scene.numbers))
    out.add(f"[bold]You[/]: {views.burraco_standing(obs, me).markup()}")
    pozzetto = "pozzetto taken" if obs.took_pozzetto[me] else "pozzetto not taken"
    out.add(f"[bold]Your cards[/] ({len(obs.hand)}, {pozzetto}):")
    out.items("  ", [views.cards_markup(g) for g in views.suit_groups(obs.hand)], empty="empty")
    if obs.forbidden_discard is not None:
        out.add(
            f"[yellow]You may not discard {views.card_markup(obs.forbidden_discard)}"
            " this turn (the one card you took).[/]"
        )


def _three_thirteen_main(scene: Scene, out: Lines) -> None:
    obs = scene.observation
    me = scene.seat
    names = scene.names
    for player, name in enumerate(names):
        if player == me:
            continue
        line = f"[bold cyan]{safe(name)}[/] · {plural(obs.hand_sizes[player], 'card')}"
        if obs.known_cards[player]:
            line += f" · took {views.cards_markup(obs.known_cards[player])}"
        out.add(line)
    for line in views.went_out_lines(obs, names):
        out.add(line)
    out.rule()
    out.add(f"Pile ({len(obs.discard_pile)}): {_pile(obs.discard_pile, out.width - 12)}")
    out.add(f"Stock {obs.stock_count}" + (" · reshuffled once" if obs.reshuffled else ""))
    out.rule()
    out.add(f"[bold]Your hand[/] ({len(obs.hand)}):")
    out.items("  ", [views.cards_markup(g) for g in views.suit_groups(obs.hand)], empty="empty")
    if obs.hand:
        best = views.arrangement(obs)
        out.items(
            "Best melds: ",
            [views.cards_markup(m) for m in best.melds or [()]]
            + [f"deadwood [bold]{best.deadwood}[/]"],
        )
    out.rule()
    for line in views.score_table_lines(obs, names):
        out.lines.append(Text.from_markup(line))


def _pile(pile: Sequence[Any], width: int) -> str:
    shown = max(1, (width - 12) // 3)
    return views.pile_markup(pile, shown)


def _title(scene: Scene) -> str:
    obs = scene.observation
    if scene.game.name == "burraco":
        where = f"hand {obs.hand_number + 1} · turn {obs.turn + 1}"
        mode = obs.rules.mode
    else:
        where = (
            f"round {obs.round_number} ({obs.rules.first_round}-{obs.rules.last_round})"
            f" · wild [bold]{views.wild_name(obs)}[/]"
        )
        mode = ""
    return f"[reverse] {scene.game.title} {mode} [/] {where} · seed {scene.seed}"


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
    main.add(_title(scene))
    if scene.game.name == "burraco":
        _burraco_main(scene, main)
    else:
        _three_thirteen_main(scene, main)
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
