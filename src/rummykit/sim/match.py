"""Playing one game between bots: the loop every match, test and benchmark uses.

Each seat's bot sees only its own observation and the legal actions; it draws on its
own random generator, seeded from the game's seed and the seat, so a game between
deterministic bots is reproducible from its seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.bots.base import Bot
from rummykit.games.registry import AnyGame


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one game ended: totals and winners by seat, how many decisions each seat's
    bot made (forced moves, with a single legal action, are not asked) and the time it
    took over them."""

    seed: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]
    decision_seconds: tuple[float, ...]
    actions: int
    state: Any


def bot_rng(seed: int, seat: int) -> random.Random:
    """The random generator of the bot in ``seat`` for the game of ``seed``."""
    return random.Random(f"rummykit-bot/{seed}/{seat}")


def play_game(
    game: AnyGame,
    rules: Any,
    bots: Sequence[Bot],
    seed: int,
    *,
    max_actions: int = 1_000_000,
) -> GameResult:
    """Play a whole game of ``game`` with ``bots[p]`` in seat ``p``."""
    state = game.new_state(rules, seed)
    if len(bots) != state.num_players:
        raise ValueError(f"{len(bots)} bots for a {state.num_players}-player game")
    rngs = [bot_rng(seed, seat) for seat in range(len(bots))]
    decisions = [0] * len(bots)
    thinking = [0.0] * len(bots)
    for _ in range(max_actions):
        player = state.current_player
        if player is None:
            break
        actions = list(state.legal_actions())
        if len(actions) == 1:
            action = actions[0]
        else:
            started = time.perf_counter()
            action = bots[player].decide(state.observation(player), actions, rngs[player]).action
            thinking[player] += time.perf_counter() - started
            decisions[player] += 1
        state.apply(action)
    else:
        raise RuntimeError(f"the game of seed {seed} did not end in {max_actions} actions")
    return GameResult(
        seed=seed,
        totals=tuple(state.totals),
        winners=tuple(state.winners),
        decisions=tuple(decisions),
        decision_seconds=tuple(thinking),
        actions=len(state.actions),
        state=state,
    )
