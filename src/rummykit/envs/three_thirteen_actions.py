"""Three-Thirteen's integer action space (108 ids) and its step model.

=========  =====================================================
id         action
=========  =====================================================
0          ``draw``: the top card of the stock
1          ``take``: the top card of the discard pile
2 + c      ``discard c``: discard the card of code ``c`` (0..52)
55 + c     ``out c``: go out, discarding the card of code ``c``
=========  =====================================================

Card codes are those of :mod:`rummykit.cards` (``suit * 13 + rank - 1``; the joker is
52).  Every engine action is exactly one id, so the mask of a state is the set of ids
of ``State.legal_actions()``.

>>> [describe(i) for i in (DRAW, TAKE, DISCARD + 11, GO_OUT + 52)]
['draw', 'take', 'discard Qc', 'out Jk']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import CARD_COUNT
from rummykit.envs import three_thirteen_encoding as encoding
from rummykit.envs.layout import FloatArray, Layout
from rummykit.envs.steps import IllegalStep, Mask, action_index, mask_of
from rummykit.games.core import IllegalAction, Refusal
from rummykit.games.three_thirteen import (
    Action,
    Discard,
    DrawStock,
    Event,
    GoOut,
    Observation,
    Rules,
    State,
    TakeDiscard,
    format_action,
)
from rummykit.games.three_thirteen.actions import DISCARDS, DRAW_STOCK, GO_OUTS, TAKE_DISCARD

DRAW: Final = 0
TAKE: Final = 1
DISCARD: Final = 2
GO_OUT: Final = DISCARD + CARD_COUNT
ACTION_COUNT: Final = GO_OUT + CARD_COUNT

_ACTIONS: Final[tuple[Action, ...]] = (DRAW_STOCK, TAKE_DISCARD, *DISCARDS, *GO_OUTS)


def engine_action(action_id: int) -> Action:
    """The engine action of an id (``StepError`` if it is not an id)."""
    return _ACTIONS[action_index(action_id, ACTION_COUNT)]


def action_id(action: Action) -> int:
    """The id of an engine action (``ValueError`` for anything else).

    >>> action_id(GoOut(0))
    55
    """
    kind = type(action)
    if kind is DrawStock:
        return DRAW
    if kind is TakeDiscard:
        return TAKE
    if kind is Discard or kind is GoOut:
        card = action.card  # type: ignore[union-attr]
        if type(card) is int and 0 <= card < CARD_COUNT:
            return (DISCARD if kind is Discard else GO_OUT) + card
    raise ValueError(f"{action!r} is not a Three-Thirteen action")


def describe(action_id: int) -> str:
    """An id in the engine's action notation."""
    return format_action(engine_action(action_id))


class ThreeThirteenSteps:
    """A Three-Thirteen game played through the 108 ids (see :mod:`.steps`)."""

    game = "three-thirteen"
    action_count = ACTION_COUNT

    def __init__(self, state: State) -> None:
        self.state = state
        self.layout: Layout = encoding.layout(state.num_players)
        self._legal: list[int] | None = None
        self._views: dict[int, Observation] = {}
        players = state.num_players
        self._encoders = [encoding.Encoder(players, player) for player in range(players)]

    @classmethod
    def new(cls, rules: Rules, seed: int) -> ThreeThirteenSteps:
        return cls(State.new(rules, seed))

    def clone(self) -> ThreeThirteenSteps:
        """An independent copy (the engine state cloned)."""
        return ThreeThirteenSteps(self.state.clone())

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    @property
    def pending(self) -> tuple[int, ...]:
        return ()

    def legal_ids(self) -> Sequence[int]:
        legal = self._legal
        if legal is None:
            stock, take, discards, going_out = self.state.legal_options()
            legal = [DRAW] if stock else []
            if take:
                legal.append(TAKE)
            legal += map(DISCARD.__add__, discards)
            legal += map(GO_OUT.__add__, going_out)
            self._legal = legal
        return legal

    def mask(self) -> Mask:
        return mask_of(self.legal_ids(), ACTION_COUNT)

    def refusal(self, action_id: int) -> Refusal | None:
        return self.state.check(engine_action(action_id))

    def step(self, action_id: int) -> list[Event]:
        """Apply the id's action; ``IllegalStep`` (state unchanged) if the rules refuse it."""
        index = action_index(action_id, ACTION_COUNT)
        action = _ACTIONS[index]
        legal = self._legal
        if legal is not None and index in legal:
            # The mask is exact (the module docstring), so the engine need not check again.
            return self._played(self.state._play(action))
        try:
            return self.apply(action)
        except IllegalAction as refused:
            raise IllegalStep(refused.refusal) from None

    def apply(self, action: Action) -> list[Event]:
        """Apply an engine action (a bot's choice); the engine raises if it is illegal."""
        return self._played(self.state.apply(action))

    def _played(self, events: list[Event]) -> list[Event]:
        """Forget what the engine action just played made stale."""
        self._legal = None
        self._views.clear()
        return events

    def observation(self, player: int) -> Observation:
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self.state.observation(player)
        return view

    def encode(self, player: int) -> FloatArray:
        return self._encoders[player].encode_parts(self.state.table_parts(player))

    def describe(self, action_id: int) -> str:
        return describe(action_id)

    def action_id(self, action: Action) -> int:
        return action_id(action)


def legal_mask(legal_actions: Sequence[Action]) -> Mask:
    """The mask of a list of legal engine actions (what a bot is handed)."""
    return mask_of([action_id(action) for action in legal_actions], ACTION_COUNT)
