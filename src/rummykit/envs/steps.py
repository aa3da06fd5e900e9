"""A game driven by integer actions: the shape both games' step models share.

A *step model* holds one engine state and plays it through a fixed integer action
space: it lists the legal action ids of the player to move (the mask), applies an id,
encodes what one player sees as a NumPy vector, and names ids in the game's notation.
Legality is never decided here: every id maps to an engine action (or, in Burraco, to
one step of choosing the cards of a meld) and the engine's ``check``/``legal_actions``
answer.  Everything a vector shows comes from ``state.observation(player)``.

The PettingZoo, Gymnasium and OpenSpiel adapters all drive a step model; this module
never imports them, nor either game's model (:mod:`.step_models` makes one by name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rummykit.envs.layout import FloatArray, Layout
from rummykit.games.core import Refusal, rules_from_json
from rummykit.games.registry import game_named

Mask = npt.NDArray[np.int8]


class StepError(ValueError):
    """An action that is not an id of the action space (wrong type or out of range)."""


class IllegalStep(ValueError):
    """A legal-looking id that the rules refuse now; carries the engine's refusal."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class StepModel(Protocol):
    """One game played through integer actions (see the module docstring)."""

    game: str
    action_count: int
    layout: Layout
    state: Any

    @property
    def num_players(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def pending(self) -> tuple[int, ...]:
        """The cards chosen so far for a Burraco meld (empty between engine actions)."""
        ...

    def clone(self) -> StepModel: ...
    def legal_ids(self) -> Sequence[int]: ...
    def mask(self) -> Mask: ...
    def refusal(self, action_id: int) -> Refusal | None: ...
    def step(self, action_id: int) -> list[Any]: ...
    def apply(self, action: Any) -> list[Any]: ...
    def observation(self, player: int) -> Any:
        """The engine's observation of ``player`` (cached until the next action)."""
        ...

    def encode(self, player: int) -> FloatArray: ...
    def describe(self, action_id: int) -> str: ...
    def action_id(self, action: Any) -> int:
        """The id that plays the engine ``action`` in one step (draws, discards)."""
        ...


def action_index(value: object, action_count: int) -> int:
    """``value`` as an id of an action space of ``action_count`` ids, or ``StepError``.

    Accepts Python and NumPy integers (also a 0-d or 1-element integer array).

    >>> action_index(np.int32(5), 10)
    5
    >>> action_index(10, 10)
    Traceback (most recent call last):
    ...
    rummykit.envs.steps.StepError: action 10 is outside the action space 0..9
    """
    if type(value) is int and 0 <= value < action_count:
        return value
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise StepError(f"an action is an integer id, not {value!r}")
    index = int(value)
    if not 0 <= index < action_count:
        raise StepError(f"action {index} is outside the action space 0..{action_count - 1}")
    return index


_MASK_DTYPE = np.dtype(np.int8)


def mask_of(ids: Iterable[int], action_count: int) -> Mask:
    """A new mask with 1 at ``ids`` (written byte by byte: one NumPy call in all, with a
    dtype built once, which costs more than the call itself when converted each time)."""
    row = bytearray(action_count)
    for index in ids:
        row[index] = 1
    return np.frombuffer(row, _MASK_DTYPE)


def rules_for(game: str, options: Mapping[str, Any]) -> Any:
    """The game's ``Rules`` from keyword options (``ValueError`` names a bad one)."""
    info = game_named(game)
    if isinstance(options, info.rules_type):
        return options
    return rules_from_json(info.rules_type, dict(options))
