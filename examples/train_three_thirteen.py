"""Learn to play Three-Thirteen with masked PPO (NumPy only), then measure it.

The learner is a small neural network (the observation vector, 128 tanh units, one
logit per action id) whose illegal ids are masked out before the softmax.  It plays
``rummykit/ThreeThirteen-v0`` against the ``random`` bot, one round per episode (the
round drawn from 1..11), and is trained with PPO's clipped policy gradient: every
decision of a round is pushed towards or away by how much better than usual (a running
mean per round) the round's reward turned out, later decisions more (a discount of
0.97 a decision), each batch of 16 rounds learned from four times, with Adam and a
small entropy bonus.  The reward is the
environment's: the other player's round points minus the learner's, / 100.

After training, the network (argmax over the legal ids) plays whole eleven-round games
against ``random`` and ``greedy`` through the simulator (``rummykit.sim``): every deal
from both seats, with the statistics ``rummykit simulate`` prints.

    python examples/train_three_thirteen.py [--seconds 240] [--games 50] [--save policy.npz]

Needs only the ``envs`` extra (NumPy).  Results: docs/envs.md.

The saved network enters the open benchmark (docs/benchmark.md) through :func:`entrant`,
a factory the benchmark calls in a process of its own, where the network sees each
decision's observation encoded exactly as the PettingZoo environment
(``three_thirteen_v0``) encodes it for its agents:

    THREE_THIRTEEN_POLICY=policy.npz PYTHONPATH=examples rummykit ladder \
        --suite three-thirteen/2 --rungs random,easy,greedy,train_three_thirteen:entrant
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from rummykit.bots.base import Decision
from rummykit.bots.levels import make_bot
from rummykit.cli.simulate import summary_table
from rummykit.envs import three_thirteen_actions, three_thirteen_encoding
from rummykit.envs.gym_env import ThreeThirteenEnv
from rummykit.games import three_thirteen
from rummykit.games.core import rules_to_json
from rummykit.games.registry import game_named
from rummykit.sim.match import play_game
from rummykit.sim.series import TaskResult, make_tasks, summarize

ACTIONS = three_thirteen_actions.ACTION_COUNT


class Policy:
    """A two-layer network with masked softmax over the action ids, trained by Adam."""

    def __init__(self, inputs: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0, 0.01, (hidden, ACTIONS)).astype(np.float32),
            "b2": np.zeros(ACTIONS, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.updates = 0

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        hidden = np.tanh(x @ p["w1"] + p["b1"])
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=-1, keepdims=True), hidden

    def choose(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
        probabilities, _ = self.probabilities(x, mask)
        if rng is None:
            return int(np.argmax(probabilities))
        return int(np.searchsorted(np.cumsum(probabilities), rng.random() * 0.999999))

    def update(
        self,
        xs: np.ndarray,
        masks: np.ndarray,
        actions: np.ndarray,
        advantages: np.ndarray,
        old: np.ndarray,
        *,
        learning_rate: float,
        entropy: float,
        clip: float = 0.2,
    ) -> None:
        """One step on PPO's clipped objective (old: the probabilities when played)."""
        probabilities, hidden = self.probabilities(xs, masks)
        count = len(actions)
        ratio = probabilities[np.arange(count), actions] / old
        clipped = ((advantages > 0) & (ratio > 1 + clip)) | ((advantages < 0) & (ratio < 1 - clip))
        weights = np.where(clipped, 0.0, advantages * ratio).astype(np.float32)
        # d(-weight * log p(a)) / d logits = weight * (p - onehot(a)).
        grad_logits = probabilities * weights[:, None]
        grad_logits[np.arange(count), actions] -= weights
        # Entropy bonus: d(-H)/d logits = p * (log p + H), on the legal ids only.
        log_p = np.log(np.where(masks > 0, probabilities, 1.0))
        plogp = (probabilities * log_p).sum(axis=1, keepdims=True)
        grad_logits += entropy * probabilities * (log_p - plogp)
        grad_logits /= count
        p = self.params
        grads = {
            "w2": hidden.T @ grad_logits,
            "b2": grad_logits.sum(axis=0),
        }
        grad_hidden = (grad_logits @ p["w2"].T) * (1 - hidden**2)
        grads["w1"] = xs.T @ grad_hidden
        grads["b1"] = grad_hidden.sum(axis=0)
        self.updates += 1
        for name, grad in grads.items():
            first, second = self.moments[name]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad * grad
            corrected = first / (1 - 0.9**self.updates)
            scale = np.sqrt(second / (1 - 0.999**self.updates)) + 1e-8
            p[name] -= (learning_rate * corrected / scale).astype(np.float32)


def train(
    seconds: float, seed: int, batch: int = 16, epochs: int = 4
) -> tuple[Policy, dict[str, Any]]:
    """PPO: batches of ``batch`` rounds, each batch learned from ``epochs`` times."""
    rng = np.random.default_rng(seed)
    envs = {
        r: ThreeThirteenEnv(first_round=r, last_round=r, opponents="random", win_reward=0.0)
        for r in range(1, 12)
    }
    size = three_thirteen_encoding.layout(2).size
    policy = Policy(size, 128, seed)
    baselines = dict.fromkeys(envs, 0.0)
    started = time.perf_counter()
    episodes = steps = 0
    recent: list[float] = []
    while time.perf_counter() - started < seconds:
        xs, masks, actions, advantages, olds = [], [], [], [], []
        for _ in range(batch):
            round_number = int(rng.integers(1, 12))
            env = envs[round_number]
            observation, _ = env.reset(seed=int(rng.integers(0, 2**62)))
            episode_actions = []
            total = 0.0
            done = False
            while not done:
                x, mask = observation["observation"], observation["action_mask"]
                probabilities, _ = policy.probabilities(x, mask)
                action = int(np.searchsorted(np.cumsum(probabilities), rng.random() * 0.999999))
                xs.append(x)
                masks.append(mask)
                olds.append(probabilities[action])
                episode_actions.append(action)
                observation, reward, done, _, _ = env.step(action)
                total += float(reward)
                steps += 1
            baseline = baselines[round_number]
            baselines[round_number] = 0.9 * baseline + 0.1 * total
            # Later decisions weigh more: going out ends the round at once.
            count = len(episode_actions)
            discount = 0.97 ** np.arange(count - 1, -1, -1)
            advantages.extend((total - baseline) * discount)
            actions.extend(episode_actions)
            recent.append(total)
            episodes += 1
        advantage = np.array(advantages, np.float32)
        advantage /= advantage.std() + 1e-6
        batch_x, batch_masks = np.array(xs), np.array(masks)
        batch_actions, batch_old = np.array(actions), np.array(olds, np.float32)
        for _ in range(epochs):
            policy.update(
                batch_x,
                batch_masks,
                batch_actions,
                advantage,
                batch_old,
                learning_rate=1e-3,
                entropy=0.01,
            )
        if (episodes // batch) % 10 == 0:
            print(
                f"{time.perf_counter() - started:6.0f} s  {episodes:6d} rounds  mean reward of"
                f" the last 160: {np.mean(recent[-160:]):+.3f}",
                flush=True,
            )
    return policy, {"episodes": episodes, "steps": steps, "seconds": time.perf_counter() - started}


class PolicyBot:
    """The trained network as a simulator bot: it sees the engine observation and the
    legal actions, like every bot, and plays the legal id it rates highest."""

    name = "policy"

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        x = three_thirteen_encoding.encode(observation)
        mask = three_thirteen_actions.legal_mask(legal_actions)
        action_id = self.policy.choose(x, mask, None)
        return Decision(three_thirteen_actions.engine_action(action_id), "the learned policy")


def entrant(game: str) -> PolicyBot:
    """The benchmark's factory: the network saved by ``--save``, read from the file that
    the environment variable ``THREE_THIRTEEN_POLICY`` names (``policy.npz`` if unset).
    It plays Three-Thirteen for two."""
    if game != "three-thirteen":
        raise ValueError(f"the learned policy plays three-thirteen, not {game}")
    weights = np.load(os.environ.get("THREE_THIRTEEN_POLICY", "policy.npz"))
    policy = Policy(three_thirteen_encoding.layout(2).size, 128, 0)
    for name in policy.params:
        policy.params[name] = weights[name]
    return PolicyBot(policy)


def evaluate(policy: Policy, opponent: str, games: int, seed: int) -> Any:
    """Whole games against ``opponent``, every deal from both seats (duplicate)."""
    game = game_named("three-thirteen")
    rules = three_thirteen.Rules()
    entries = ["policy", opponent]
    tasks = make_tasks(
        game="three-thirteen", rules=rules, entries=entries, games=games, seed=seed, duplicate=True
    )
    results = []
    for task in tasks:
        bots = [
            PolicyBot(policy) if entries[entry] == "policy" else make_bot(game.name, opponent)
            for entry in task.seating
        ]
        outcome = play_game(game, rules, bots, task.seed)
        results.append(
            TaskResult(
                task=task,
                totals=outcome.totals,
                winners=outcome.winners,
                decisions=outcome.decisions,
                decision_seconds=outcome.decision_seconds,
                record=None,
            )
        )
    return summarize(
        game="three-thirteen",
        entries=entries,
        results=results,
        seed=seed,
        duplicate=True,
        rules=rules_to_json(rules),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="training time")
    parser.add_argument("--games", type=int, default=50, help="deals per evaluation match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="write the network's weights here (.npz)")
    options = parser.parse_args()
    from rich.console import Console

    console = Console(highlight=False)
    policy, info = train(options.seconds, options.seed)
    console.print(
        f"trained for {info['seconds']:.0f} s: {info['episodes']} rounds,"
        f" {info['steps']} decisions, {policy.updates} updates"
    )
    if options.save:
        np.savez(options.save, **policy.params)
    for opponent in ("random", "greedy"):
        summary = evaluate(policy, opponent, options.games, seed=1000)
        console.print(summary_table(summary))


if __name__ == "__main__":
    main()
