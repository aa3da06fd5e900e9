"""Rewards: a share of every hand's scores, and the game's outcome at its end.

Both are zero-sum over the table.

- **At the end of each hand** (a Burraco hand, a Three-Thirteen round) every seat gets
  its *score advantage* times ``score_scale``: in Burraco its hand score minus the mean
  of the others'; in Three-Thirteen, where points are bad, the mean of the others'
  round points minus its own.
- **At the end of the game** every seat also gets ``win_reward`` times its *outcome*:
  ``1 / w`` for each of ``w`` winners and ``-1 / (n - w)`` for each of the ``n - w``
  others (two players: +1, -1; a draw, where everyone wins, gives 0).  When an episode is
  a single hand, the hand's best score advantage wins it.
- **Partners** (Burraco for four) share their team's rewards: the sides above are the
  two teams, and each seat gets its team's (a team's hand score against the other's,
  +1 to each partner of the winning team, -1 to each of the other).

>>> hand_advantages("three-thirteen", (10, 40, 70))
(45.0, 0.0, -45.0)
>>> outcome((0,), 3), outcome((0, 1), 2)
((1.0, -0.5, -0.5), (0.0, 0.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.games.registry import game_named


@dataclass(frozen=True, slots=True, kw_only=True)
class RewardOptions:
    """``score_scale``: reward per point of hand advantage; ``win_reward``: the weight
    of the outcome at the game's end (``0`` for score rewards alone)."""

    score_scale: float = 0.01
    win_reward: float = 1.0

    def __post_init__(self) -> None:
        for name in ("score_scale", "win_reward"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"{name} is a number of at least 0, not {value!r}")


def hand_advantages(game: str, scores: Sequence[int]) -> tuple[float, ...]:
    """Each seat's score advantage in one hand (positive is better)."""
    count = len(scores)
    total = sum(scores)
    if game_named(game).lower_is_better:
        return tuple((total - score) / (count - 1) - score for score in scores)
    return tuple(score - (total - score) / (count - 1) for score in scores)


def outcome(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """The zero-sum outcome of each seat given the winners."""
    won = len(winners)
    if won in (0, players):
        return (0.0,) * players
    return tuple(
        1.0 / won if seat in winners else -1.0 / (players - won) for seat in range(players)
    )


def hand_winners(game: str, scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the best score of one hand (all of them on a tie)."""
    best = min(scores) if game_named(game).lower_is_better else max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


def after_action(
    game: str, state: Any, options: RewardOptions, episode: str
) -> tuple[tuple[float, ...], bool]:
    """The rewards of every seat for the engine action just applied to ``state``, and
    whether the episode is over (``episode`` is ``"game"`` or ``"hand"``)."""
    players = state.num_players
    if not state.hand_over:
        return (0.0,) * players, False
    side_of = sides_of(state)
    scores = state.hand_results[-1].scores  # by side
    earned = [options.score_scale * a for a in hand_advantages(game, scores)]
    if episode == "hand":
        winners = hand_winners(game, scores)
    elif state.game_over:
        winners = tuple(sorted({side_of[seat] for seat in state.winners}))
    else:
        return tuple(earned[side] for side in side_of), False
    for side, share in enumerate(outcome(winners, len(scores))):
        earned[side] += options.win_reward * share
    return tuple(earned[side] for side in side_of), True


def game_outcome(state: Any) -> tuple[float, ...]:
    """Every seat's outcome of a finished game (:func:`outcome` of the sides, each seat
    getting its side's)."""
    side_of = sides_of(state)
    sides = len(set(side_of))
    winners = tuple(sorted({side_of[seat] for seat in state.winners}))
    shares = outcome(winners, sides)
    return tuple(shares[side] for side in side_of)


def sides_of(state: Any) -> tuple[int, ...]:
    """Each seat's side: its team where partners play together (``state.team_of``),
    else the seat itself."""
    seats = range(state.num_players)
    team_of = getattr(state, "team_of", None)
    return tuple(seats) if team_of is None else tuple(team_of(seat) for seat in seats)
