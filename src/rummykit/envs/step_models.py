"""Which step model plays which game: the one place that names both games' models.

:mod:`.steps` holds what the models share (the protocol, the errors, the id and mask
helpers) and each game's model imports it; this module sits above both, so that the
adapters (PettingZoo, Gymnasium, OpenSpiel) can make a model by the game's name without
:mod:`.steps` ever importing a game's model back.
"""

from __future__ import annotations

from typing import Any

from rummykit.envs.burraco_actions import BurracoSteps
from rummykit.envs.steps import StepModel
from rummykit.envs.three_thirteen_actions import ThreeThirteenSteps


def make_steps(game: str, rules: Any, seed: int) -> StepModel:
    """A new game of ``game`` dealt from ``seed``, as a step model."""
    if game == "burraco":
        return BurracoSteps.new(rules, seed)
    if game == "three-thirteen":
        return ThreeThirteenSteps.new(rules, seed)
    raise ValueError(f"unknown game {game!r}; the games are burraco and three-thirteen")
