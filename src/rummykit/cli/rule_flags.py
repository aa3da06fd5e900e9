"""The rule options of ``play`` and ``simulate`` as flags, built from the game's
descriptor when the command runs: declared once, by the game's ``Rules``.

``rummykit play burraco --help`` lists Burraco's options, ``rummykit play --help``
every game's (one flag for an option several games share, its help naming each game).
The command reads the game from its arguments before parsing them (the ``GAME``
argument, or ``--game``), so that a game of one loads nothing of the other; the values
reach the command by rule name through :func:`given_rules` (``None``: not given).
``rummykit --help`` builds none of this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from typer.core import TyperOption

from rummykit.cli.help import Command

_GAME = "rummykit.rule_flags.game"
_PARAMS = "rummykit.rule_flags.params"
_RULES = "rummykit.rule_flags.rules"


def _sentence(title: str, text: str) -> str:
    """``text`` after the game's title: ``Burraco: aces rank high``."""
    first_word = text.split(" ", 1)[0]
    if first_word[1:] == first_word[1:].lower():  # not a name in capitals (FIBur)
        text = text[:1].lower() + text[1:]
    return f"{title}: {text}"


def _flag_param(name: str, entries: Sequence[tuple[str, Any]]) -> TyperOption:
    """One flag for the rule option ``name`` of each ``(title, RuleOption)`` in
    ``entries``: a ``--x/--no-x`` switch if it is a plain bool in every game, else a
    value (``N``, or the option's name for a word)."""
    from rummykit.cli.options import command_line_default

    first = entries[0][1]
    switch = all(o.kind == "bool" and o.as_count is None for _, o in entries)
    parts = []
    for title, option in entries:
        text = option.help.rstrip(".")
        if not switch:
            text += f" (default {command_line_default(option)})"
        parts.append(_sentence(title, text))
    help_text = "; ".join(parts) + "."
    if switch:
        return TyperOption(
            param_decls=[f"{first.flag}/--no-{first.flag[2:]}"],
            is_flag=True,
            default=None,
            help=help_text,
        )
    words = any(o.kind == "choice" for _, o in entries)
    return TyperOption(
        param_decls=[first.flag],
        type=str if words else int,
        default=None,
        metavar=first.name.upper() if words else "N",
        help=help_text,
    )


def rule_params(games: Sequence[Any]) -> list[TyperOption]:
    """The flags of the rule options of ``games`` (their seats options left out: the
    command has its own), in the order the games declare them."""
    by_name: dict[str, list[tuple[str, Any]]] = {}
    for game in games:
        for option in game.options:
            if not option.seats:
                by_name.setdefault(option.name, []).append((game.title, option))
    return [_flag_param(name, entries) for name, entries in by_name.items()]


def given_rules(ctx: Any) -> dict[str, object]:
    """The rule options of the command running in ``ctx`` by rule name (``None``: not
    given)."""
    rules: dict[str, object] = ctx.meta.get(_RULES, {})
    return rules


class RulesCommand(Command):
    """A command with the rule options of its game (see the module docstring).

    ``game_flag`` is the option that names the game (``--game``), or ``None`` when the
    game is the first argument."""

    game_flag: str | None = None

    def _value_flags(self) -> set[str]:
        return {
            opt
            for param in self.params
            if not getattr(param, "is_flag", True)
            for opt in param.opts
        }

    def _named_game(self, args: Sequence[str]) -> str | None:
        from rummykit.games.registry import GAMES

        if self.game_flag is not None:
            for index, arg in enumerate(args):
                if arg == self.game_flag and index + 1 < len(args):
                    return args[index + 1]
                if arg.startswith(self.game_flag + "="):
                    return arg.partition("=")[2]
            if "--help" in args:
                return None  # a help page with no game named shows every game's options
            for param in self.params:
                if self.game_flag in getattr(param, "opts", ()):
                    return str(param.default)
            return None
        takes_value = self._value_flags()
        for index, arg in enumerate(args):
            if arg in GAMES and (index == 0 or args[index - 1] not in takes_value):
                return arg
        return None

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[_GAME] = self._named_game(args)
        return super().parse_args(ctx, args)

    def _rule_params(self, ctx: Any) -> list[TyperOption]:
        params: list[TyperOption] | None = ctx.meta.get(_PARAMS)
        if params is None:
            from rummykit.games.registry import GAMES

            name = ctx.meta.get(_GAME)
            games = (
                [GAMES[name]] if isinstance(name, str) and name in GAMES else list(GAMES.values())
            )
            params = ctx.meta[_PARAMS] = rule_params(games)
        return params

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = [*self.params, *self._rule_params(ctx)]
        help_option = self.get_help_option(ctx)
        return params if help_option is None else [*params, help_option]

    def invoke(self, ctx: Any) -> Any:
        names = [param.name for param in self._rule_params(ctx) if param.name is not None]
        ctx.meta[_RULES] = {name: ctx.params.pop(name, None) for name in names}
        return super().invoke(ctx)


class SimulateCommand(RulesCommand):
    """``simulate``: the game is named by ``--game``."""

    game_flag = "--game"
