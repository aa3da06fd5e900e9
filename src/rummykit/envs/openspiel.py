"""OpenSpiel Python games: ``python_burraco`` and ``python_three_thirteen``.

Importing this module registers both games (it needs the ``openspiel`` extra)::

    import pyspiel
    import rummykit.envs.openspiel  # registers the games

    game = pyspiel.load_game("python_three_thirteen", {"players": 3})

- **Parameters**: the game's rule options (``jokers``, ``mode``, ``target``, ...;
  ``players``, ``first_round``, ``last_round``, ...), with the rule book's defaults.
- **Actions**: the same integer ids as the PettingZoo environments
  (:mod:`.burraco_actions`, 145; :mod:`.three_thirteen_actions`, 108).
- **Chance**: the engine's randomness is its seed (every deal, and every reshuffle,
  comes from it through the documented procedure of ``rummykit.games.randomness``), so
  a game opens with four chance nodes, each choosing one byte of a 32-bit seed
  uniformly (256 outcomes); the deals then follow from that seed exactly as in
  ``rummykit play``.
- **Returns** (terminal, zero-sum): ``1 / w`` to each of ``w`` winners, ``-1 / (n - w)``
  to each other seat, 0 to all on a draw (:func:`.rewards.outcome`); with partners
  (Burraco, ``players=4``) by team: +1 to each partner of the winning team, -1 to each
  of the other (:func:`.rewards.game_outcome`).
- **Observation tensor**: the environments' observation vector of the player
  (:mod:`.burraco_encoding`, :mod:`.three_thirteen_encoding`).  The
  **information-state tensor** is the same vector: the engine's observation already
  holds the hand's public history (the discard pile's moves, the melds, the cards seen
  taken), but not the player's own earlier hands, so that tensor is not perfect recall.
- **Information-state string** (perfect recall): the moves the player saw (every move
  of their own; the others' draws, discards and melds, a meld's chosen cards once it is
  laid), every hand the player held in turn, and the current engine observation as
  JSON.  The **observation string** is that observation alone.
- **resample_from_infostate(player, sampler)**: a state dealt by the engine's
  ``determinize`` from the player's observation (seed drawn from ``sampler``): the
  player's information state is unchanged, the hidden cards are redealt, and later
  randomness comes from the new seed.  OpenSpiel's Python ISMCTS uses it.

Python games are slow for OpenSpiel's tree-walking algorithms; these games are far too
large to walk anyway: use sampling methods (ISMCTS, outcome-sampling MCCFR, random
rollouts).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from rummykit.cards import format_cards
from rummykit.envs import rewards
from rummykit.envs.step_models import GAME_STEPS, GameSteps, make_steps, steps_of
from rummykit.envs.steps import StepModel, rules_for
from rummykit.games.core import rules_to_json
from rummykit.games.registry import AnyGame, game_named

SEED_BYTES = 4
SEED_OUTCOMES = 256
CHANCE: int = int(pyspiel.PlayerId.CHANCE)
TERMINAL: int = int(pyspiel.PlayerId.TERMINAL)


class _Holder:
    """Holds the step model so that OpenSpiel's state copy (a deep copy of the Python
    attributes) clones the game with the engine's own ``clone``."""

    __slots__ = ("model",)

    def __init__(self, model: StepModel | None) -> None:
        self.model = model

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(None if self.model is None else self.model.clone())


class _GameSpec:
    """A game as OpenSpiel names it (``python_`` and the game's name), with the engine's
    descriptor and the environments' step model of the game."""

    def __init__(self, name: str) -> None:
        self.info: AnyGame = game_named(name)
        self.steps: GameSteps = steps_of(name)
        self.name = name
        self.short_name = "python_" + name.replace("-", "_")
        self.title = self.info.title
        defaults = rules_to_json(self.info.rules_type())
        seats = self.info.seats_option
        if seats is not None and seats not in defaults:  # left out of the JSON at its default
            defaults = {seats: min(self.info.player_counts), **defaults}
        self.defaults = defaults

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameSpec:
        return self  # immutable: a copied state shares its game's spec

    def __reduce__(self) -> tuple[Callable[[str], _GameSpec], tuple[str]]:
        return _spec_named, (self.short_name,)  # a pickled state names its game


def _spec_named(short_name: str) -> _GameSpec:
    return SPECS[short_name]


SPECS = {spec.short_name: spec for spec in map(_GameSpec, GAME_STEPS)}


def _game_type(spec: _GameSpec) -> Any:
    players = (min(spec.info.player_counts), max(spec.info.player_counts))
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=f"Python {spec.title} (rummykit)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(spec.defaults),
    )


def _max_length(spec: _GameSpec, rules: Any) -> int:
    """An upper bound on the moves of a game: the seed bytes, then the step model's own
    bound (a round or hand ends after the stalemate limit of turns)."""
    return SEED_BYTES + spec.steps.max_moves(rules)


class RummySpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of the two games for OpenSpiel (see the module docstring)."""

    def __init__(self, spec: _GameSpec, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        self.spec = spec
        self.rules = rules_for(spec.name, options)
        sample = make_steps(spec.name, self.rules, 0)
        self.action_count = sample.action_count
        self.vector_size = sample.layout.size
        info = pyspiel.GameInfo(
            num_distinct_actions=sample.action_count,
            max_chance_outcomes=SEED_OUTCOMES,
            num_players=sample.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_length(spec, self.rules),
        )
        super().__init__(_game_type(spec), info, options)

    def new_initial_state(self) -> RummySpielState:
        return RummySpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummyObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return RummyObserver(self.vector_size, perfect_recall=perfect_recall)


class RummySpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the four seed bytes, then the step model of the engine."""

    def __init__(self, game: RummySpielGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        self._rules = game.rules
        self._seed_bytes: list[int] = []
        self._holder = _Holder(None)
        self._moves: list[tuple[int, int]] = []
        self._hands: list[list[str]] = []

    # -----------------------------------------------------------------------------------

    @property
    def model(self) -> StepModel | None:
        return self._holder.model

    def current_player(self) -> int:
        model = self._holder.model
        if model is None:
            return CHANCE
        player = model.current_player
        return TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        model = self._holder.model
        if model is None or model.current_player != player:
            return []
        return sorted(model.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1.0 / SEED_OUTCOMES) for byte in range(SEED_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        model = self._holder.model
        if model is None:
            self._seed_bytes.append(int(action))
            if len(self._seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big")
                model = make_steps(self._spec.name, self._rules, seed)
                self._holder = _Holder(model)
                self._hands = [[] for _ in range(model.num_players)]
                self._note_hands(model)
            return
        player = model.current_player
        assert player is not None
        events = model.step(int(action))
        self._moves.append((player, int(action)))
        if events:
            self._note_hands(model)

    def _note_hands(self, model: Any) -> None:
        for seat, seen in enumerate(self._hands):
            hand = format_cards(model.observation(seat).hand)
            if not seen or seen[-1] != hand:
                seen.append(hand)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._spec.steps.describe(action)

    def is_terminal(self) -> bool:
        model = self._holder.model
        return model is not None and model.current_player is None

    def returns(self) -> list[float]:
        model = self._holder.model
        players = self.num_players()
        if model is None or model.current_player is not None:
            return [0.0] * players
        return list(rewards.game_outcome(model.state))

    def __str__(self) -> str:
        model = self._holder.model
        if model is None:
            return f"dealing (seed bytes chosen: {len(self._seed_bytes)})"
        state = model.state
        where = "over" if state.current_player is None else f"player {state.current_player}"
        return (
            f"{self._spec.title}, hand {state.hand_number + 1}, {where};"
            f" totals {list(state.totals)}; chosen {list(model.pending)}"
        )

    # -----------------------------------------------------------------------------------
    # What a player knows

    def _visible(self, player: int) -> list[bool]:
        """Which moves ``player`` saw: all but another player's chosen cards of a meld
        not laid yet."""
        flags: list[bool] = []
        pending: list[int] = []
        for index, (mover, action) in enumerate(self._moves):
            hidden = mover != player and self._spec.steps.hidden_from_others(action)
            flags.append(not hidden)
            if hidden:
                pending.append(index)
                continue
            for earlier in pending:
                flags[earlier] = True
            pending.clear()
        return flags

    def visible_moves(self, player: int) -> list[str]:
        """The moves ``player`` saw, in order."""
        describe: Callable[[int], str] = self._spec.steps.describe
        return [
            f"p{mover} {describe(action)}"
            for (mover, action), seen in zip(self._moves, self._visible(player), strict=True)
            if seen
        ]

    def observation_text(self, player: int) -> str:
        model = self._holder.model
        if model is None:
            return "the cards are being dealt"
        observation = json.dumps(model.observation(player).to_json(), sort_keys=True)
        chosen = list(model.pending) if model.current_player == player else []
        return f"{observation}\nchosen {chosen}"

    def information_text(self, player: int) -> str:
        model = self._holder.model
        if model is None:
            return "the cards are being dealt"
        return "\n".join(
            [
                "moves: " + "; ".join(self.visible_moves(player)),
                "hands: " + " | ".join(self._hands[player]),
                self.observation_text(player),
            ]
        )

    def vector(self, player: int) -> np.ndarray:
        model = self._holder.model
        if model is None:
            return np.zeros(self.get_game().vector_size, dtype=np.float32)
        return model.encode(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one, its hidden cards redealt by the
        engine's ``determinize`` (seed drawn from ``probability_sampler``)."""
        model = self._holder.model
        if model is None:
            return self.clone()
        low = int(probability_sampler() * 2**32) & 0xFFFFFFFF
        high = int(probability_sampler() * 2**31) & 0x7FFFFFFF
        seed = high << 32 | low
        determinized = self._spec.info.determinize(model.observation(player_id), seed)
        twin_model = self._spec.steps.from_state(determinized)
        if model.current_player == player_id:
            for action in self._spec.steps.choice_ids(model.pending):
                twin_model.step(action)
        twin = self.get_game().new_initial_state()
        twin._seed_bytes = [0] * SEED_BYTES  # the real seed stays hidden
        twin._holder = _Holder(twin_model)
        twin._moves = [
            move for move, seen in zip(self._moves, self._visible(player_id), strict=True) if seen
        ]
        twin._hands = [
            list(self._hands[seat]) if seat == player_id else []
            for seat in range(model.num_players)
        ]
        return twin


class RummyObserver:
    """OpenSpiel's Python observer: the vector, and the information or observation text."""

    def __init__(self, size: int, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummySpielState, player: int) -> None:
        self.tensor[:] = state.vector(player)

    def string_from(self, state: RummySpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_text(player)
        return state.observation_text(player)


class BurracoSpielGame(RummySpielGame):
    """``python_burraco``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(SPECS["python_burraco"], params)


class ThreeThirteenSpielGame(RummySpielGame):
    """``python_three_thirteen``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(SPECS["python_three_thirteen"], params)


def _game_class(spec: _GameSpec) -> type[RummySpielGame]:
    """The class OpenSpiel calls to load the game ``spec`` with its parameters."""

    def __init__(self: RummySpielGame, params: dict[str, Any] | None = None) -> None:
        RummySpielGame.__init__(self, spec, params)

    title = spec.title.replace("-", "")
    return type(f"{title}SpielGame", (RummySpielGame,), {"__init__": __init__})


def register() -> None:
    """Register every game of the environments with OpenSpiel (once per process)."""
    registered = set(pyspiel.registered_names())
    for short_name, spec in SPECS.items():
        if short_name not in registered:
            pyspiel.register_game(_game_type(spec), _game_class(spec))


register()
