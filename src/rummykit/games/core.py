"""What every game shares: refusals, the state protocol and the game description.

Legality lives in each game's ``State``; this module only fixes the shapes that the
bots, the simulator, the records and the server rely on.  It never imports a game.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar

from rummykit.cards import Card, CardError, format_card, parse_card
from rummykit.games.options import RuleOption, omitted_at_default, rule_options

ParamValue = str | int | bool | None | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is illegal: a stable ``code``, its ``params`` and an English message.

    Clients translate by ``code`` and ``params``; ``message`` is the English text.

    >>> Refusal("stock_empty", {}, "the stock is empty").message
    'the stock is empty'
    """

    code: str
    params: Mapping[str, ParamValue] = field(default_factory=dict)
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
            "message": self.message,
        }


def actor_refusal(player: object, current_player: int | None, players: int) -> Refusal | None:
    """Why ``player`` may not act at all now, whatever the action, or ``None``.

    Asked before anything about the action, so that a player who is not to move learns
    nothing from a refusal (not even whether the player to move holds a card).

    >>> actor_refusal(1, 0, 2).code
    'not_your_turn'
    >>> actor_refusal(2, 0, 2).code, actor_refusal(0, None, 2).code, actor_refusal(0, 0, 2)
    ('no_such_player', 'game_over', None)
    """
    if type(player) is not int or not 0 <= player < players:
        shown = player if type(player) is int else repr(player)
        return Refusal(
            "no_such_player",
            {"player": shown, "players": players},
            f"there is no player {shown} at a table of {players}",
        )
    if current_player is None:
        return Refusal("game_over", {}, "the game is over")
    if player != current_player:
        return Refusal(
            "not_your_turn",
            {"player": player, "current_player": current_player},
            f"it is player {current_player}'s turn, not player {player}'s",
        )
    return None


class IllegalAction(Exception):
    """An action the rules do not allow; the state that refused it is unchanged."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal

    @property
    def code(self) -> str:
        return self.refusal.code


class MeldError(ValueError):
    """Cards that do not form a legal meld (or cannot be added to one); says why, in
    English, and as ``why``, a code for a client to say it in its language
    (``"other"`` where there is none), with ``detail``, the cards the reason names."""

    def __init__(self, message: str, why: str = "other", detail: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.why = why
        self.detail = detail


class NotationError(ValueError):
    """Text that is not an action (or rules, or record) in the expected notation."""


ActionT = TypeVar("ActionT")
EventT = TypeVar("EventT")
ObservationT = TypeVar("ObservationT")
ObservationT_co = TypeVar("ObservationT_co", covariant=True)
RulesT = TypeVar("RulesT")
RulesT_co = TypeVar("RulesT_co", covariant=True)


class GameState(Protocol[RulesT_co, ActionT, EventT, ObservationT_co]):
    """The interface of a game's mutable ``State`` (structural; no base class).

    ``apply`` checks and applies one action and returns its events; an illegal action
    raises :class:`IllegalAction` and leaves the state as it was.  ``check`` answers the
    same question without raising.  Given ``player`` (the seat that acts), both first
    ask :func:`actor_refusal`, so that only the player to move is told anything about
    the action; without it the action is the current player's.  ``apply_legal`` applies
    an action known to be legal now (one of ``legal_actions()``) without checking it,
    for a search's simulations.  Hands and rounds follow one another inside one state:
    ``hand_over`` is true right after the action that ended a hand (the next one is then
    already dealt unless the game is over).
    """

    @property
    def rules(self) -> RulesT_co: ...
    @property
    def seed(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def hand_over(self) -> bool: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def actions(self) -> list[ActionT]: ...
    @property
    def events(self) -> list[EventT]: ...

    def legal_actions(self) -> Iterator[ActionT]: ...
    def check(self, action: ActionT, *, player: int | None = None) -> Refusal | None: ...
    def apply(self, action: ActionT, *, player: int | None = None) -> list[EventT]: ...
    def apply_legal(self, action: ActionT) -> list[EventT]: ...
    def clone(self) -> Self: ...
    def observation(self, player: int) -> ObservationT_co: ...
    def events_for(self, player: int, start: int = 0) -> list[EventT]: ...


# ---------------------------------------------------------------------------------------
# Rules objects as JSON


def rules_to_json(rules: object) -> dict[str, Any]:
    """The options of a frozen ``Rules`` dataclass as a JSON object, in field order; an
    option marked ``omit_default`` (``options.option``) is left out while it has its
    default."""
    assert dataclasses.is_dataclass(rules) and not isinstance(rules, type)
    return {
        f.name: getattr(rules, f.name)
        for f in dataclasses.fields(rules)
        if not (omitted_at_default(f) and getattr(rules, f.name) == f.default)
    }


def _is_instance(value: object, annotation: object) -> bool:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return any(value == a and type(value) is type(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return any(_is_instance(value, a) for a in typing.get_args(annotation))
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    return False


R = TypeVar("R")


@functools.cache
def _option_types(rules_type: type) -> tuple[dict[str, Any], frozenset[str]]:
    assert dataclasses.is_dataclass(rules_type)
    names = frozenset(f.name for f in dataclasses.fields(rules_type))
    return typing.get_type_hints(rules_type), names


def rules_from_json(rules_type: type[R], data: object) -> R:
    """Build ``rules_type`` from a JSON object, refusing unknown options and bad types.

    Raises ``ValueError`` with a message naming the offending option.
    """
    if not isinstance(data, Mapping):
        raise ValueError("the rules must be a JSON object of options")
    option_type: type = rules_type
    hints, names = _option_types(option_type)
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(
            f"unknown rule option {unknown[0]!r}; the options are {', '.join(sorted(names))}"
        )
    for key, value in data.items():
        if not _is_instance(value, hints[key]):
            raise ValueError(f"rule option {key!r} cannot be {value!r}")
    try:
        return rules_type(**data)
    except TypeError as error:  # pragma: no cover - guarded by the checks above
        raise ValueError(str(error)) from None


def cards_from_json(data: object, what: str = "cards") -> list[Card]:
    """Parse a JSON list of card names, with a clear error for anything else."""
    if not isinstance(data, list):
        raise ValueError(f"{what} must be a list of card names")
    try:
        return [parse_card(name) for name in data]
    except CardError as error:
        raise ValueError(f"{what}: {error}") from None


def cards_to_json(cards: Iterable[Card]) -> list[str]:
    return [format_card(c) for c in cards]


# ---------------------------------------------------------------------------------------
# The description of a game, used by records, the command line, bots and the simulator

StateT = TypeVar("StateT")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameInfo(Generic[RulesT, StateT, ActionT, ObservationT]):
    """Everything generic code needs to drive one game without knowing its rules."""

    name: str
    title: str
    rules_type: type[RulesT]
    new_state: Callable[[RulesT, int], StateT]
    parse_action: Callable[[str], ActionT]
    format_action: Callable[[ActionT], str]
    observation_from_json: Callable[[Mapping[str, Any]], ObservationT]
    determinize: Callable[[ObservationT, int], StateT]
    player_counts: tuple[int, ...]
    lower_is_better: bool = False
    """The scoring direction: true where the lowest total wins (Three-Thirteen)."""
    takes_whole_pile: bool = False
    """Whether taking from the discard pile takes all of it (Burraco) rather than its
    top card (Three-Thirteen)."""
    point_tables: Mapping[str, Any] | None = None
    """The point tables a player is shown (card points, bonuses), JSON-ready; ``None``
    for a game whose scores need no table."""
    team_of: Callable[[int], int] | None = None
    """The side a seat plays for, partners sharing one (Burraco: the seat's number
    modulo 2, so seats 0 and 2 against 1 and 3 at a table of four); ``None`` for a game
    where every seat plays for itself."""
    named_pool_size: int | None = None
    """The table size whose rating pool is called by the game's name alone although the
    game is played at other sizes too: the size it was rated at before the others came,
    whose ratings keep their pool (Burraco's two players, ``burraco``; four are
    ``burraco/4``).  ``None``: one pool per size named ``game/size``, or the game's name
    alone when it is played at one size."""
    own_arrangement: Callable[[ObservationT], Mapping[str, Any] | None] | None = None
    """What a player is shown of their own hand as the game would score it (JSON), made
    from that player's observation alone; ``None`` for a game that shows none
    (Three-Thirteen's is :func:`.three_thirteen.own_arrangement.own_arrangement`)."""

    @property
    def options(self) -> tuple[RuleOption, ...]:
        """The rule options of :attr:`rules_type` (see :mod:`rummykit.games.options`)."""
        rules_type: type = self.rules_type
        return rule_options(rules_type)

    @property
    def seats_option(self) -> str | None:
        """The rule option that is the number of players, if the rules have one."""
        return next((option.name for option in self.options if option.seats), None)

    def rules_for(self, options: Mapping[str, Any], *, seats: int) -> RulesT:
        """The rules of a table of ``seats`` players from JSON options (the seats option
        filled in from ``seats`` when left out); ``ValueError`` saying what is wrong."""
        if seats not in self.player_counts:
            counts = " or ".join(map(str, self.player_counts))
            raise ValueError(f"{self.title} is for {counts} players, not {seats}")
        chosen = dict(options)
        name = self.seats_option
        if name is not None and chosen.setdefault(name, seats) != seats:
            raise ValueError(f"the rule option {name} must match the seats ({seats})")
        return rules_from_json(self.rules_type, chosen)
