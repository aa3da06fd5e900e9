"""The result of one finished Burraco hand and who wins a game (RULES.md 1.7-1.8).

A :class:`HandResult` keeps each player's score breakdown (``scoring.HandScore``), how
the hand ended, each player's melds as they lay when it ended and the running totals
after it.  This module only adds up and compares
scores; it never plays a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.scoring import HandScore

EndReason = Literal["closed", "stock_exhausted", "stalemate"]
END_REASONS: tuple[EndReason, ...] = ("closed", "stock_exhausted", "stalemate")


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """One finished hand: how it ended, each side's score and breakdown, the totals.

    Scores are by team (:mod:`.teams`; with two players a team is a player):
    ``scores[t]`` is ``breakdown[t].total``, ``totals`` are the teams' running totals
    after this hand, and ``melds[t]`` holds team ``t``'s melds as they lay on the table
    when the hand ended, in the order they were laid (public: every player saw them).
    ``dealer`` and ``closer`` are seats.  ``reason`` is ``"closed"`` (``closer`` holds
    the player who closed), ``"stock_exhausted"`` (the stock ran out with no pozzetto
    left) or ``"stalemate"`` (``Rules.stalemate_turns``).
    """

    hand_number: int
    dealer: int
    reason: EndReason
    closer: int | None
    scores: tuple[int, ...]
    breakdown: tuple[HandScore, ...]
    totals: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "reason": self.reason,
            "closer": self.closer,
            "scores": list(self.scores),
            "breakdown": [score.to_json() for score in self.breakdown],
            "totals": list(self.totals),
            "melds": [[meld.to_json() for meld in melds] for melds in self.melds],
        }


def game_winners(
    rules: Rules, totals: Sequence[int], *, hands_played: int
) -> tuple[int, ...] | None:
    """Which sides have won after ``hands_played`` hands with these running ``totals``
    (by team: with two players, by player); ``None`` if play goes on.

    Quick game: the higher total wins, a tie is a draw (both win).  Target game: a
    player at or above ``target`` wins; if both are, the higher wins and an exact tie
    plays another hand.  After ``max_hands`` hands the higher total wins even below the
    target, and a tie is a draw.

    >>> game_winners(Rules(), [300, 300], hands_played=1)
    (0, 1)
    >>> target = Rules(mode="target", target=505, max_hands=3)
    >>> game_winners(target, [600, 400], hands_played=1)
    (0,)
    >>> game_winners(target, [600, 600], hands_played=1) is None
    True
    >>> game_winners(target, [400, 500], hands_played=2) is None
    True
    >>> game_winners(target, [400, 500], hands_played=3)
    (1,)
    >>> game_winners(target, [600, 600], hands_played=3)
    (0, 1)
    """
    best = max(totals)
    leaders = tuple(player for player, total in enumerate(totals) if total == best)
    if rules.mode == "quick" or hands_played >= rules.max_hands:
        return leaders
    if best < rules.target or len(leaders) > 1:
        return None
    return leaders
