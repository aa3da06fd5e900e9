"""Hints for players: the move the strongest bot would make, with a reason.

The server and the command line call :func:`suggest` with what the player may see (the
observation and the legal actions), never with a game state.  The bots are imported
when a hint is asked, so that reading :data:`HINT_SECONDS` (the ``rummykit hint``
option's default) loads nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from rummykit.bots.base import Decision

HINT_SECONDS: Final = 0.9


def suggest(
    game: str,
    observation: Any,
    legal_actions: Sequence[Any],
    *,
    seconds: float = HINT_SECONDS,
    seed: int = 0,
) -> Decision:
    """The strongest bot's move for the player of ``observation``, within ``seconds``."""
    import random

    from rummykit.bots.base import Decision
    from rummykit.bots.reasons import Reason
    from rummykit.bots.registry import STRONGEST, make_bot

    if not legal_actions:
        raise ValueError("there is no legal move to suggest")
    if len(legal_actions) == 1:
        return Decision(legal_actions[0], Reason.of("only_legal_move"))
    bot = make_bot(game, f"{STRONGEST}:seconds={seconds}")
    return bot.decide(observation, legal_actions, random.Random(seed))
