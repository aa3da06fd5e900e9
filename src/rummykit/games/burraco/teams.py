"""The two sides of a Burraco table (RULES.md 3.1): who plays with whom.

Two sides always score.  With two players each player is a side of their own; with
four, partners sit opposite, so seats 0 and 2 are team 0 and seats 1 and 3 team 1.
Either way a seat's team is its number modulo 2, and everything the rules keep per
side (the melds' owners, the pozzetto taken, a burraco, the sets by rank, the hand's
score) is indexed by team.  Plain arithmetic; nothing here looks at a game.

>>> [team_of(seat) for seat in range(4)], partner_of(1, 4), partner_of(1, 2)
([0, 1, 0, 1], 3, None)
>>> seats_of(0, 4), seats_of(1, 2)
((0, 2), (1,))
"""

from __future__ import annotations

from typing import Final

TEAMS: Final = 2
"""How many sides score: two players, or two partnerships."""


def team_of(seat: int) -> int:
    """The team of ``seat`` (its own number in the two-player game)."""
    return seat % TEAMS


def partner_of(seat: int, players: int) -> int | None:
    """The partner of ``seat`` at a table of ``players``, opposite; ``None`` with two."""
    return (seat + TEAMS) % players if players > TEAMS else None


def seats_of(team: int, players: int) -> tuple[int, ...]:
    """The seats of ``team`` at a table of ``players``, in seat order."""
    return tuple(range(team, players, TEAMS))
