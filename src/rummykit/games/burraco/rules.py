"""The variant options of a Burraco game (RULES.md sections 1 and 3), validated once.

A ``Rules`` value is frozen: a game never changes its rules while it is played.  This
module only describes options; it never deals, plays or scores.

>>> Rules().players, Rules().jokers, Rules().mode, Rules().target, Rules().max_hands
(2, 2, 'quick', 2005, 50)
>>> Rules(jokers=3)
Traceback (most recent call last):
...
ValueError: jokers must be 2 or 4 (RULES.md 1.1), not 3
>>> Rules(players=3)
Traceback (most recent call last):
...
ValueError: Burraco is played by 2 players or by 4 in two partnerships (RULES.md 3.1), not 3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rummykit.games.options import option

Mode = Literal["quick", "target"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Burraco options.

    - ``players``: 2 (the default) or 4, two partnerships of partners sitting opposite
      (seats 0 and 2 against 1 and 3; RULES.md section 3).  Left out of the rules' JSON
      when it is 2, so that two-player records keep the text they were written with.
    - ``jokers``: 2 (106 cards, the seeds' game) or 4 (108 cards, FIBur).
    - ``one_set_per_rank``: a player may not lay a second set of a rank they already
      have a set of (FIBur); cards go onto the existing set.
    - ``mode``: ``"quick"`` (one hand) or ``"target"`` (hands until a running total
      reaches ``target``).
    - ``target``: the total that ends a ``"target"`` game (505, 1005 and 2005 are usual).
    - ``max_hands``: a ``"target"`` game ends after this many hands even if no total
      reached the target: the higher total wins, a tie is a draw.
    - ``stalemate_turns``: a hand ends as if the stock ran out after this many turns
      (every player's turn counted).
    """

    players: int = field(
        default=2,
        metadata=option(
            "Players: 2, or 4 in two partnerships.", choices=(2, 4), seats=True, omit_default=True
        ),
    )
    jokers: int = field(
        default=2, metadata=option("Jokers in the deck: 2 (106 cards) or 4.", choices=(2, 4))
    )
    one_set_per_rank: bool = field(
        default=True, metadata=option("One set of a rank a player; more cards go onto it.")
    )
    mode: Mode = field(
        default="quick", metadata=option("quick (one hand) or target (until a total).")
    )
    target: int = field(
        default=2005, metadata=option("The total that ends a target game (505, 1005, 2005).")
    )
    max_hands: int = field(
        default=50, metadata=option("A target game ends after at most this many hands.")
    )
    stalemate_turns: int = field(
        default=200, metadata=option("A hand with no end ends after this many turns.")
    )

    def __post_init__(self) -> None:
        if not _is_int(self.players) or self.players not in (2, 4):
            raise ValueError(
                "Burraco is played by 2 players or by 4 in two partnerships (RULES.md 3.1),"
                f" not {self.players!r}"
            )
        if not _is_int(self.jokers) or self.jokers not in (2, 4):
            raise ValueError(f"jokers must be 2 or 4 (RULES.md 1.1), not {self.jokers!r}")
        if not isinstance(self.one_set_per_rank, bool):
            raise ValueError(
                f"one_set_per_rank must be true or false, not {self.one_set_per_rank!r}"
            )
        if self.mode not in ("quick", "target"):
            raise ValueError(f"mode must be 'quick' or 'target', not {self.mode!r}")
        if not _is_int(self.target) or self.target <= 0:
            raise ValueError(f"target must be a whole number above 0, not {self.target!r}")
        if not _is_int(self.max_hands) or self.max_hands <= 0:
            raise ValueError(f"max_hands must be a whole number above 0, not {self.max_hands!r}")
        if not _is_int(self.stalemate_turns) or self.stalemate_turns <= 0:
            raise ValueError(
                f"stalemate_turns must be a whole number above 0, not {self.stalemate_turns!r}"
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
