"""A game at the terminal: the person's moves, the computer's, and what the person sees.

The session keeps the authoritative state; the person and the bots are each shown only
their own observation.  What is shown, and how, is the front end's business (a table
that stays in place, :mod:`screen`, or a plain log, :mod:`plain`); the session only
tells it what happened.  The record is saved when the game ends and when it is left
early (Ctrl-C, end of input, ``quit``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rummykit.bots.base import Bot
from rummykit.cli.game_views import terminal_game
from rummykit.cli.moves import MoveGroup, grouped_moves
from rummykit.cli.narration import narrate
from rummykit.cli.numbering import numbers_for, typed_to_engine
from rummykit.cli.record_files import release
from rummykit.cli.scene import LogEntry, Scene
from rummykit.cli.text import safe
from rummykit.games.core import IllegalAction, NotationError
from rummykit.games.record import dumps, record_of
from rummykit.games.registry import AnyGame

COMMANDS = (
    "Also: [bold]moves[/] lists your legal moves, [bold]help[/] shows this,"
    " [bold]quit[/] saves and leaves."
)
PHASE_PROMPTS = {
    "draw": "draw or take",
    "play": "meld, extend or discard",
    "discard": "discard or out",
}


class FrontEnd(Protocol):
    """How a session shows itself; every method gets text already made safe."""

    def your_turn(self, scene: Scene) -> None: ...
    def moved(self, scene: Scene, entry: LogEntry) -> None: ...
    def say(self, scene: Scene, markup: str) -> None: ...
    def page(self, scene: Scene, title: str, lines: Sequence[str]) -> None: ...
    def moves(self, scene: Scene, groups: Sequence[MoveGroup]) -> None: ...
    def ask(self, scene: Scene, prompt: str) -> str: ...
    def thinking(self, scene: Scene, name: str) -> AbstractContextManager[None]: ...
    def end(self, scene: Scene, lines: Sequence[str]) -> None: ...
    def close(self) -> None: ...


@dataclass
class Session:
    """One game at the terminal: the state, who sits where, the bots and the front end."""

    game: AnyGame
    state: Any
    seat: int
    names: list[str]
    bots: dict[int, Bot]
    rng: random.Random
    front: FrontEnd
    record_path: Path
    log: list[LogEntry] = field(default_factory=list)
    shown_results: int = 0
    outcome: list[str] = field(default_factory=list)

    def scene(self) -> Scene:
        observation = self.state.observation(self.seat)
        return Scene(
            game=self.game,
            seed=self.state.seed,
            seat=self.seat,
            names=tuple(self.names),
            observation=observation,
            numbers=numbers_for(observation),
            log=tuple(self.log[-40:]),
        )

    def run(self) -> list[str]:
        """Play until the game is over or the person leaves; always save the record.

        Returns the closing lines (the outcome and where the record went), which the
        caller prints once the front end is closed.
        """
        try:
            while not self.state.game_over:
                player = self.state.current_player
                if player == self.seat:
                    if not self._human_turn():
                        self.outcome.append("You left the game.")
                        return self.outcome
                else:
                    self._bot_turn(player)
                self._show_results()
            self._show_end()
        except (KeyboardInterrupt, EOFError):
            self.outcome.append("Game interrupted.")
        finally:
            self.front.close()
            self.outcome.append(self.save())
        return self.outcome

    def save(self) -> str:
        """Write the record; the line saying where it went (or why it could not)."""
        record = record_of(self.game, self.state, players=self.names)
        try:
            self.record_path.write_text(dumps(record), encoding="utf-8")
        except OSError as error:
            release(self.record_path)
            return f"[red]Could not save the record to {safe(self.record_path)}: {safe(error)}[/]"
        return (
            f"Record saved to {safe(self.record_path)} (rummykit replay {safe(self.record_path)})."
        )

    # -----------------------------------------------------------------------------------

    def _human_turn(self) -> bool:
        scene = self.scene()
        self.front.your_turn(scene)
        while True:
            phase = PHASE_PROMPTS.get(self.state.phase, self.state.phase)
            text = self.front.ask(scene, f"Your move ({phase}): ").strip()
            if not text:
                continue
            word = text.lower()
            if word in {"quit", "exit", "q"}:
                return False
            if word in {"help", "?", "h"}:
                self.front.page(
                    scene, "How to play", [*terminal_game(self.game.name).help, COMMANDS]
                )
                continue
            if word in {"moves", "m"}:
                groups = grouped_moves(self.game.name, self.state.legal_actions(), scene.numbers)
                self.front.moves(scene, groups)
                continue
            try:
                typed = self.game.parse_action(text)
                # the melds' owner: a team where partners share melds, else the seat
                owner = getattr(scene.observation, "team", self.seat)
                action = typed_to_engine(typed, scene.numbers, owner)
            except NotationError as error:
                self.front.say(scene, f"[red]{safe(error)}[/] (type 'help')")
                continue
            try:
                events = self.state.apply(action)
            except IllegalAction as error:
                message = _shown_numbers(error.refusal.message, action, typed)
                self.front.say(scene, f"[red]Not allowed: {safe(message)}[/]")
                continue
            self._after_move(self.seat, events, None)
            return True

    def _bot_turn(self, player: int) -> None:
        observation = self.state.observation(player)
        actions = list(self.state.legal_actions())
        with self.front.thinking(self.scene(), self.names[player]):
            decision = self.bots[player].decide(observation, actions, self.rng)
        events = self.state.apply(decision.action)
        self._after_move(player, events, decision.reason.text)

    def _after_move(self, player: int, events: Sequence[Any], reason: str | None) -> None:
        seen = self.state.events_for(self.seat)[-len(events) :] if events else []
        scene = self.scene()
        lines = narrate(seen, names=self.names, numbers=scene.numbers)
        entry = LogEntry(player, tuple(lines), None if reason is None else safe(reason))
        self.log.append(entry)
        self.front.moved(self.scene(), entry)

    def _show_results(self) -> None:
        results = self.state.hand_results
        while self.shown_results < len(results):
            result = results[self.shown_results]
            lines = terminal_game(self.game.name).hand_result(result, self.state.totals, self.names)
            self.shown_results += 1
            if not self.state.game_over:
                self.front.page(self.scene(), "", lines)
            else:
                self.outcome.extend(lines)

    def _show_end(self) -> None:
        shown = terminal_game(self.game.name)
        self.outcome.append(shown.game_over(self.state.winners, self.state.totals, self.names))
        self.front.end(self.scene(), self.outcome)


def _shown_numbers(message: str, action: Any, typed: Any) -> str:
    """A refusal's message with the engine's meld id said as the number the person typed."""
    meld_id = getattr(action, "meld_id", None)
    if meld_id is None or meld_id == typed.meld_id:
        return message
    return re.sub(rf"\bmeld {meld_id}\b", f"meld {typed.meld_id}", message)


def seat_names(players: int, seat: int, partner: int | None = None) -> list[str]:
    """``You`` at ``seat``; ``Computer``, or ``Computer 1``, ``Computer 2`` ... elsewhere;
    with a ``partner``, ``Partner`` there and the opponents ``West`` (after you, as
    play goes clockwise from South) and ``East`` (before you).

    >>> seat_names(3, 1), seat_names(4, 1, partner=3)
    (['Computer 1', 'You', 'Computer 2'], ['East', 'You', 'West', 'Partner'])
    """
    if partner is not None:
        named = {seat: "You", partner: "Partner"}
        named[(seat + 1) % players] = "West"
        named[(seat - 1) % players] = "East"
        return [named.get(p, f"Computer {p + 1}") for p in range(players)]
    if players == 2:
        return ["You" if p == seat else "Computer" for p in range(2)]
    return ["You" if p == seat else f"Computer {p + 1 - (p > seat)}" for p in range(players)]
