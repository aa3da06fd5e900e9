"""What the environments need of each game, by the game's name: the one place that names
both games' step models.

:mod:`.steps` holds what the models share (the protocol, the errors, the id and mask
helpers) and each game's model imports it; this module sits above both, so that the
adapters (PettingZoo, Gymnasium, OpenSpiel) can make a model, describe an id or show the
table by the game's name without :mod:`.steps` ever importing a game's model back.  A
new game adds its step model (``<game>_actions``, ``<game>_encoding``) and one
:class:`GameSteps` entry in :data:`GAME_STEPS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.cards import Card
from rummykit.envs import burraco_actions, describe, three_thirteen_actions
from rummykit.envs.steps import StepModel


def _never(action_id: int) -> bool:
    return False


def _no_choices(cards: Sequence[Card]) -> list[int]:
    return []


def _burraco_hidden(action_id: int) -> bool:
    return burraco_actions.CHOOSE <= action_id < burraco_actions.LAY


def _burraco_choices(cards: Sequence[Card]) -> list[int]:
    return [burraco_actions.CHOOSE + card for card in cards]


def _burraco_moves(rules: Any) -> int:
    """Each turn two moves (draw, discard) for at most ``stalemate_turns`` turns, and each
    card chosen at most once and laid by one more move; a target game at most
    ``max_hands`` hands."""
    hands = 1 if rules.mode == "quick" else int(rules.max_hands)
    deck = 104 + int(rules.jokers)
    return hands * (2 * int(rules.stalemate_turns) + 2 * deck)


def _three_thirteen_moves(rules: Any) -> int:
    """Each round at most ``stalemate_turns`` turns plus the last turns after someone
    went out, each turn two moves."""
    rounds = int(rules.last_round - rules.first_round + 1)
    return rounds * 2 * (int(rules.stalemate_turns) + int(rules.players) - 1)


def _three_thirteen_text(observation: Any, pending: Sequence[Card]) -> str:
    return describe.three_thirteen_text(observation)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSteps:
    """One game's step model and what the adapters ask of it.

    - ``new(rules, seed)``: a new game dealt from ``seed``; ``from_state(state)``: a
      model over an engine state (a determinized one, say).
    - ``describe(id)``: an action id in words.
    - ``hidden_from_others(id)``: an id the other players do not see when it is taken
      (Burraco's chosen cards, seen once the meld is laid).
    - ``choice_ids(cards)``: the ids that choose ``cards`` again (a model's ``pending``
      cards) in a model rebuilt from a state.
    - ``max_moves(rules)``: an upper bound on the moves of one game.
    - ``text(observation, pending)``: the table as text (:mod:`.describe`).
    - ``notation``: the moves and cards in words, for a language model's prompt.
    """

    new: Callable[[Any, int], StepModel]
    from_state: Callable[[Any], StepModel]
    describe: Callable[[int], str]
    hidden_from_others: Callable[[int], bool]
    choice_ids: Callable[[Sequence[Card]], list[int]]
    max_moves: Callable[[Any], int]
    text: Callable[[Any, Sequence[Card]], str]
    notation: str


GAME_STEPS: Final[Mapping[str, GameSteps]] = {
    "burraco": GameSteps(
        new=burraco_actions.BurracoSteps.new,
        from_state=burraco_actions.BurracoSteps,
        describe=burraco_actions.describe,
        hidden_from_others=_burraco_hidden,
        choice_ids=_burraco_choices,
        max_moves=_burraco_moves,
        text=describe.burraco_text,
        notation=(
            "Moves: draw (the top stock card), take (the whole discard pile), "
            "meld <cards> (a new meld, e.g. meld 3h 4h 5h), extend <meld id> <cards> "
            "(add to your meld, e.g. extend 2 5h), discard <card> (ends your turn). "
            "Cards: rank A 2-9 T J Q K, suit c d h s; the joker is Jk."
        ),
    ),
    "three-thirteen": GameSteps(
        new=three_thirteen_actions.ThreeThirteenSteps.new,
        from_state=three_thirteen_actions.ThreeThirteenSteps,
        describe=three_thirteen_actions.describe,
        hidden_from_others=_never,
        choice_ids=_no_choices,
        max_moves=_three_thirteen_moves,
        text=_three_thirteen_text,
        notation=(
            "Moves: draw (the top stock card), take (the top discard), discard <card>, "
            "out <card> (go out: lay all other cards in melds and discard this one). "
            "Cards: rank A 2-9 T J Q K, suit c d h s; the joker is Jk."
        ),
    ),
}


def steps_of(game: str) -> GameSteps:
    """The step model of ``game``; ``ValueError`` naming the games otherwise."""
    steps = GAME_STEPS.get(game)
    if steps is None:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAME_STEPS)}")
    return steps


def make_steps(game: str, rules: Any, seed: int) -> StepModel:
    """A new game of ``game`` dealt from ``seed``, as a step model."""
    return steps_of(game).new(rules, seed)


def observation_text(game: str, observation: Any, pending: Sequence[Card] = ()) -> str:
    """The table as ``observation``'s player sees it, with the cards chosen so far."""
    return steps_of(game).text(observation, pending)


def table_text(steps: Any) -> str:
    """The table as the player to move sees it (the last player once the game is over)."""
    player = steps.current_player
    seat = 0 if player is None else player
    return observation_text(steps.game, steps.state.observation(seat), steps.pending)
