"""The process an outside bot plays in (see :mod:`rummykit.sim.entrants`).

    python -m rummykit.sim.entrant_host <module:factory | entry:name> <game>

It imports the bot, calls its factory with the game's name and answers ``{"ready": name}``
(or ``{"error": reason}`` and ends).  Then each line it reads is one decision,
``{"observation": ..., "legal": [...], "seed": n}`` (the seed only the first time), and
it answers ``{"action": move}`` in the game's notation, or ``{"error": reason}`` if the
bot raised.  The protocol has its own copy of standard output: whatever the bot prints
goes to standard error.  Only observations ever reach this process, never a game state.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
from importlib import metadata
from typing import IO, Any


def load_factory(target: str) -> Any:
    """The factory ``target`` names (``module:factory`` or ``entry:name``)."""
    if target.startswith("entry:"):
        name = target.removeprefix("entry:")
        found = metadata.entry_points(group="rummykit.bots", name=name)
        if not found:
            raise LookupError(f"no entry point {name!r} in the group 'rummykit.bots'")
        return next(iter(found)).load()
    module_name, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def _say(channel: IO[str], message: dict[str, Any]) -> None:
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def _why(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def main(argv: list[str]) -> int:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the bot's prints go to stderr
    if len(argv) != 2:
        _say(channel, {"error": "usage: entrant_host TARGET GAME"})
        return 2
    target, game = argv
    from rummykit.games.registry import game_named

    try:
        info = game_named(game)
        bot = load_factory(target)(info.name)
        if not callable(getattr(bot, "decide", None)):
            raise TypeError(f"the factory gave {type(bot).__name__}, which has no decide()")
    except Exception as error:
        _say(channel, {"error": _why(error)})
        return 1
    _say(channel, {"ready": str(getattr(bot, "name", target))})
    rng = random.Random(0)
    for line in sys.stdin:
        request = json.loads(line)
        if "seed" in request:
            rng = random.Random(request["seed"])
        try:
            observation = info.observation_from_json(request["observation"])
            legal = [info.parse_action(text) for text in request["legal"]]
            action = bot.decide(observation, legal, rng).action
            answer = {"action": info.format_action(action)}
        except Exception as error:
            answer = {"error": _why(error)}
        _say(channel, answer)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
