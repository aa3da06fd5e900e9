"""The benchmark's suites: fixed deals for each game and number of players.

A suite is a game, a table size, the rule options and a run of seeds (``first_seed``,
``first_seed + 1``, ... ``deals`` of them).  The seeds are fixed here so that every
result published for a suite is on the same deals; a run may play only the first ``n``
of them (``rummykit ladder --suite NAME --deals n``).  Each deal is played once from
every seat by every group of entrants (:mod:`rummykit.sim.ladder`).  The games are
short, so that a suite is played in reasonable time: Burraco's quick game (one hand),
and Three-Thirteen's rounds 3 to 6.  docs/benchmark.md lists them with their results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from rummykit.games.registry import game_named


@dataclass(frozen=True, slots=True, kw_only=True)
class Suite:
    """One suite: ``name`` is ``<game>/<players>``; ``options`` are rule options by
    name (the seats option aside)."""

    name: str
    game: str
    players: int
    first_seed: int
    deals: int
    options: Mapping[str, Any] = field(default_factory=dict)

    def rules(self) -> Any:
        """The suite's rules."""
        return game_named(self.game).rules_for(dict(self.options), seats=self.players)

    @property
    def seeds(self) -> range:
        """The seeds of the suite's deals, in order."""
        return range(self.first_seed, self.first_seed + self.deals)


_SHORT_ROUNDS: Final = {"first_round": 3, "last_round": 6}

SUITES: Final[Mapping[str, Suite]] = {
    suite.name: suite
    for suite in (
        Suite(name="burraco/2", game="burraco", players=2, first_seed=70_000_000, deals=200),
        Suite(name="burraco/4", game="burraco", players=4, first_seed=70_100_000, deals=200),
        Suite(
            name="three-thirteen/2",
            game="three-thirteen",
            players=2,
            first_seed=70_200_000,
            deals=200,
            options=_SHORT_ROUNDS,
        ),
        Suite(
            name="three-thirteen/3",
            game="three-thirteen",
            players=3,
            first_seed=70_300_000,
            deals=200,
            options=_SHORT_ROUNDS,
        ),
        Suite(
            name="three-thirteen/4",
            game="three-thirteen",
            players=4,
            first_seed=70_400_000,
            deals=200,
            options=_SHORT_ROUNDS,
        ),
    )
}
"""Every suite by name."""


def suite_named(name: str) -> Suite:
    """The suite ``name``; ``ValueError`` listing the suites otherwise.

    >>> suite_named("three-thirteen/3").rules().last_round
    6
    >>> suite_named("chess/2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no suite 'chess/2'; suites: burraco/2, burraco/4, three-thirteen/2, ...
    """
    suite = SUITES.get(name)
    if suite is None:
        raise ValueError(f"no suite {name!r}; suites: {', '.join(SUITES)}")
    return suite
