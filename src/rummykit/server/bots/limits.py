"""How long a bot may think a move, by level: the checks of a level asked for, and the
clamp of a stored one.

- Any table's bot thinks at most :data:`MAX_BOT_SECONDS` and searches at most
  :data:`MAX_ITERATIONS` iterations a move; a guest's at most ``guest_bot_seconds`` and
  ``guest_bot_iterations``; a tournament's at most :data:`TOURNAMENT_BOT_SECONDS` (many
  of its tables play at once).  A level given in iterations alone counts at the slowest
  search speed (:func:`think_seconds`), so ``ismcts:iterations=100000`` is 200 s, not
  "no time given".
- A level stored before these limits (a table or tournament made under older ones) is
  clamped when it is used again (:func:`clamp_level`): its search gets a time limit.

What a player may have in all (tables, their bots' time, tournaments) is
:mod:`~rummykit.server.bots.admission`.  A refusal is the table's ``bad_bot`` error.
"""

from __future__ import annotations

from typing import Final

from rummykit.bots.ismcts import DEFAULT_SECONDS
from rummykit.bots.levels import SEARCHES, make_bot, parse_spec
from rummykit.server.protocol.refusals import TableError
from rummykit.server.settings import Settings

# The slowest ISMCTS search measured (Three-Thirteen, late rounds; see the README's
# benchmarks), to bound the time of a search given in iterations only.
SLOWEST_ITERATIONS_PER_SECOND: Final = 500.0

MAX_BOT_SECONDS: Final = 10.0
"""The longest any bot may think a move, at any table."""

MAX_ITERATIONS: Final = 100_000
"""The most iterations any bot may search a move, at any table."""

TOURNAMENT_BOT_SECONDS: Final = 1.0
"""A tournament's bots think at most this long a move (many tables play at once)."""


def level_limits(*, guest: bool, settings: Settings, tournament: bool = False) -> tuple[float, int]:
    """The longest a bot may think a move and the most iterations it may search, for a
    table or tournament of a guest (or of a registered player)."""
    seconds = settings.guest_bot_seconds if guest else MAX_BOT_SECONDS
    iterations = settings.guest_bot_iterations if guest else MAX_ITERATIONS
    if tournament:
        seconds = min(seconds, TOURNAMENT_BOT_SECONDS)
    return seconds, iterations


def check_bot_level(
    game: str,
    level: str | None,
    *,
    max_seconds: float = MAX_BOT_SECONDS,
    max_iterations: int = MAX_ITERATIONS,
) -> str:
    """``level`` if it names a bot for ``game`` that thinks at most ``max_seconds`` (by
    :func:`think_seconds`) and searches at most ``max_iterations`` a move (a guest's
    limits are lower); otherwise ``bad_bot``, whatever the text (``nan``, ``inf``,
    garbage)."""
    if level is None:
        raise TableError("bad_seat", "a bot seat needs a level")
    try:
        make_bot(game, level)
        _, options = parse_spec(level)
    except ValueError as error:  # BotSpecError, or a bot's own check of its options
        raise TableError("bad_bot", str(error), {"level": level}) from None
    if options.get("iterations", 0.0) > max_iterations:
        raise TableError(
            "bad_bot",
            f"a bot searches at most {max_iterations} iterations a move here",
            {"level": level},
        )
    if think_seconds(level) > max_seconds:
        raise TableError(
            "bad_bot", f"a bot thinks at most {max_seconds:g} s a move here", {"level": level}
        )
    return level


def think_seconds(level: str | None) -> float:
    """The longest a bot of ``level`` (a valid spec) thinks a move: its ``seconds``, or
    its ``iterations`` at the slowest search speed, whichever is less; 0 for the bots
    that do not search.

    >>> think_seconds("greedy"), think_seconds("ismcts"), think_seconds("ismcts:seconds=2")
    (0.0, 0.5, 2.0)
    >>> think_seconds("ismcts:iterations=250"), think_seconds("ismcts:iterations=5000:seconds=3")
    (0.5, 3.0)
    >>> think_seconds("expert"), think_seconds("expert:seconds=0.1")
    (0.5, 0.1)
    """
    if level is None:
        return 0.0
    name, options = parse_spec(level)
    if name not in SEARCHES:
        return 0.0
    bounds = [options["seconds"]] if "seconds" in options else []
    if "iterations" in options:
        bounds.append(options["iterations"] / SLOWEST_ITERATIONS_PER_SECOND)
    return min(bounds) if bounds else DEFAULT_SECONDS


def clamp_level(level: str | None, *, max_seconds: float, max_iterations: int) -> str | None:
    """A stored ``level`` held to ``max_seconds`` and ``max_iterations`` a move: the same
    text when it keeps to them (or is not a valid spec: its bot fails at once), else
    the search with its iterations cut and a time limit added.

    >>> clamp_level("ismcts:iterations=100000", max_seconds=1, max_iterations=500)
    'ismcts:iterations=500:seconds=1'
    >>> clamp_level("ismcts:seconds=9", max_seconds=1, max_iterations=500)
    'ismcts:seconds=1'
    >>> clamp_level("ismcts:iterations=400", max_seconds=1, max_iterations=500)
    'ismcts:iterations=400'
    >>> clamp_level("expert:iterations=900:inference=1", max_seconds=1, max_iterations=500)
    'expert:iterations=500:inference=1:seconds=1'
    """
    if level is None:
        return None
    try:
        name, options = parse_spec(level)
        seconds = think_seconds(level)
    except ValueError:
        return level
    if name not in SEARCHES:
        return level
    if seconds <= max_seconds and options.get("iterations", 0.0) <= max_iterations:
        return level
    parts = []
    if "iterations" in options:
        parts.append(f"iterations={int(min(options['iterations'], max_iterations))}")
    if "inference" in options:
        parts.append(f"inference={int(options['inference'])}")
    parts.append(f"seconds={min(seconds, max_seconds):g}")
    return ":".join([name, *parts])
