"""Checks for reading untrusted JSON into Three-Thirteen values.

Every helper either returns a value of the expected type or raises ``ValueError`` with a
message naming what was wrong; none of them ever lets a ``KeyError`` or ``TypeError``
escape.  Nothing here knows the rules of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from rummykit.cards import Card, CardError, parse_card

T = TypeVar("T", bound=str)


def require_object(data: object, what: str, keys: frozenset[str]) -> Mapping[str, Any]:
    """``data`` as a JSON object holding exactly ``keys``."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    if data.keys() == keys:
        return data
    expected = set(keys)
    missing = sorted(expected - set(data))
    if missing:
        raise ValueError(f"{what} lacks the field {missing[0]!r}")
    unknown = sorted(str(key) for key in set(data) - expected)
    if unknown:
        raise ValueError(f"{what} has an unknown field {unknown[0]!r}")
    return data


def require_int(
    value: object, what: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} must be at most {maximum}, not {value}")
    return value


def require_optional_int(
    value: object, what: str, *, minimum: int | None = None, maximum: int | None = None
) -> int | None:
    if value is None:
        return None
    return require_int(value, what, minimum=minimum, maximum=maximum)


def require_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def require_choice(value: object, what: str, choices: tuple[T, ...]) -> T:
    for choice in choices:
        if value == choice and isinstance(value, str):
            return choice
    raise ValueError(f"{what} must be one of {', '.join(choices)}, not {value!r}")


def require_list(value: object, what: str, *, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a JSON list")
    if length is not None and len(value) != length:
        raise ValueError(f"{what} must hold {length} entries, not {len(value)}")
    return value


def require_card(value: object, what: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a card name, not {value!r}")
    try:
        return parse_card(value)
    except CardError as error:
        raise ValueError(f"{what}: {error}") from None


def require_cards(value: object, what: str) -> tuple[Card, ...]:
    return tuple(require_card(item, what) for item in require_list(value, what))
