"""Rule options of the command line turned into a game's ``Rules``."""

from __future__ import annotations

from typing import Any

from rummykit.games import burraco, three_thirteen


def rules_from_options(
    game: str,
    *,
    seats: int,
    mode: str = "quick",
    target: int = 2005,
    jokers: int = 0,
    ace_high: bool = False,
    wild_only_melds: bool = False,
    first_round: int = 1,
    last_round: int = 11,
) -> Any:
    """The rules the options ask for; ``ValueError`` for options the game does not have.

    ``jokers`` is 2 or 4 for Burraco (0 means the default, 2) and 0 or 1 for
    Three-Thirteen (1 adds two jokers to each deck).
    """
    if game == "burraco":
        if seats != 2:
            raise ValueError("Burraco is for two players")
        if ace_high or wild_only_melds or (first_round, last_round) != (1, 11):
            raise ValueError("--ace-high, --wild-only-melds and rounds are Three-Thirteen options")
        if mode not in ("quick", "target"):
            raise ValueError(f"--mode is quick or target, not {mode!r}")
        return burraco.Rules(
            jokers=jokers or 2, mode="quick" if mode == "quick" else "target", target=target
        )
    if jokers not in (0, 1):
        raise ValueError("Three-Thirteen: --jokers 1 adds two jokers to each deck")
    return three_thirteen.Rules(
        players=seats,
        jokers=bool(jokers),
        ace_high=ace_high,
        wild_only_melds=wild_only_melds,
        first_round=first_round,
        last_round=last_round,
    )
