"""``rummykit play`` on a real pseudo-terminal (80 x 24), played to the end of a game.

The person is played by this test through pexpect; the screen is rebuilt from the bytes
the program writes with pyte (a terminal emulator), so the assertions read what a person
would see: a table that stays in place, the last move on screen, moves grouped on a
page, a refused move explained, and after the game the outcome and the record.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

from rummykit.games.record import loads

WIDTH, HEIGHT = 80, 24
PROMPT = r"Your move \(([a-z, ]+)\): "
PAGE = r"Enter: (more|back to the table|leave the table)"


class Terminal:
    """A program on a pseudo-terminal and the screen it draws."""

    def __init__(self, arguments: list[str], cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
        env["TERM"] = "xterm-256color"
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "rummykit", *arguments],
            cwd=str(cwd),
            env=env,
            dimensions=(HEIGHT, WIDTH),
            encoding="utf-8",
            timeout=60,
        )
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.Stream(self.screen)
        self.transcript: list[str] = []

    def wait(self) -> int:
        """Read up to the next prompt: 0 a move, 1 a page, 2 the end of the program."""
        index = self.child.expect([PROMPT, PAGE, pexpect.EOF])
        before, after = self.child.before, self.child.after
        assert isinstance(before, str)
        text = before + (after if isinstance(after, str) else "")
        self.stream.feed(text)
        self.transcript.append(text)
        return int(index)

    def rows(self) -> list[str]:
        return [row.rstrip() for row in self.screen.display]

    def send(self, line: str) -> None:
        self.child.sendline(line)


def last_drawn(rows: list[str]) -> str:
    """The card the person drew last, as the side log says it."""
    found = [m.group(1) for row in rows for m in re.finditer(r"You draw (\S\S)\b", row)]
    assert found, "\n".join(rows)
    return found[-1]


def check_table(rows: list[str], title: str) -> None:
    assert title in rows[0], rows[0]
    assert rows[-1].startswith("Your move ("), rows[-1]
    assert "Last moves" in rows[0]
    assert "Traceback" not in "\n".join(rows)


@pytest.mark.parametrize(
    ("arguments", "title"),
    [
        (["play", "burraco", "--seed", "7"], "Burraco"),
        (["play", "burraco", "--players", "4", "--seed", "7"], "Burraco"),
        (
            ["play", "three-thirteen", "--players", "3", "--last-round", "2", "--seed", "5"],
            "Three-Thirteen",
        ),
    ],
)
def test_a_whole_game_at_an_80_by_24_terminal(
    arguments: list[str], title: str, tmp_path: Path
) -> None:
    terminal = Terminal(arguments, tmp_path)
    asked_moves = refused = False
    tables = 0
    while True:
        what = terminal.wait()
        rows = terminal.rows()
        if what == 2:
            break
        if what == 1:
            terminal.send("")
            continue
        check_table(rows, title)
        if "--players" in arguments and title == "Burraco":  # a table of four
            screen = "\n".join(rows)
            assert "To play: You · then West, Partner, East" in screen, screen
            assert "Your team's melds:" in screen and "(your partner)" in screen, screen
        tables += 1
        phase = re.search(PROMPT.rstrip(), rows[-1])
        assert phase is not None
        if phase.group(1) == "draw or take":
            terminal.send("draw")
            continue
        if not asked_moves:
            asked_moves = True
            terminal.send("moves")
            assert terminal.wait() == 1
            page = terminal.rows()
            assert page[0].startswith("Your legal moves")
            assert "Discard" in page
            discards = [row for row in page if row.strip().startswith("discard ")]
            assert discards and all(
                re.fullmatch(r"(discard \S\S\s*)+", row.strip()) for row in discards
            ), page
            terminal.send("")
            continue
        if not refused:
            refused = True
            terminal.send("discard [/]")
            assert terminal.wait() == 0
            assert any("is not a card" in row for row in terminal.rows()), terminal.rows()
            check_table(terminal.rows(), title)
        terminal.send(f"discard {last_drawn(rows)}")
    terminal.child.close()
    assert terminal.child.exitstatus == 0, "".join(terminal.transcript)[-2000:]
    after = "\n".join(terminal.rows())
    assert "Game over" in after and "Record saved to" in after, after
    assert asked_moves and refused and tables > 3
    (path,) = tmp_path.glob("rummykit-*.json")
    record = loads(path.read_bytes())
    assert record.actions


def test_a_spinner_turns_while_a_searching_bot_thinks(tmp_path: Path) -> None:
    terminal = Terminal(
        ["play", "three-thirteen", "--seat", "1", "--bot", "ismcts:seconds=0.6", "--seed", "3"],
        tmp_path,
    )
    assert terminal.wait() == 0
    shown = "".join(terminal.transcript)
    assert "Computer is thinking" in shown
    rows = terminal.rows()
    check_table(rows, "Three-Thirteen")
    assert not any("thinking" in row for row in rows)  # gone once the move is made
    assert any(row.startswith("Computer") for row in rows)
    terminal.send("quit")
    assert terminal.wait() == 2
    assert "You left the game." in "\n".join(terminal.rows())


def test_plain_asks_for_a_log_even_on_a_terminal(tmp_path: Path) -> None:
    terminal = Terminal(["play", "burraco", "--plain", "--seed", "2"], tmp_path)
    assert terminal.wait() == 0
    terminal.send("quit")
    assert terminal.wait() == 2
    shown = "".join(terminal.transcript)
    assert "\x1b[?1049h" not in shown  # never the alternate screen
    assert "Your cards (11" in shown and "Record saved to" in shown
