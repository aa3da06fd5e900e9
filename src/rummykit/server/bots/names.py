"""What records and pages call a computer player: its level as players know it (Very
easy, Easy, Medium, Hard, Expert), not the algorithm that the level spec names (``random``,
``easy``, ``greedy``, ``ismcts:seconds=2``), which stays the protocol's value.  With
more than one computer at a table each one carries its seat number, as the client shows
it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

LEVEL_NAMES: Final = {
    "random": "Very easy",
    "easy": "Easy",
    "greedy": "Medium",
    "ismcts": "Hard",
    "expert": "Expert",
}


class SeatLike(Protocol):
    """A stored seat: who sits there (``human`` or ``bot``), a person's name, a bot's level."""

    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str | None: ...

    @property
    def level(self) -> str | None: ...


def level_name(spec: str | None) -> str:
    """The level a spec names, in words.

    >>> level_name("ismcts:seconds=2"), level_name("greedy"), level_name("newer")
    ('Hard', 'Medium', 'newer')
    """
    level = (spec or "").split(":")[0]
    return LEVEL_NAMES.get(level, level)


def computer_name(spec: str | None, seat: int | None = None) -> str:
    """A computer player's name, numbered by its seat (from 1) when ``seat`` is given.

    >>> computer_name("easy"), computer_name("greedy", 1)
    ('Computer (Easy)', 'Computer 2 (Medium)')
    """
    number = "" if seat is None else f" {seat + 1}"
    return f"Computer{number} ({level_name(spec)})"


def seat_names(seats: Sequence[SeatLike]) -> tuple[str, ...]:
    """Each seat's name in seat order: a person's name (empty for nobody yet), a
    computer's by :func:`computer_name`, numbered when there are several (unless the
    seat was given a name: a tournament's computer keeps its entrant's name)."""
    computers = sum(1 for s in seats if s.kind == "bot")
    return tuple(
        (s.name or computer_name(s.level, seat if computers > 1 else None))
        if s.kind == "bot"
        else (s.name or "")
        for seat, s in enumerate(seats)
    )
