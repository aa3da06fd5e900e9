"""The PettingZoo parallel environment both games share (``parallel_env()`` of
``burraco_v0`` and ``three_thirteen_v0``): a turn-based game in the parallel API.

Both games are turn-based: one player moves at a time, and a turn is several steps by
the same player.  PettingZoo's ``aec_to_parallel`` needs an environment where every
agent acts in every cycle, so it does not apply; its ``turn_based_aec_to_parallel``
wrapper does, and this class follows its conventions, written over the engine's step
model (through the AEC environment) so that it is an environment of its own:

- every agent still in the game is in ``agents`` and gets an observation each step;
  the ``action_mask`` is all zeros except for the agent to move;
- ``step(actions)`` plays the action of the agent to move only (its key must be there);
  the other agents' actions are ignored (sample them with their all-zero mask, or pass
  anything);
- ``infos[agent]["active_agent"]`` names the agent to move next; the agent that just
  moved also finds the engine's refusal in ``infos[agent]["refusal"]`` when its id was
  refused (``illegal="refuse"``);
- rewards are those the AEC environment gives for that step (:mod:`.rewards`);
- ``max_cycles``: every agent is truncated after that many parallel steps (each step is
  one cycle: every agent gives an action, as ``max_cycles_test`` counts); ``None`` never.
  It may be changed between episodes (``parallel_api_test`` sets it).

Every other option is the AEC environment's (:mod:`.aec`), and ``reset(seed=s)`` deals
the same game as the AEC environment's.  ``parallel_to_aec`` of this environment is a
PettingZoo AEC environment where agents take turns giving actions, one cycle per
parallel step (the shape ``max_cycles_test`` asks of an AEC environment); the games'
own AEC environments (``env()``) select only the agent to move instead.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from rummykit.envs.aec import RummyEnv


def check_max_cycles(max_cycles: object) -> int | None:
    """``max_cycles`` if it is ``None`` or a whole number of at least 1, else a
    ``ValueError``."""
    if max_cycles is not None and (
        isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
    ):
        raise ValueError(f"max_cycles is a whole number of at least 1, not {max_cycles!r}")
    return max_cycles


class RummyParallelEnv(ParallelEnv[str, dict[str, Any], Any]):
    """One game of Burraco or Three-Thirteen in PettingZoo's parallel API (see the module
    docstring), played by the AEC environment ``aec_env`` (built without ``max_cycles``:
    this class counts the cycles)."""

    def __init__(self, aec_env: RummyEnv, *, max_cycles: int | None = None) -> None:
        if aec_env.max_cycles is not None:
            raise ValueError("the AEC environment must not count cycles itself")
        self.aec_env = aec_env
        self.max_cycles = check_max_cycles(max_cycles)
        self.metadata = aec_env.metadata
        self.render_mode = aec_env.render_mode
        self.possible_agents = aec_env.possible_agents[:]
        self.observation_spaces = aec_env.observation_spaces
        self.action_spaces = aec_env.action_spaces
        self.agents: list[str] = []
        self._cycles = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec_env.action_space(agent)

    @property
    def state_seed(self) -> int:
        """The engine seed of the game being played."""
        return self.aec_env.state_seed

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        check_max_cycles(self.max_cycles)
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self.agents = aec.agents[:]
        self._cycles = 0
        observations = {agent: aec.observe(agent) for agent in self.agents}
        return observations, self._infos(self.agents)

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            return {}, {}, {}, {}, {}
        aec = self.aec_env
        mover = aec.agent_selection
        if mover not in actions:
            raise ValueError(f"{mover} is to move, and actions has no action for {mover}")
        aec.step(actions[mover])
        self._cycles += 1
        agents = self.agents
        rewards = {agent: float(aec.rewards[agent]) for agent in agents}
        terminations = {agent: bool(aec.terminations[agent]) for agent in agents}
        ended = any(terminations.values())
        cut = not ended and self.max_cycles is not None and self._cycles >= self.max_cycles
        truncations = dict.fromkeys(agents, cut)
        if cut:
            aec.truncations = dict.fromkeys(aec.agents, True)  # no mask for anyone
        observations = {agent: aec.observe(agent) for agent in agents}
        infos = self._infos(agents)
        self.agents = [] if ended or cut else agents
        return observations, rewards, terminations, truncations, infos

    def _infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        aec = self.aec_env
        mover = aec.agent_selection
        return {agent: {**aec.infos[agent], "active_agent": mover} for agent in agents}

    def render(self) -> str | None:
        """The table as the player to move sees it (``render_mode="human"`` prints it
        after every step already)."""
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()

    def __str__(self) -> str:
        return str(self.metadata["name"])
