"""The game as text and JSON for language-model agents.

A :class:`TextTable` holds one game.  For the player to move it gives a *prompt* (the
table as that player sees it, the legal moves in the engine's notation, one a line,
and how to answer) and a *view* (the same as JSON: the engine observation's
``to_json()`` and the legal moves).  :meth:`TextTable.reply` reads the model's answer:
a move in the notation (``draw``, ``take``, ``discard Qh``, ``meld 3h 4h 5h``,
``extend 2 5h``, ``out Qh``), alone, on a line of its own or in backticks.
An answer that names no move, or a move the rules refuse, is answered with the reason
and the game is left as it was, so the model can try again.  Other seats can be
played by bots (:meth:`TextTable.play_bots`).

>>> table = TextTable("three-thirteen", seed=3)
>>> print(table.prompt().splitlines()[-1])
Answer with exactly one legal move, for example: draw
>>> table.reply("I will discard the queen").accepted
False
>>> table.reply("`draw`").accepted
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.bots.base import Bot
from rummykit.cards import CardError
from rummykit.envs import step_models
from rummykit.envs.steps import rules_for
from rummykit.games.core import NotationError
from rummykit.games.registry import game_named


@dataclass(frozen=True, slots=True)
class Answer:
    """What became of a reply: the move played, or why not (the game is unchanged)."""

    accepted: bool
    move: str | None
    message: str
    refusal: Mapping[str, Any] | None = field(default=None)


def _candidates(text: str) -> list[str]:
    """Where a move may be: spans in backticks, the whole reply, then each line from
    the last, stripped of list marks and quotes."""
    lines = [*re.findall(r"`([^`]+)`", text), text, *reversed(text.splitlines())]
    cleaned = []
    for line in lines:
        candidate = line.strip().strip("`'\".").strip()
        for mark in ("- ", "* ", "> ", "move:", "Move:", "MOVE:"):
            if candidate.startswith(mark):
                candidate = candidate[len(mark) :].strip().strip("`'\".")
        if candidate:
            cleaned.append(candidate)
    return cleaned


class TextTable:
    """One game played through text (see the module docstring)."""

    def __init__(self, game: str, *, seed: int, **rule_options: Any) -> None:
        self.info = game_named(game)
        self.game = self.info.name
        self.state = self.info.new_state(rules_for(self.game, rule_options), seed)

    @property
    def player(self) -> int | None:
        """The seat to move (``None`` once the game is over)."""
        player: int | None = self.state.current_player
        return player

    def legal_moves(self) -> list[str]:
        return [self.info.format_action(action) for action in self.state.legal_actions()]

    def prompt(self) -> str:
        """The table as the player to move sees it, the legal moves and what to answer."""
        player = self.player
        if player is None:
            return step_models.observation_text(self.game, self.state.observation(0)).split("\n")[0]
        moves = self.legal_moves()
        lines = [
            step_models.observation_text(self.game, self.state.observation(player)),
            "",
            step_models.steps_of(self.game).notation,
            "Legal moves:",
            *(f"- {move}" for move in moves),
            f"Answer with exactly one legal move, for example: {moves[0]}",
        ]
        return "\n".join(lines)

    def view(self) -> dict[str, Any]:
        """The same as JSON: the engine observation and the legal moves."""
        player = self.player
        seat = 0 if player is None else player
        return {
            "game": self.game,
            "player": player,
            "observation": self.state.observation(seat).to_json(),
            "legal_moves": self.legal_moves() if player is not None else [],
            "notation": step_models.steps_of(self.game).notation,
        }

    def reply(self, text: str) -> Answer:
        """Play the move in ``text`` for the player to move, or say why not."""
        if self.player is None:
            return Answer(False, None, "The game is over; no move can be played.")
        if not isinstance(text, str):
            return Answer(False, None, "A reply is text naming one move.")
        parse_error = ""
        for candidate in _candidates(text):
            try:
                action = self.info.parse_action(candidate)
            except (NotationError, CardError, ValueError) as error:
                parse_error = parse_error or str(error)
                continue
            refusal = self.state.check(action)
            move = self.info.format_action(action)
            if refusal is not None:
                return Answer(
                    False,
                    move,
                    f"{move} is not allowed: {refusal.message}. Try again with one of the"
                    " legal moves.",
                    refusal.to_json(),
                )
            self.state.apply(action)
            return Answer(True, move, f"Played {move}.")
        detail = f" ({parse_error})" if parse_error else ""
        return Answer(
            False,
            None,
            f"No move could be read from your reply{detail}. Answer with exactly one legal"
            " move, such as " + ", ".join(self.legal_moves()[:3]) + ".",
        )

    def play_bots(self, bots: Mapping[int, Bot], rng: random.Random) -> list[str]:
        """Let the bots of ``bots`` (by seat) move until another seat is to move; return
        their moves in the notation."""
        played: list[str] = []
        while self.player is not None and self.player in bots:
            player = self.player
            legal = list(self.state.legal_actions())
            action = bots[player].decide(self.state.observation(player), legal, rng).action
            self.state.apply(action)
            played.append(f"player {player}: {self.info.format_action(action)}")
        return played

    def result(self) -> str:
        """The totals and winners once the game is over."""
        totals: Sequence[int] = self.state.totals
        winners: Sequence[int] = self.state.winners
        scores = ", ".join(f"player {seat} {total}" for seat, total in enumerate(totals))
        who = " and ".join(f"player {seat}" for seat in winners) or "nobody yet"
        return f"Totals: {scores}. Won by {who}."
