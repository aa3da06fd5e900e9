"""Bots from outside the package, entered in a benchmark by name: each plays in a process
of its own that is sent only its seat's observation, and is held to a time per decision.

An *outside spec* names a factory, ``package.module:factory`` (a module importable by
the command: installed, or on ``PYTHONPATH``), or the name of an entry point of the
group ``rummykit.bots``.  The factory is called with the game's name and returns a
:class:`~rummykit.bots.base.Bot` (anything with ``name`` and ``decide``).

What the bot is given, and what it cannot reach:

- Each game starts a fresh Python process (:mod:`rummykit.sim.entrant_host`) that
  imports the bot and calls its factory.  For every decision the process is sent the
  seat's observation as JSON (``observation(player).to_json()``: what the server sends a
  player and the envs encode), the legal moves in the game's notation and, once, a
  seed for the bot's own generator.  No game state ever exists in that process, and a
  new process per game means a bot cannot carry what it saw of a deal into the same
  deal played from another seat (duplicate deals).
- **Time.** A decision has ``time_limit`` seconds of wall time (the answer's way back
  included).  A bot that overruns it, or whose process dies, is stopped: that move and
  every later move of its seat in that game are the *fallback*'s (the ``random`` bot,
  drawing on the seat's generator), and the game's result stands.  A bot whose process
  cannot start is treated alike.
- **Errors.** A bot that raises, or answers with a move that is not legal, has that one
  move replaced by the fallback's and goes on playing.
- Every replaced move is counted by kind (:data:`FAULT_KINDS`) and reported with the
  benchmark's results.

The bots of the package (``random``, ``easy``, ``greedy``, ``ismcts``...) are made in the
playing process as before: they are bounded by iterations, not time, so that their
results reproduce.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import IO, Any, Final

from rummykit.bots.base import Bot, Decision
from rummykit.bots.levels import LEVELS, BotSpecError, make_bot
from rummykit.bots.random_bot import RandomBot
from rummykit.bots.reasons import Reason
from rummykit.games.registry import game_named

ENTRY_POINT_GROUP: Final = "rummykit.bots"
"""The entry-point group an installed package names its bots in."""
DEFAULT_TIME_LIMIT: Final = 1.0
"""Seconds of wall time an outside bot has for one decision unless told otherwise."""
START_SECONDS: Final = 60.0
"""Seconds an outside bot's process has to import the bot and call its factory."""
NO_REASON: Final = Reason(())
"""An outside bot's own move comes with no reason (it gives none the package can say)."""
FAULT_KINDS: Final = ("overrun", "crash", "error", "illegal", "stopped")
"""The ways a move of an outside bot is replaced by the fallback's: it overran the
time limit, its process died (or never started), it raised, it answered a move that is
not legal; ``stopped``: a later move of a game in which it overran or crashed."""


def _is_dotted_name(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def outside_target(spec: str) -> str | None:
    """What an outside spec names: ``module:factory`` as given, ``entry:<name>`` for an
    installed entry point, or ``None`` for one of the package's levels (or nothing).

    >>> outside_target("mybots.strong:make"), outside_target("ismcts:iterations=5")
    ('mybots.strong:make', None)
    >>> outside_target("greedy") is None
    True
    """
    spec = spec.strip()
    level, sep, rest = spec.partition(":")
    if level in LEVELS:
        return None
    if sep:
        return spec if _is_dotted_name(level) and _is_dotted_name(rest) else None
    if _is_dotted_name(level) and metadata.entry_points(group=ENTRY_POINT_GROUP, name=level):
        return f"entry:{level}"
    return None


def _child_environment() -> dict[str, str]:
    """The environment of a bot's process: this one's, with this process's import path,
    so that the bot imports as the command did."""
    environment = dict(os.environ)
    paths = [path for path in sys.path if path]
    environment["PYTHONPATH"] = os.pathsep.join(paths)
    environment.setdefault("PYTHONHASHSEED", "0")
    return environment


class _Host:
    """One bot's process, talked to in JSON lines (see :mod:`rummykit.sim.entrant_host`)."""

    def __init__(self, target: str, game: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rummykit.sim.entrant_host", target, game],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_child_environment(),
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: Mapping[str, Any]) -> bool:
        """Send one message; ``False`` if the process is gone."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message) + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def receive(self, seconds: float) -> dict[str, Any] | None:
        """The next message; ``None`` if the process ended (or wrote something that is
        not a message); ``TimeoutError`` if nothing came in ``seconds``."""
        try:
            line = self.lines.get(timeout=max(seconds, 0.0))
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            return None
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return None
        return message if isinstance(message, dict) else None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _start(target: str, game: str) -> _Host:
    """A bot's process with its bot made; ``BotSpecError`` with the process's reason."""
    host = _Host(target, game)
    try:
        ready = host.receive(START_SECONDS)
    except TimeoutError:
        host.stop()
        raise BotSpecError(
            f"the bot {target!r} was not ready in {START_SECONDS:g} seconds"
        ) from None
    if ready is None or "ready" not in ready:
        host.stop()
        reason = "its process ended" if ready is None else str(ready.get("error", ready))
        raise BotSpecError(f"the bot {target!r} cannot be entered: {reason}")
    return host


def check_entrant(spec: str, game: str) -> str:
    """Start the outside bot of ``spec`` once for ``game`` and stop it: its name, or
    ``BotSpecError`` saying why it cannot play (so a benchmark fails before its games)."""
    target = outside_target(spec)
    if target is None:
        raise BotSpecError(f"{spec!r} names no outside bot")
    host = _start(target, game_named(game).name)
    host.stop()
    return target


class OutsideBot:
    """An outside bot seen as a :class:`~rummykit.bots.base.Bot`: each decision asked of
    its process under the time limit, with the fallback's move where it fails.

    ``faults`` counts the replaced moves by kind; ``decisions`` the moves asked.  Call
    :meth:`close` when the game is over (its process is stopped).
    """

    def __init__(self, spec: str, game: str, *, time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        target = outside_target(spec)
        if target is None:
            raise BotSpecError(f"{spec!r} names no outside bot")
        if not time_limit > 0:
            raise BotSpecError(f"the time limit must be positive, not {time_limit!r}")
        self.name = spec
        self.target = target
        self.info = game_named(game)
        self.time_limit = float(time_limit)
        self.fallback: Bot = RandomBot()
        self.faults: dict[str, int] = dict.fromkeys(FAULT_KINDS, 0)
        self.decisions = 0
        self.seconds = 0.0
        self._host: _Host | None = None
        self._gone = False
        self._seeded = False

    def _fall_back(
        self, kind: str, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        self.faults[kind] += 1
        return self.fallback.decide(observation, legal_actions, rng)

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        self.decisions += 1
        if self._gone:
            return self._fall_back("stopped", observation, legal_actions, rng)
        if self._host is None:
            try:
                self._host = _start(self.target, self.info.name)
            except BotSpecError:
                self._gone = True
                return self._fall_back("crash", observation, legal_actions, rng)
        host = self._host
        legal_text = [self.info.format_action(action) for action in legal_actions]
        message: dict[str, Any] = {"observation": observation.to_json(), "legal": legal_text}
        if not self._seeded:
            message["seed"] = rng.getrandbits(64)
            self._seeded = True
        started = time.perf_counter()
        answer: dict[str, Any] | None = None
        overran = False
        if host.send(message):
            try:
                answer = host.receive(self.time_limit)
            except TimeoutError:
                overran = True
        self.seconds += time.perf_counter() - started
        if overran or answer is None:
            host.stop()
            self._gone = True
            kind = "overrun" if overran else "crash"
            return self._fall_back(kind, observation, legal_actions, rng)
        move = answer.get("action")
        if not isinstance(move, str):
            return self._fall_back("error", observation, legal_actions, rng)
        if move not in legal_text:
            return self._fall_back("illegal", observation, legal_actions, rng)
        return Decision(legal_actions[legal_text.index(move)], NO_REASON)

    def close(self) -> None:
        """Stop the bot's process (if it is running)."""
        if self._host is not None:
            self._host.stop()


def make_entrant(game: str, spec: str, *, time_limit: float | None = None) -> Bot:
    """The bot ``spec`` names: an :class:`OutsideBot` for an outside spec (with
    ``time_limit``, or :data:`DEFAULT_TIME_LIMIT`), else the package's level."""
    if outside_target(spec) is not None:
        return OutsideBot(
            spec, game, time_limit=DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        )
    return make_bot(game, spec)
