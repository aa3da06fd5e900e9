"""Watching bots for play that goes round in circles: repeated positions and stalemates.

A *position* here is the whole table at the start of a turn (the player to move, every
card's place, in face terms, with the hand's number): when a position comes back, the
turns between its two visits changed nothing, whatever the players did in them (took
the one-card pile and threw its twin back, or took the top discard and discarded it
again).  Overlapping stretches between two visits of a position are one *no-progress
cycle*; its length is the number of turns from the first visit to the last.  A pair of
players who each take the card and throw it back once make a cycle of 2 turns; two
players who do so until the stalemate rule ends the hand make one of a hundred turns
and more.

:func:`watch_game` plays one game like :func:`rummykit.sim.match.play_game`, keeping
for each hand its turns, its longest cycle and whether the stalemate rule ended it.
The watcher reads the real state (it is the referee, not a player); the bots still see
only their observations.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.bots.base import Bot
from rummykit.bots.by_game import bots_for
from rummykit.games.registry import AnyGame
from rummykit.sim.match import bot_rng


@dataclass(frozen=True, slots=True, kw_only=True)
class HandCycles:
    """One hand (or round) as the watcher saw it: its number, how many turns it lasted,
    its longest no-progress cycle in turns (0 when no position came back), whether the
    stalemate rule ended it, and its *throwbacks*: the moves a bot chose that the game's
    ``moves_with_progress`` leaves out (a card taken alone from the pile thrown back
    while nobody drew from the stock, or a take that could only be thrown back)."""

    hand_number: int
    turns: int
    longest_cycle: int
    stalemate: bool
    throwbacks: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCycles:
    """The hands of one watched game, with its seed and final totals."""

    seed: int
    hands: tuple[HandCycles, ...]
    totals: tuple[int, ...]

    @property
    def longest_cycle(self) -> int:
        return max((hand.longest_cycle for hand in self.hands), default=0)

    @property
    def stalemates(self) -> int:
        return sum(hand.stalemate for hand in self.hands)

    @property
    def throwbacks(self) -> int:
        return sum(hand.throwbacks for hand in self.hands)


def longest_cycle(positions: Sequence[Hashable]) -> int:
    """The longest stretch of turns covered by returns to an earlier position: each
    position ``t`` equal to an earlier one ``s`` (its latest visit) covers turns ``s``
    to ``t``; overlapping stretches join.  ``positions`` are those at the start of each
    turn, in order.

    >>> longest_cycle(["a", "b", "c"])
    0
    >>> longest_cycle(["a", "b", "a", "b", "a", "c"])  # a, b, a, b, a: four turns
    4
    >>> longest_cycle(["a", "b", "a", "c", "d", "c"])  # two short ones
    2
    """
    last_seen: dict[Hashable, int] = {}
    longest = 0
    start = end = -1
    for turn, position in enumerate(positions):
        earlier = last_seen.get(position)
        last_seen[position] = turn
        if earlier is None:
            continue
        start = min(start, earlier) if earlier <= end else earlier
        end = turn
        longest = max(longest, end - start)
    return longest


def position_key(state: Any) -> Hashable:
    """The table at the start of a turn: the hand's number, the player to move and every
    place's cards (sorted: which copy of a face is where is no part of a position)."""
    places = state.locations()
    return (
        state.hand_number,
        state.current_player,
        tuple(sorted((place, tuple(sorted(cards))) for place, cards in places.items())),
    )


def _ended_by_stalemate(state: Any, turns: int) -> bool:
    """Whether the hand just scored (the last of ``state.hand_results``) was ended by the
    stalemate rule: Burraco names the reason; a Three-Thirteen round in which no one went
    out and which lasted the stalemate's turns ended by it."""
    result = state.hand_results[-1]
    reason = getattr(result, "reason", None)
    if reason is not None:
        return bool(reason == "stalemate")
    return result.went_out is None and turns >= state.rules.stalemate_turns


def watch_game(
    game: AnyGame,
    rules: Any,
    bots: Sequence[Bot],
    seed: int,
    *,
    max_actions: int = 1_000_000,
) -> GameCycles:
    """Play a whole game with ``bots[p]`` in seat ``p`` (each on the random generator
    :func:`~rummykit.sim.match.bot_rng` gives it) and watch every hand for cycles."""
    state = game.new_state(rules, seed)
    if len(bots) != state.num_players:
        raise ValueError(f"{len(bots)} bots for a {state.num_players}-player game")
    rngs = [bot_rng(seed, seat) for seat in range(len(bots))]
    moving = bots_for(game.name).moves_with_progress
    hands: list[HandCycles] = []
    positions: list[Hashable] = []
    throwbacks = 0
    hand_number = state.hand_number
    for _ in range(max_actions):
        player = state.current_player
        if player is None:
            break
        if state.phase == "draw":
            positions.append(position_key(state))
        actions = list(state.legal_actions())
        if len(actions) == 1:
            action = actions[0]
        else:
            observation = state.observation(player)
            action = bots[player].decide(observation, actions, rngs[player]).action
            throwbacks += action not in moving(observation, actions)
        state.apply(action)
        if state.hand_over or state.game_over:
            turns = len(positions)
            hands.append(
                HandCycles(
                    hand_number=hand_number,
                    turns=turns,
                    longest_cycle=longest_cycle(positions),
                    stalemate=_ended_by_stalemate(state, turns),
                    throwbacks=throwbacks,
                )
            )
            positions = []
            throwbacks = 0
            hand_number = state.hand_number
    else:
        raise RuntimeError(f"the game of seed {seed} did not end in {max_actions} actions")
    return GameCycles(seed=seed, hands=tuple(hands), totals=tuple(state.totals))
