"""One player's Burraco hand score (RULES.md 1.7), with its breakdown.

The score is a pure function of what the player has at the end of a hand: the melds,
the cards left in the hand (a pozzetto taken counts as hand), whether the player took a
pozzetto and whether the player closed.  This module never decides whether a hand is
over or whether closing was legal, and never does I/O.

>>> from rummykit.cards import parse_cards
>>> from rummykit.games.burraco.melds import arrange
>>> score = score_hand(
...     melds=[arrange(parse_cards("3h 4h 5h 6h 7h 8h 9h"))],
...     hand=parse_cards("Qh"),
...     took_pozzetto=True,
...     closed=False,
... )
>>> score.total, score.clean_burracos
(235, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Final

from rummykit.cards import BURRACO_POINTS, CARD_COUNT, Card
from rummykit.games.burraco.melds import Meld

CLEAN_BURRACO_BONUS: Final = 200
DIRTY_BURRACO_BONUS: Final = 100
CLOSING_BONUS: Final = 100
POZZETTO_PENALTY: Final = 100


@dataclass(frozen=True, slots=True, kw_only=True)
class HandScore:
    """One player's hand score and how it adds up.

    ``total = melded - in_hand + burraco_bonus + closing_bonus - pozzetto_penalty``;
    ``in_hand`` and ``pozzetto_penalty`` are positive numbers that are subtracted.
    """

    melded: int
    in_hand: int
    clean_burracos: int
    dirty_burracos: int
    burraco_bonus: int
    closing_bonus: int
    pozzetto_penalty: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @staticmethod
    def from_json(data: object) -> HandScore:
        """Read :meth:`to_json` back; ``ValueError`` if a field is missing, unknown, not
        a whole number, or the total does not add up."""
        if not isinstance(data, Mapping):
            raise ValueError("a hand score must be a JSON object")
        names = [f.name for f in fields(HandScore)]
        if set(data) != set(names):
            missing = sorted(set(names) - set(data))
            extra = sorted(set(data) - set(names))
            raise ValueError(
                f"a hand score has the fields {', '.join(names)}"
                + (f"; missing {missing[0]!r}" if missing else f"; unknown {extra[0]!r}")
            )
        values: dict[str, int] = {}
        for name in names:
            value = data[name]
            if type(value) is not int:
                raise ValueError(f"hand score {name} must be a whole number, not {value!r}")
            values[name] = value
        score = HandScore(**values)
        expected = (
            score.melded
            - score.in_hand
            + score.burraco_bonus
            + score.closing_bonus
            - score.pozzetto_penalty
        )
        if score.total != expected:
            raise ValueError(f"hand score total {score.total} should be {expected}")
        return score


def score_hand(
    *, melds: Sequence[Meld], hand: Sequence[Card], took_pozzetto: bool, closed: bool
) -> HandScore:
    """Score one player's hand (RULES.md 1.7).

    Raises ``ValueError`` if ``closed`` is true while no meld is a burraco (closing
    needs one), or if an argument is not what it should be.
    """
    for card in hand:
        if type(card) is not int or not 0 <= card < CARD_COUNT:
            raise ValueError(f"{card!r} in the hand is not a card code (0..52)")
    melded = 0
    clean = 0
    dirty = 0
    for meld in melds:
        if not isinstance(meld, Meld):
            raise ValueError(f"{meld!r} is not a meld")
        melded += meld.points
        if meld.is_burraco:
            if meld.clean:
                clean += 1
            else:
                dirty += 1
    if closed and not clean + dirty:
        raise ValueError("a player cannot close without a burraco")
    in_hand = sum(BURRACO_POINTS[c] for c in hand)
    burraco_bonus = CLEAN_BURRACO_BONUS * clean + DIRTY_BURRACO_BONUS * dirty
    closing_bonus = CLOSING_BONUS if closed and took_pozzetto else 0
    pozzetto_penalty = 0 if took_pozzetto else POZZETTO_PENALTY
    return HandScore(
        melded=melded,
        in_hand=in_hand,
        clean_burracos=clean,
        dirty_burracos=dirty,
        burraco_bonus=burraco_bonus,
        closing_bonus=closing_bonus,
        pozzetto_penalty=pozzetto_penalty,
        total=melded - in_hand + burraco_bonus + closing_bonus - pozzetto_penalty,
    )
