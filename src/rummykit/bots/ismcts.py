"""``ismcts``: information-set Monte Carlo tree search, one search for every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012).  The bot sees one
observation; each iteration of the search

1. *determinizes* it: ``game.determinize(observation, seed)`` deals the cards the
   player cannot see at random, consistently with everything the player saw;
2. *selects*: from the root, while every action legal in this determinization already
   has a child, it follows the child with the best UCB1 score among those legal here,
   counting for each of them one more *availability* (how often the action could have
   been chosen), which stands for the parent's visits in the UCB1 formula; the game
   may leave out actions not worth searching (:meth:`Playout.candidates`);
3. *expands* one action legal here that has no child yet, chosen at random;
4. *rolls out*: the game's :class:`Playout` plays on with a cheap policy and scores the
   position (the end of the round, or an evaluation after a few turns);
5. *backpropagates* the rewards, each node adding the reward of the player who made
   the move that leads to it.

Actions are hashable values, so the same action in two determinizations is the same
edge.  The tree holds the opponents' moves too, chosen from the search's own viewpoint.
After the budget, the bot plays the root's most visited action that is legal now
(without paired rounds; with them, see below).

*Paired rounds* (the adapter's choice; both games use them): at the root, instead of
UCB1, the iterations come in rounds in which every root action is played once on the
same determinization with the same random stream for the rest of the iteration (common
random numbers); below the root the search is as above.  The root actions are then
compared on identical deals.  In a game where the luck of the deal dwarfs the
difference between two moves, this measures that difference with far fewer
simulations.

*The guide*: the game's playout names the move its rule-based player would make
(:attr:`SearchAdapter.guide`, the ``greedy`` bot), and that move is always searched.  With
paired rounds the bot plays another move only when it beat the guide's on the same
deals by a clear margin: the mean of the paired differences less
:data:`CONFIDENCE` standard errors must be above 0.  Picking the best of many noisy
means otherwise picks noise; this way the search keeps the guide's judgement and
overrides it only where the simulations show it wrong.

*Inference* (``play_model``, off by default): the determinizations are drawn by
:class:`~rummykit.bots.inference.InferenceSampler`, in proportion to how likely the other
players' observed moves are under the model of play, instead of uniformly (one pool of
candidate deals a decision, its seed drawn from the decision's ``rng``).

Budgets: ``iterations`` (deterministic given the ``rng`` handed to ``decide``) or
``seconds`` (wall-clock time per decision, so **not** deterministic); with both, the
search stops at whichever comes first.  ``last_iterations`` and ``last_seconds`` say
how much the last decision searched.

A bot never sees a real game state: the only states here are determinizations it built
from its observation.  This module knows no game: what a game needs (the rollout
policy, when to stop, how to score) comes from a :class:`SearchAdapter`; the adapters of
the two games live in :mod:`rummykit.bots.burraco.evaluate` and
:mod:`rummykit.bots.three_thirteen.evaluate`.  It never does I/O and never uses the
global ``random`` module.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final, Protocol

from rummykit.bots.base import Bot, Decision
from rummykit.bots.inference import InferenceSampler, PlayModel
from rummykit.bots.reasons import Reason
from rummykit.games.registry import AnyGame

DEFAULT_SECONDS: Final = 0.5
"""The time budget per decision when neither ``iterations`` nor ``seconds`` is given."""
SEED_BITS: Final = 63
CONFIDENCE: Final = 2.0
"""Standard errors by which a move must beat the guide's on paired rounds to be played
instead (a one-sided 97.7% bound for each move: several moves are each compared with
the guide's, and a false overrule costs more than a missed one)."""
MIN_ROUNDS: Final = 8
"""Paired rounds needed before the search may overrule the guide."""


class Playout(Protocol):
    """What the search needs from a game for one decision (built from the observation).

    ``root_candidates(legal_actions)``: the actions worth searching at the root, a
    non-empty part of the legal ones (the others are never played; the guide's move is
    searched in any case).
    ``candidates(state, actions)``: the same below the root, for the player to move in
    ``state`` among its legal ``actions`` (in their order).  ``finished(state)``: the
    search horizon is reached in ``state`` (the hand or round of the decision is over),
    so selection stops there.  ``rewards(state, rng)``: play on from ``state`` with a
    cheap policy (or not at all if finished), then score; one reward per player, each
    in ``-1 .. 1``, higher is better for that player.
    """

    def root_candidates(self, legal_actions: Sequence[Any]) -> Sequence[Any]: ...

    def candidates(self, state: Any, actions: list[Any]) -> Sequence[Any]: ...

    def finished(self, state: Any) -> bool: ...

    def rewards(self, state: Any, rng: random.Random) -> Sequence[float]: ...


class SearchAdapter(Protocol):
    """A game as the search sees it: the game itself, the UCB1 exploration constant
    suited to the scale of its rewards, whether the root plays paired rounds, the guide
    (the game's rule-based bot, asked the decision's move) and a :class:`Playout` per
    decision."""

    @property
    def game(self) -> AnyGame: ...

    @property
    def exploration(self) -> float: ...

    @property
    def paired(self) -> bool: ...

    @property
    def guide(self) -> Bot: ...

    def playout(self, observation: Any) -> Playout: ...


class Node:
    """One node of the search tree: the move that leads to it and its statistics.

    ``player`` made ``action``; ``reward`` is the sum of that player's rewards over the
    ``visits`` through this node; ``availability`` counts the iterations in which
    ``action`` was legal at the parent (and this node existed).
    """

    __slots__ = ("action", "availability", "children", "parent", "player", "reward", "visits")

    def __init__(self, action: Hashable, parent: Node | None, player: int) -> None:
        self.action = action
        self.parent = parent
        self.player = player
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward = 0.0

    @property
    def value(self) -> float:
        """The mean reward of ``player`` through this node (0 before any visit)."""
        return self.reward / self.visits if self.visits else 0.0


def _check_budget(iterations: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    if iterations is None and seconds is None:
        return None, DEFAULT_SECONDS
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
    ):
        raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or seconds <= 0
    ):
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    return iterations, None if seconds is None else float(seconds)


class ISMCTSBot:
    """Information-set MCTS for any game with a :class:`SearchAdapter`.

    >>> from rummykit.games.three_thirteen import GAME, Rules
    >>> from rummykit.bots.three_thirteen.evaluate import ThreeThirteenSearch
    >>> state = GAME.new_state(Rules(first_round=3, last_round=3), 7)
    >>> bot = ISMCTSBot(ThreeThirteenSearch(), iterations=40)
    >>> player = state.current_player
    >>> legal = list(state.legal_actions())
    >>> decision = bot.decide(state.observation(player), legal, random.Random(1))
    >>> decision.action in legal, bot.last_iterations
    (True, 40)
    >>> sum(len(rewards) for rewards in bot.last_rounds.values())  # paired rounds
    40
    """

    name = "ismcts"

    def __init__(
        self,
        adapter: SearchAdapter,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        paired: bool | None = None,
        play_model: PlayModel | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.adapter = adapter
        self.game: AnyGame = adapter.game
        self.iterations, self.seconds = _check_budget(iterations, seconds)
        if exploration is None:
            exploration = adapter.exploration
        if not math.isfinite(exploration) or exploration < 0:
            raise ValueError(f"the exploration constant must be 0 or more, not {exploration!r}")
        self.exploration = float(exploration)
        self.paired = adapter.paired if paired is None else bool(paired)
        """Root actions in turn on shared determinizations (see the module docstring)."""
        self.play_model = play_model
        """The model of play the determinizations are weighted by (``None``: uniform)."""
        self._sampler: InferenceSampler | None = None
        self._clock = clock
        self.last_iterations = 0
        """Iterations of the last decision (0 when the move was forced)."""
        self.last_seconds = 0.0
        """Seconds the last decision took."""
        self.last_root: Node | None = None
        """The tree of the last decision (for tests and analysis)."""
        self.last_rounds: dict[Any, list[float]] = {}
        """Paired rounds of the last decision: each root action's rewards, round by
        round (for tests and analysis)."""

    @property
    def iterations_per_second(self) -> float:
        """The speed of the last decision's search (0.0 if it did not search)."""
        if not self.last_iterations or self.last_seconds <= 0:
            return 0.0
        return self.last_iterations / self.last_seconds

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        """The searched move for the player of ``observation``, with a reason a player
        can read: the guide's when the search keeps its move."""
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        started = self._clock()
        self.last_iterations = 0
        self.last_root = None
        self.last_rounds = {}
        if len(legal_actions) == 1:
            self.last_seconds = self._clock() - started
            return Decision(legal_actions[0], Reason.of("only_legal_move"))
        current = getattr(observation, "current_player", None)
        if not isinstance(current, int) or current != getattr(observation, "player", None):
            raise ValueError("the observation is not of the player to move")
        playout = self.adapter.playout(observation)
        advice = self.adapter.guide.decide(observation, legal_actions, rng)
        if advice.action not in legal_actions:
            raise ValueError("the game's guide chose a move that is not legal")
        legal = set(playout.root_candidates(legal_actions)) & set(legal_actions)
        legal.add(advice.action)
        if len(legal) == 1:
            self.last_seconds = self._clock() - started
            return advice
        root = Node(None, None, current)
        self._sampler = None
        if self.play_model is not None:
            self._sampler = InferenceSampler(
                self.game, observation, self.play_model, rng.getrandbits(SEED_BITS)
            )
        deadline = None if self.seconds is None else started + self.seconds
        limit = self.iterations
        done = 0
        order = self._root_actions(observation, legal) if self.paired else []
        rounds: dict[Any, list[float]] = {action: [] for action in order}
        world = 0
        while limit is None or done < limit:
            if order:  # paired rounds: each root action in turn on one seed
                turn = done % len(order)
                if turn == 0:
                    world = rng.getrandbits(SEED_BITS)
                action = order[turn]
                reward = self._iterate(
                    root, observation, playout, legal, random.Random(world), action
                )
                rounds[action].append(reward)
            else:
                self._iterate(root, observation, playout, legal, rng, None)
            done += 1
            if deadline is not None and self._clock() >= deadline:
                break
        self._sampler = None
        self.last_iterations = done
        self.last_root = root
        self.last_rounds = rounds
        self.last_seconds = self._clock() - started
        if order:
            return self._choose_paired(advice, rounds)
        return self._choose(root, [action for action in legal_actions if action in legal])

    # -----------------------------------------------------------------------------------

    def _root_actions(self, observation: Any, legal: set[Any]) -> list[Any]:
        """The root actions in the order a determinization lists them (the order
        depends on the observation alone)."""
        state = self.game.determinize(observation, 0)
        return [action for action in state.legal_actions() if action in legal]

    def _iterate(
        self,
        root: Node,
        observation: Any,
        playout: Playout,
        legal_at_root: set[Any],
        rng: random.Random,
        forced: Any,
    ) -> float:
        """One iteration drawing on ``rng`` alone; ``forced`` (paired rounds) is the root
        action to play.  Returns the reward of the player to move at the root."""
        sampler = self._sampler
        if sampler is None:
            state = self.game.determinize(observation, rng.getrandbits(SEED_BITS))
        else:
            state = sampler.sample(rng)
        node = root
        exploration = self.exploration
        log = math.log
        sqrt = math.sqrt
        if forced is not None:
            child = root.children.get(forced)
            if child is None:
                child = Node(forced, root, state.current_player)
                root.children[forced] = child
            child.availability += 1
            state.apply(forced)
            node = child
            if node.visits == 0:
                return self._backpropagate(node, root, playout.rewards(state, rng))
        while not playout.finished(state):
            if node is root:
                actions = [action for action in state.legal_actions() if action in legal_at_root]
            else:
                actions = list(state.legal_actions())
                if len(actions) > 1:
                    actions = list(playout.candidates(state, actions))
            children = node.children
            untried = [action for action in actions if action not in children]
            if untried:
                for action in actions:
                    child = children.get(action)
                    if child is not None:
                        child.availability += 1
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = Node(action, node, state.current_player)
                child.availability = 1
                children[action] = child
                state.apply_legal(action)
                node = child
                break
            best: Node | None = None
            best_score = -math.inf
            for action in actions:
                child = children[action]
                child.availability += 1
                score = child.reward / child.visits + exploration * sqrt(
                    log(child.availability) / child.visits
                )
                if score > best_score:
                    best, best_score = child, score
            if best is None:  # pragma: no cover - every reachable state has a legal action
                break
            state.apply_legal(best.action)
            node = best
        return self._backpropagate(node, root, playout.rewards(state, rng))

    @staticmethod
    def _backpropagate(node: Node, root: Node, rewards: Sequence[float]) -> float:
        while node is not root:
            node.visits += 1
            node.reward += rewards[node.player]
            parent = node.parent
            assert parent is not None
            node = parent
        root.visits += 1
        return rewards[root.player]

    def _choose(self, root: Node, legal_actions: Sequence[Any]) -> Decision:
        """UCB1 at the root: the most visited legal action."""
        legal = set(legal_actions)
        candidates = [child for child in root.children.values() if child.action in legal]
        if not candidates:  # pragma: no cover - the first iteration expands a legal action
            return Decision(
                legal_actions[0], Reason.of("no_simulation") + Reason.of("first_legal_move")
            )
        best = max(candidates, key=lambda child: (child.visits, child.value))
        return Decision(
            best.action,
            Reason.of(
                "search_best",
                simulations=root.visits,
                value=f"{best.value:+.2f}",
                visits=best.visits,
            ),
        )

    def _choose_paired(self, advice: Decision, rounds: dict[Any, list[float]]) -> Decision:
        """Paired rounds: the guide's move unless another clearly beat it (see the
        module docstring); the reason says which and by how much."""
        played = min(len(rewards) for rewards in rounds.values())
        guide = rounds[advice.action][:played]
        best: tuple[float, Any] | None = None
        if played >= MIN_ROUNDS:
            for action, rewards in rounds.items():
                if action == advice.action:
                    continue
                gain, error = paired_gain(rewards[:played], guide)
                if gain - CONFIDENCE * error > 0 and (best is None or gain > best[0]):
                    best = (gain, action)
        if best is None:
            return advice
        _, action = best
        usual = self.game.format_action(advice.action)
        return Decision(action, Reason.of("search_better", deals=played, usual=usual))


def paired_gain(rewards: Sequence[float], baseline: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences ``rewards - baseline`` and its standard error.

    >>> paired_gain([0.5, 0.5, 0.5, 0.75], [0.0, 0.0, 0.25, 0.25])
    (0.4375, 0.0625)
    """
    count = len(rewards)
    differences = [mine - theirs for mine, theirs in zip(rewards, baseline, strict=True)]
    mean = sum(differences) / count
    if count < 2:
        return mean, math.inf
    variance = sum((difference - mean) ** 2 for difference in differences) / (count - 1)
    return mean, math.sqrt(variance / count)
