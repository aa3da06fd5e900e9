"""An account's assessed games pooled: reported to moderators only past thresholds.

One game proves little (a few telling decisions, a lucky run); many games together
do.  An account is **reported** when all of these hold:

- at least :data:`MIN_GAMES` assessed games;
- the games of verdict ``suspicious`` or worse hold at least :data:`SUSPICIOUS_SHARE` of
  the account's telling decisions (a game weighs as much as it tells);
- the pooled evidence, the sum of the games' (a lost game's halved,
  :data:`~rummykit.fairplay.seat.LOST_WEIGHT`), reaches :data:`REPORT_EVIDENCE`.

A report puts the account in the moderators' queue with its figures; nothing here marks,
mutes or closes an account: a moderator decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.fairplay.seat import SeatAssessment

MIN_GAMES: Final = 10
SUSPICIOUS_SHARE: Final = 0.15
REPORT_EVIDENCE: Final = 10.0
"""Natural log: the pooled games are about 22,000 times likelier under help than not."""
FLAGGED: Final = frozenset({"suspicious", "very_likely"})


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountAssessment:
    """One account's games pooled."""

    player: str
    games: int
    flagged_games: int
    flagged_share: float
    telling: int
    telling_matched: int
    evidence: float
    reported: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "games": self.games,
            "flagged_games": self.flagged_games,
            "flagged_share": round(self.flagged_share, 3),
            "telling": self.telling,
            "telling_matched": self.telling_matched,
            "evidence": round(self.evidence, 2),
            "reported": self.reported,
        }


def assess_account(player: str, games: Sequence[SeatAssessment]) -> AccountAssessment:
    """Pool ``games`` (each one seat of one game, all of ``player``)."""
    telling = sum(game.telling for game in games)
    flagged = [game for game in games if game.verdict in FLAGGED]
    flagged_telling = sum(game.telling for game in flagged)
    share = flagged_telling / telling if telling else 0.0
    evidence = sum(game.evidence for game in games)
    return AccountAssessment(
        player=player,
        games=len(games),
        flagged_games=len(flagged),
        flagged_share=share,
        telling=telling,
        telling_matched=sum(game.telling_matched for game in games),
        evidence=evidence,
        reported=(
            len(games) >= MIN_GAMES and share >= SUSPICIOUS_SHARE and evidence >= REPORT_EVIDENCE
        ),
    )
