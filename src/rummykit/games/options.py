"""A game's rule options as data: name, type, default, choices and help, read off its
``Rules`` dataclass.

Each game declares its options once, as the fields of its frozen ``Rules``; a field's
``metadata`` (built by :func:`option`) adds what a type cannot say: the help text, the
choices of an ``int`` option, and whether the option is the number of seats (which a
table or a command takes from its seats rather than from a rule option).  The server's
catalog, the command line and the tests read :func:`rule_options`; nothing here knows a
game by name.

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class Rules:
...     jokers: int = field(default=2, metadata=option("Jokers in the deck.", choices=(2, 4)))
...     fast: bool = field(default=False, metadata=option("Play fast."))
>>> [(o.name, o.kind, o.default, o.choices) for o in rule_options(Rules)]
[('jokers', 'int', 2, (2, 4)), ('fast', 'bool', False, None)]
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

OptionKind = Literal["int", "bool", "choice"]
OptionValue = int | bool | str

_HELP = "rummykit.help"
_CHOICES = "rummykit.choices"
_SEATS = "rummykit.seats"
_AS_COUNT = "rummykit.as_count"
_OMIT_DEFAULT = "rummykit.omit_default"


def option(
    help: str,
    *,
    choices: tuple[OptionValue, ...] | None = None,
    seats: bool = False,
    as_count: int | None = None,
    omit_default: bool = False,
) -> Mapping[str, Any]:
    """The ``metadata`` of a ``Rules`` field: its one-line ``help``, the ``choices`` of an
    ``int`` option whose check allows only a few values, ``seats`` for the player count,
    ``as_count`` for a ``bool`` that people say as a number (0 or ``as_count``, as
    Three-Thirteen's jokers: ``--jokers 2``), and ``omit_default`` for an option added
    after games were recorded: its JSON (``core.rules_to_json``) leaves it out while it
    has its default, so the rules of every earlier game keep their exact text (Burraco's
    ``players``)."""
    return {
        _HELP: help,
        _CHOICES: choices,
        _SEATS: seats,
        _AS_COUNT: as_count,
        _OMIT_DEFAULT: omit_default,
    }


def omitted_at_default(field: dataclasses.Field[Any]) -> bool:
    """Whether the JSON of the rules leaves ``field`` out while it has its default."""
    return bool(field.metadata.get(_OMIT_DEFAULT, False))


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleOption:
    """One rule option: ``kind`` is ``"int"``, ``"bool"`` or ``"choice"`` (a ``Literal``
    of strings, whose ``choices`` are listed); ``choices`` is ``None`` when any value the
    rules' check accepts will do."""

    name: str
    kind: OptionKind
    default: OptionValue
    choices: tuple[OptionValue, ...] | None
    help: str
    seats: bool = False
    as_count: int | None = None

    @property
    def flag(self) -> str:
        """The option's command-line flag: ``max_hands`` is ``--max-hands``."""
        return "--" + self.name.replace("_", "-")


@functools.cache
def rule_options(rules_type: type) -> tuple[RuleOption, ...]:
    """The options of a ``Rules`` dataclass, in field order, the seats option included.

    ``TypeError`` for a field whose type is not ``int``, ``bool`` or a ``Literal`` of
    strings, or that has no default: a table must be able to leave any option out.
    """
    if not dataclasses.is_dataclass(rules_type):
        raise TypeError(f"{rules_type!r} is not a dataclass of rule options")
    hints = typing.get_type_hints(rules_type)
    options = []
    for field in dataclasses.fields(rules_type):
        hint = hints[field.name]
        choices = field.metadata.get(_CHOICES)
        kind: OptionKind
        if typing.get_origin(hint) is Literal:
            kind, choices = "choice", tuple(typing.get_args(hint))
        elif hint is bool:
            kind = "bool"
        elif hint is int:
            kind = "int"
        else:
            raise TypeError(f"rule option {field.name!r} has the type {hint!r}")
        if field.default is dataclasses.MISSING:
            raise TypeError(f"rule option {field.name!r} has no default")
        options.append(
            RuleOption(
                name=field.name,
                kind=kind,
                default=field.default,
                choices=choices,
                help=field.metadata.get(_HELP, ""),
                seats=bool(field.metadata.get(_SEATS, False)),
                as_count=field.metadata.get(_AS_COUNT),
            )
        )
    return tuple(options)
