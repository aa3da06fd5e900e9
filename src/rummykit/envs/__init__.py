"""Research environments: PettingZoo, Gymnasium and OpenSpiel over the same engine.

Needs the ``envs`` extra (``pip install 'rummykit[envs]'``: NumPy, Gymnasium,
PettingZoo); ``rummykit.envs.openspiel`` needs the ``openspiel`` extra.  Nothing in the
engine or the rest of the package imports this package.

- :mod:`.burraco_v0`, :mod:`.three_thirteen_v0`: PettingZoo AEC environments
  (``env()``) and parallel ones (``parallel_env()``, :mod:`.parallel`).
- ``rummykit/Burraco-v0``, ``rummykit/ThreeThirteen-v0``: Gymnasium single-agent
  environments (:mod:`.gym_env`), registered when this package is imported.
- :mod:`.text`: the game as text and JSON for language-model agents.
- :mod:`.openspiel`: ``python_burraco`` and ``python_three_thirteen`` for OpenSpiel.

Every observation vector is built from the engine's ``observation(player)`` alone.
"""

from __future__ import annotations

from rummykit.envs.gym_env import register as _register_gymnasium

_register_gymnasium()
