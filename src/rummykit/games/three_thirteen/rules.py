"""The variant options of a Three-Thirteen game (RULES.md section 2), as a frozen value.

``Rules`` only describes a table: how many players, which variants, which rounds.  It
says how big the deck is, how many cards a round deals and which rank is wild; it never
holds the state of a game and never draws a card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rummykit.cards import Card, three_thirteen_deck
from rummykit.games.options import option

MIN_ROUND = 1
MAX_ROUND = 11
JOKERS_PER_DECK = 2


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """The options of one Three-Thirteen table; every option has the rule book's default.

    ``first_round`` and ``last_round`` let a game cover fewer than the eleven rounds.
    Round ``r`` deals ``r + 2`` cards and its wild rank is ``r + 2`` (3 ... 13 = king).
    ``stalemate_turns``: a round in which no one has gone out ends after this many turns
    (all players' turns counted), scored as when the stock runs out for good.

    >>> Rules().decks, len(Rules().deck()), Rules(players=3, jokers=True).decks
    (1, 52, 2)
    >>> Rules(players=4, jokers=True).deck_size
    108
    >>> Rules(players=5)
    Traceback (most recent call last):
    ...
    ValueError: Three-Thirteen is played by 2 to 4 players, not 5
    """

    players: int = field(default=2, metadata=option("Players: 2 to 4.", seats=True))
    jokers: bool = field(
        default=False,
        metadata=option(f"{JOKERS_PER_DECK} jokers in each deck.", as_count=JOKERS_PER_DECK),
    )
    ace_high: bool = field(default=False, metadata=option("Aces rank high."))
    wild_only_melds: bool = field(
        default=False, metadata=option("Melds of wild cards alone are allowed.")
    )
    first_round: int = field(
        default=MIN_ROUND, metadata=option(f"The first round ({MIN_ROUND}-{MAX_ROUND}).")
    )
    last_round: int = field(
        default=MAX_ROUND, metadata=option(f"The last round ({MIN_ROUND}-{MAX_ROUND}).")
    )
    stalemate_turns: int = field(
        default=200, metadata=option("A round no one goes out of ends after this many turns.")
    )

    def __post_init__(self) -> None:
        if not _is_int(self.players) or not 2 <= self.players <= 4:
            raise ValueError(f"Three-Thirteen is played by 2 to 4 players, not {self.players!r}")
        for name in ("jokers", "ace_high", "wild_only_melds"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"the option {name} is true or false, not {value!r}")
        for name in ("first_round", "last_round"):
            value = getattr(self, name)
            if not _is_int(value) or not MIN_ROUND <= value <= MAX_ROUND:
                raise ValueError(
                    f"{name} is a round from {MIN_ROUND} to {MAX_ROUND}, not {value!r}"
                )
        if not _is_int(self.stalemate_turns) or self.stalemate_turns <= 0:
            raise ValueError(
                f"stalemate_turns must be a whole number above 0, not {self.stalemate_turns!r}"
            )
        if self.first_round > self.last_round:
            raise ValueError(
                f"first_round ({self.first_round}) comes after last_round ({self.last_round})"
            )

    @property
    def decks(self) -> int:
        """One 52-card deck for two players, two decks for three or four."""
        return 1 if self.players == 2 else 2

    @property
    def deck_size(self) -> int:
        return self.decks * (52 + (JOKERS_PER_DECK if self.jokers else 0))

    @property
    def rounds(self) -> range:
        """The round numbers played, in order."""
        return range(self.first_round, self.last_round + 1)

    def deck(self) -> list[Card]:
        """A fresh, unshuffled deck for one round (code order, deck after deck)."""
        return three_thirteen_deck(
            decks=self.decks, jokers_per_deck=JOKERS_PER_DECK if self.jokers else 0
        )


def hand_size(round_number: int) -> int:
    """Cards dealt to each player in round ``round_number``: 3 in round 1 ... 13 in round 11.

    >>> [hand_size(r) for r in (1, 8, 11)]
    [3, 10, 13]
    """
    return round_number + 2


def wild_rank(round_number: int) -> int:
    """The wild rank of a round: the number of cards dealt (3 ... 10, J = 11, Q, K = 13)."""
    return round_number + 2
