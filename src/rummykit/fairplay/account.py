"""An account's assessed games pooled: reported to moderators only past thresholds.

One game proves little (a few telling decisions, a lucky run); many games together
do.  An account is **reported** when all of these hold:

- at least :data:`MIN_GAMES` assessed games;
- the games of verdict ``suspicious`` or worse hold at least :data:`SUSPICIOUS_SHARE` of
  the account's telling decisions (a game weighs as much as it tells);
- the pooled evidence, the sum of the games' (a lost game's halved,
  :data:`~rummykit.fairplay.seat.LOST_WEIGHT`), reaches :data:`REPORT_EVIDENCE`.

At four an account is also reported when, over at least :data:`MIN_GAMES` games, its
pooled partner evidence (the games' partner evidence summed) reaches
:data:`REPORT_EVIDENCE`.  The share of flagged games is not asked there: a game for
four has only two or three decisions that knowing the partner's hand changes, too few
for one game to be flagged, so the evidence can only build up over many games.

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
    partner_telling: int = 0
    partner_evidence: float | None = None

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
            "partner_telling": self.partner_telling,
            "partner_evidence": (
                None if self.partner_evidence is None else round(self.partner_evidence, 2)
            ),
        }


def assess_account(player: str, games: Sequence[SeatAssessment]) -> AccountAssessment:
    """Pool ``games`` (each one seat of one game, all of ``player``)."""
    flagged = [game for game in games if game.verdict in FLAGGED]
    telling = sum(game.telling for game in games)
    evidence = sum(game.evidence for game in games)
    share = sum(game.telling for game in flagged) / telling if telling else 0.0
    at_four = [game for game in games if game.partner_evidence is not None]
    partner_telling = sum(game.partner_telling or 0 for game in at_four)
    partner_evidence = sum(game.partner_evidence or 0.0 for game in at_four)
    return AccountAssessment(
        player=player,
        games=len(games),
        flagged_games=len(flagged),
        flagged_share=share,
        telling=telling,
        telling_matched=sum(game.telling_matched for game in games),
        evidence=evidence,
        reported=len(games) >= MIN_GAMES
        and (
            (share >= SUSPICIOUS_SHARE and evidence >= REPORT_EVIDENCE)
            or (bool(at_four) and partner_evidence >= REPORT_EVIDENCE)
        ),
        partner_telling=partner_telling,
        partner_evidence=partner_evidence if at_four else None,
    )
