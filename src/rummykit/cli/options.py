"""Rule options of the command line turned into a game's ``Rules``, read from the game's
descriptor (:mod:`rummykit.games.options`): nothing here names a game or an option.

The flags themselves are built by :mod:`rule_flags`; these functions take their values
by rule name (``None``: not given) and import only the named game's rules, unless an
option the game does not have is given (then the games that have it are consulted to
say so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.games.options import RuleOption
from rummykit.games.registry import GAMES, AnyGame, game_named


def command_line_default(option: RuleOption) -> object:
    """The default as the command line says it (a count for a bool said as one)."""
    if option.as_count is not None:
        return option.as_count if option.default else 0
    return option.default


def rules_from_values(info: AnyGame, given: Mapping[str, object], *, seats: int) -> Any:
    """The rules of ``info`` for ``seats`` players from command-line values by rule name
    (``None``: not given, the rule book's default); ``ValueError`` saying what is wrong.

    >>> from rummykit.games.registry import GAMES
    >>> rules_from_values(GAMES["three-thirteen"], {"jokers": 2}, seats=3).jokers
    True
    """
    values: dict[str, object] = {}
    for option in info.options:
        value = given.get(option.name)
        if value is None or option.seats:
            continue
        if option.as_count is not None:
            if value not in (0, option.as_count):
                raise ValueError(
                    f"{info.title} is played with {option.flag} 0 or {option.as_count}, not {value}"
                )
            value = value == option.as_count
        values[option.name] = value
    return info.rules_for(values, seats=seats)


def rules_from_options(game: str, *, seats: int, **options: object) -> Any:
    """The rules the options ask for; ``ValueError`` for options the game does not have.

    An option of another game is let through when it is ``None`` or that game's default
    (a command that declares it for every game passes it unchanged).  ``jokers`` counts
    jokers: 2 (the default) or 4 in Burraco's deck; in Three-Thirteen 0 (the default) or
    2 in each deck.

    >>> rules_from_options("three-thirteen", seats=3, jokers=2).jokers
    True
    >>> rules_from_options("burraco", seats=2, mode="target", first_round=1).mode
    'target'
    >>> rules_from_options("three-thirteen", seats=2, max_hands=7)
    Traceback (most recent call last):
    ...
    ValueError: --max-hands is a Burraco option, not a Three-Thirteen one
    """
    info = game_named(game)
    own = {option.name for option in info.options}
    for name, value in options.items():
        if name in own or value is None:
            continue
        owners = [
            (other, option)
            for other in (GAMES[other_name] for other_name in GAMES if other_name != info.name)
            for option in other.options
            if option.name == name
        ]
        if not owners:
            raise ValueError(f"there is no rule option {name!r}")
        if all(value == command_line_default(option) for _, option in owners):
            continue
        titles = " and ".join(other.title for other, _ in owners)
        raise ValueError(f"{owners[0][1].flag} is a {titles} option, not a {info.title} one")
    return rules_from_values(info, {k: v for k, v in options.items() if k in own}, seats=seats)
