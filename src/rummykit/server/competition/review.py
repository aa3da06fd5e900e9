"""The review of a finished game: each decision of one seat against the strongest bot.

For every decision the seat took, the position is rebuilt from the record (seed and
actions) and searched exactly as a hint there would have been (:mod:`rummykit.bots.hints`):
the same bot from that seat's observation alone, the same budget of iterations and the
same seed (made of the observation and the table's public seed commitment).  The
review's suggestion at a decision is therefore the hint's, and the hint's move is never
called a mistake.  When the played move differs, the two are compared on paired rounds
(both games use them): every searched move is played on the same simulated deals, so
the difference between the bot's move and the played one is the mean of their paired
differences in those very simulations, with its standard error.  A played move the
hint's search left out is measured by a second search, the same one with the played
move added at the root.

Rewards are score differences against the opponents' mean divided by the game's reward
scale (and clipped to ``-1 .. 1``), so multiplying a value difference back by that
scale gives it in the game's points: for Burraco an evaluation of the hand's score
after the search horizon, for Three-Thirteen the round's penalty points.

A decision is a **mistake** only when the difference is significant, its 95% interval
(mean plus or minus :data:`Z95` standard errors, over at least
:data:`~rummykit.bots.ismcts.MIN_ROUNDS` paired deals) above zero, *and* the mean is at
least the game's ``mistake_points`` (:mod:`rummykit.bots.by_game`: 20 points of a Burraco
hand, 3 penalty points of a Three-Thirteen round).  Any other difference is no clear
difference: the simulations cannot tell the two moves apart, or the gain is small.

The work is split so that a server can run it in worker processes and report progress:
:func:`decision_points` (one call: what the seat saw and did at each decision, as JSON)
and :func:`review_decision` (one call per decision: the search).  Both take and return
plain data only.  :func:`review_game` runs both in this process.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from rummykit.bots.by_game import bots_for
from rummykit.bots.hints import hint_bot, hint_seed
from rummykit.bots.ismcts import MIN_ROUNDS, ISMCTSBot, paired_gain
from rummykit.bots.searched_move import including
from rummykit.games.core import rules_from_json
from rummykit.games.record import RecordError, seat_decisions
from rummykit.games.registry import game_named
from rummykit.server.protocol.lobby import ReviewItem
from rummykit.server.protocol.messages import ReasonPhrase

Z95: Final = 1.96
"""Standard errors on each side of the mean in a 95% interval (normal approximation)."""


class ReviewError(ValueError):
    """A record that cannot be reviewed for that seat (an unknown game, an action that is
    not the seat's, a seat out of range)."""


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the reviewed seat: the ``decision``-th of that seat, taken at state
    number ``state_number`` from ``observation`` (engine JSON) among ``legal`` actions."""

    decision: int
    state_number: int
    observation: dict[str, Any]
    legal: list[str]
    played: str


def decision_points(
    game_name: str,
    rules: dict[str, Any],
    seed: int,
    actions: Sequence[str],
    seat: int,
    chosen: Collection[int] | None = None,
) -> list[dict[str, Any]]:
    """Replay the record and list the seat's decisions (as :class:`DecisionPoint` JSON).

    ``chosen``: the state numbers whose actions the seat's player chose (a server leaves
    out the moves a substitute bot played for them); by default every action of ``seat``.
    """
    try:
        game = game_named(game_name)
    except (KeyError, ValueError) as error:
        raise ReviewError(f"unknown game {game_name!r}") from error
    state = game.new_state(rules_from_json(game.rules_type, rules), seed)
    try:
        return [
            asdict(
                DecisionPoint(
                    decision=index,
                    state_number=found.number,
                    observation=found.state.observation(seat).to_json(),
                    legal=[game.format_action(a) for a in found.state.legal_actions()],
                    played=game.format_action(found.action),
                )
            )
            for index, found in enumerate(seat_decisions(game, state, actions, seat, chosen))
        ]
    except RecordError as error:
        raise ReviewError(str(error)) from None


def points_per_reward(game_name: str, observation: Any) -> float:
    """The game's reward scale for this decision: points per unit of reward."""
    return bots_for(game_name).points_per_reward(observation)


def review_decision(
    game_name: str,
    point: dict[str, Any],
    *,
    iterations: int | None = None,
    salt: str = "",
) -> dict[str, Any]:
    """Search one decision (a :class:`DecisionPoint` as JSON) as the hint there would
    have: ``iterations`` (by default the game's hint budget) and the seed of the
    observation and ``salt`` (the table's seed commitment).  The API's
    :class:`~rummykit.server.protocol.lobby.ReviewItem` as JSON (``value`` in reward
    units, ``-2 .. 2``); the same for the same arguments."""
    game = game_named(game_name)
    seen = game.observation_from_json(point["observation"])
    legal = [game.parse_action(text) for text in point["legal"]]
    played = game.parse_action(point["played"])
    if played not in legal:
        raise ReviewError(f"the played move {point['played']!r} is not legal there")
    seed = hint_seed(point["observation"], salt)
    bot = hint_bot(game.name, seen, iterations)
    decision = bot.decide(seen, legal, random.Random(seed))
    value = error = 0.0
    simulations = 0
    suggested = None
    if decision.action != played:
        suggested = game.format_action(decision.action)
        rounds = bot.last_rounds
        if played not in rounds:  # the hint's search left it out: measure it too
            wide = ISMCTSBot(including(bot.adapter, played), iterations=bot.iterations)
            wide.decide(seen, legal, random.Random(seed))
            rounds = wide.last_rounds
        mine, theirs = rounds.get(decision.action, []), rounds.get(played, [])
        simulations = min(len(mine), len(theirs))
        if simulations:
            value, error = paired_gain(mine[:simulations], theirs[:simulations])
    scale = points_per_reward(game.name, seen)
    threshold = bots_for(game.name).mistake_points
    low = high = None
    if simulations >= 2:
        low = round((value - Z95 * error) * scale, 2)
        high = round((value + Z95 * error) * scale, 2)
    points = round(value * scale, 2)
    mistake = simulations >= MIN_ROUNDS and low is not None and low > 0 and points >= threshold
    item = ReviewItem(
        decision=point["decision"],
        state_number=point["state_number"],
        played=point["played"],
        suggested=suggested,
        value=round(value, 4),
        points=points,
        error=round(error, 4) if simulations >= 2 else None,
        simulations=simulations,
        points_low=low,
        points_high=high,
        mistake=mistake,
        threshold=threshold,
        reason=decision.reason.text,
        reason_phrases=[ReasonPhrase(**phrase) for phrase in decision.reason.to_json()],
    )
    return item.model_dump()


def review_game(
    game_name: str,
    rules: dict[str, Any],
    seed: int,
    actions: Sequence[str],
    seat: int,
    *,
    iterations: int | None = None,
    salt: str = "",
) -> list[dict[str, Any]]:
    """Every decision of ``seat`` reviewed in this process (the server uses workers)."""
    return [
        review_decision(game_name, point, iterations=iterations, salt=salt)
        for point in decision_points(game_name, rules, seed, actions, seat)
    ]
