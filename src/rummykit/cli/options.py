"""Rule options of the command line turned into a game's ``Rules``.

Only the named game's rules are imported.
"""

from __future__ import annotations

from typing import Any


def rules_from_options(
    game: str,
    *,
    seats: int,
    mode: str = "quick",
    target: int = 2005,
    max_hands: int = 50,
    jokers: int | None = None,
    ace_high: bool = False,
    wild_only_melds: bool = False,
    first_round: int = 1,
    last_round: int = 11,
) -> Any:
    """The rules the options ask for; ``ValueError`` for options the game does not have.

    ``jokers`` counts jokers: 2 (the default) or 4 in Burraco's deck; in Three-Thirteen
    0 (the default) or 2 in each deck.  ``None`` means the game's default.

    >>> rules_from_options("three-thirteen", seats=3, jokers=2).jokers
    True
    >>> rules_from_options("burraco", seats=2).jokers
    2
    """
    if game == "burraco":
        from rummykit.games import burraco

        if seats != 2:
            raise ValueError("Burraco is for two players")
        if ace_high or wild_only_melds or (first_round, last_round) != (1, 11):
            raise ValueError("--ace-high, --wild-only-melds and rounds are Three-Thirteen options")
        if mode not in ("quick", "target"):
            raise ValueError(f"--mode is quick or target, not {mode!r}")
        if jokers not in (None, 2, 4):
            raise ValueError(f"Burraco is played with --jokers 2 or 4, not {jokers}")
        return burraco.Rules(
            jokers=jokers or 2,
            mode="quick" if mode == "quick" else "target",
            target=target,
            max_hands=max_hands,
        )
    from rummykit.games import three_thirteen
    from rummykit.games.three_thirteen.rules import JOKERS_PER_DECK

    if max_hands != 50:
        raise ValueError("--max-hands is a Burraco option (target games)")
    if jokers not in (None, 0, JOKERS_PER_DECK):
        raise ValueError(
            f"Three-Thirteen is played with --jokers 0 or {JOKERS_PER_DECK}"
            f" (jokers in each deck), not {jokers}"
        )
    return three_thirteen.Rules(
        players=seats,
        jokers=bool(jokers),
        ace_high=ace_high,
        wild_only_melds=wild_only_melds,
        first_round=first_round,
        last_round=last_round,
    )
