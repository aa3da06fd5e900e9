"""Hints for players: the move the strongest bot would make, with a reason.

The server and the command line call :func:`suggest` with what the player may see (the
observation and the legal actions), never with a game state.  The bots are imported
when a hint is asked, so that reading :data:`HINT_SECONDS` (the ``rummykit hint``
option's default) loads nothing else.

The server's hints are deterministic: the same position gets the same hint.  The search
has a budget of iterations, never of time (each game's ``hint_iterations``, sized to take
about 0.5 to 1 s on a two-core machine, see :mod:`rummykit.bots.game_bots`), and its random
numbers come from :func:`hint_seed`, made of what the player sees (the observation) and
the table's public seed commitment only: nothing hidden goes into the search, so nothing
hidden can be read out of it.  A review searches each decision with the very same budget
and seed (:mod:`rummykit.server.competition.review`), so it never calls the hint's move a mistake.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from rummykit.bots.base import Decision
    from rummykit.bots.ismcts import ISMCTSBot

HINT_SECONDS: Final = 0.9
"""The command line's thinking time (``rummykit hint --seconds``)."""
SEED_BITS: Final = 63


def hint_seed(observation: Mapping[str, Any], salt: str = "") -> int:
    """The seed of the hint's search for this observation (engine JSON): a hash of the
    observation and ``salt`` (the server passes the table's seed commitment, which is
    public).  Two hints of one position are the same; nothing the player cannot see
    goes in.

    >>> hint_seed({"b": 1, "a": [2]}, "c0ffee") == hint_seed({"a": [2], "b": 1}, "c0ffee")
    True
    >>> hint_seed({"a": 1}) != hint_seed({"a": 1}, "c0ffee")
    True
    """
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.sha256(f"rummykit-hint/v1|{salt}|{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def hint_iterations(game: str, observation: Any) -> int:
    """The hint's search budget at this decision (iterations), the game's own."""
    from rummykit.bots.by_game import bots_for

    return bots_for(game).hint_iterations(observation)


def hint_bot(game: str, observation: Any, iterations: int | None = None) -> ISMCTSBot:
    """The searching bot of a hint at this decision: the strongest bot with ``iterations``
    (by default the game's :func:`hint_iterations`) and no time limit."""
    from rummykit.bots.levels import make_ismcts

    budget = hint_iterations(game, observation) if iterations is None else iterations
    return make_ismcts(game, iterations=budget)


def suggest(
    game: str,
    observation: Any,
    legal_actions: Sequence[Any],
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
) -> Decision:
    """The strongest bot's move for the player of ``observation``.

    By default the search has the game's hint budget (:func:`hint_iterations`) and the
    move depends on ``seed`` alone; ``iterations`` sets another budget.  With ``seconds``
    (and no ``iterations``) the bot thinks that long instead, and the move may differ
    from one call to the next."""
    import random

    from rummykit.bots.base import Decision
    from rummykit.bots.levels import make_ismcts
    from rummykit.bots.reasons import Reason

    if not legal_actions:
        raise ValueError("there is no legal move to suggest")
    if len(legal_actions) == 1:
        return Decision(legal_actions[0], Reason.of("only_legal_move"))
    if seconds is not None and iterations is None:
        bot = make_ismcts(game, seconds=seconds)
    else:
        bot = hint_bot(game, observation, iterations)
    return bot.decide(observation, legal_actions, random.Random(seed))
