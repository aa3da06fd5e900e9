"""Bots by level name: ``random``, ``easy``, ``greedy``, ``ismcts`` and ``expert``, for any
game.  ``expert`` is ``ismcts`` with inference on (:mod:`rummykit.bots.inference`): it
takes the same options, and ``ismcts:inference=1`` is the same bot.

A bot is named by a *spec*: the level, optionally followed by options, as in
``ismcts:seconds=0.5`` or ``ismcts:iterations=400:seconds=2``.  Specs are plain strings so that a
simulator can hand them to worker processes.  What a level needs of one game (its greedy
bot, its search adapter) comes from that game's :class:`~rummykit.bots.game_bots.GameBots`,
found by :func:`rummykit.bots.by_game.bots_for`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from rummykit.bots.base import Bot
from rummykit.bots.easy import EasyBot
from rummykit.bots.random_bot import RandomBot

if TYPE_CHECKING:
    from rummykit.bots.ismcts import ISMCTSBot

LEVELS: Final = ("random", "easy", "greedy", "ismcts", "expert")
SEARCHES: Final = ("ismcts", "expert")
"""The levels that search, with the options ``seconds``, ``iterations`` and
``inference`` (1: on; ``expert`` has it on)."""
STRONGEST: Final = "ismcts"


def levels_for(game: str) -> tuple[str, ...]:
    """The levels there are bots of for ``game``: all of :data:`LEVELS` for a game with
    its own bots (:mod:`rummykit.bots.by_game`), only ``random`` for another.

    >>> levels_for("burraco"), levels_for("a game without bots")
    (('random', 'easy', 'greedy', 'ismcts', 'expert'), ('random',))
    """
    from rummykit.bots.by_game import GAME_BOTS

    return LEVELS if game in GAME_BOTS else ("random",)


class BotSpecError(ValueError):
    """A bot spec that names no bot or has a bad option."""


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """The level and the options of a bot spec, each option a finite positive number
    given once (the level is not checked here).

    >>> parse_spec("ismcts:iterations=400:seconds=2")
    ('ismcts', {'iterations': 400.0, 'seconds': 2.0})
    >>> parse_spec("ismcts:seconds=nan")
    Traceback (most recent call last):
    ...
    rummykit.bots.levels.BotSpecError: bot option 'seconds' must be a positive number, not 'nan'
    """
    level, _, text = spec.strip().partition(":")
    options: dict[str, float] = {}
    for part in filter(None, text.split(":")):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotSpecError(f"bot option {part!r} is not of the form name=value")
        try:
            number = float(value)
        except ValueError:
            raise BotSpecError(f"bot option {key!r} needs a number, not {value!r}") from None
        if not math.isfinite(number) or number <= 0:
            raise BotSpecError(f"bot option {key!r} must be a positive number, not {value!r}")
        if key in options:
            raise BotSpecError(f"bot option {key!r} is given twice")
        options[key] = number
    return level, options


def make_bot(game: str, spec: str) -> Bot:
    """The bot that ``spec`` names for ``game`` (its game-specific bots come from
    :mod:`rummykit.bots.by_game`)."""
    level, options = parse_spec(spec)
    if level == "random":
        if options:
            raise BotSpecError("the random bot takes no options")
        return RandomBot()
    if level in ("easy", "greedy"):
        if options:
            raise BotSpecError(f"the {level} bot takes no options")
        from rummykit.bots.by_game import bots_for

        try:
            bots = bots_for(game)
        except ValueError as error:
            raise BotSpecError(str(error)) from None
        greedy = bots.greedy()
        return greedy if level == "greedy" else EasyBot(greedy, moves=bots.moves_with_progress)
    if level in SEARCHES:
        unknown = set(options) - {"seconds", "iterations", "inference"}
        if unknown:
            raise BotSpecError(f"unknown {level} option {sorted(unknown)[0]!r}")
        iterations = options.get("iterations")
        if iterations is not None and not iterations.is_integer():
            raise BotSpecError(f"{level} iterations must be a whole number, not {iterations:g}")
        inference = options.get("inference", 1.0 if level == "expert" else None)
        if inference not in (None, 1.0):
            raise BotSpecError(f"{level} inference is 1 (on) or left out, not {inference:g}")
        try:
            return make_ismcts(
                game,
                iterations=None if iterations is None else int(iterations),
                seconds=options.get("seconds"),
                inference=inference == 1.0,
            )
        except ValueError as error:
            raise BotSpecError(str(error)) from None
    raise BotSpecError(f"unknown bot {level!r}; the levels are {', '.join(LEVELS)}")


def make_ismcts(
    game: str,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    inference: bool = False,
) -> ISMCTSBot:
    """The ISMCTS bot for ``game`` with the game's search adapter
    (:mod:`rummykit.bots.by_game`); with neither budget given it searches 0.5 s per
    decision; with ``inference`` its determinizations are weighted by the model of play
    (:mod:`rummykit.bots.inference`).  ``ValueError`` for a game without bots."""
    from rummykit.bots.by_game import bots_for
    from rummykit.bots.inference import DiscardModel
    from rummykit.bots.ismcts import ISMCTSBot

    bots = bots_for(game)
    model = DiscardModel(bots.pile_reading()) if inference else None
    bot = ISMCTSBot(bots.search(), iterations=iterations, seconds=seconds, play_model=model)
    if inference:
        bot.name = "expert"
    return bot
