"""Game records: a whole game as JSON, from its rules, seed and actions.

A record holds no cards of its own: the deals come from the seed (see
:mod:`rummykit.games.randomness`), so replaying the actions rebuilds every state.
Loading treats the text as untrusted input: every field is checked, every action is
parsed and replayed, and the stored totals must agree with the replay; any problem is a
:class:`RecordError` that says what is wrong.  This module converts to and from text; it
never opens files.

The seed is written as decimal text (format version 2): a seed reaches 2**63 - 1, past
the whole numbers a JavaScript reader keeps exactly.  Reading takes both that text and
the JSON number of format version 1, so older records still load and verify.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

import rummykit
from rummykit.games.core import IllegalAction, NotationError, rules_from_json, rules_to_json
from rummykit.games.randomness import check_seed
from rummykit.games.registry import AnyGame, game_named

FORMAT: Final = "rummykit-record"
FORMAT_VERSION: Final = 2
READABLE_VERSIONS: Final = (1, 2)
MAX_SEED_DIGITS: Final = 19
_DECIMAL: Final = re.compile(r"0|[1-9][0-9]*")
MAX_ACTIONS: Final = 1_000_000
MAX_TEXT: Final = 64 * 1024 * 1024


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRecord:
    """A game as recorded: which game, its rules, seed, seat names and actions so far."""

    game: str
    rules: Any
    seed: int
    actions: tuple[str, ...]
    totals: tuple[int, ...]
    players: tuple[str, ...] = ()
    engine_version: str = rummykit.__version__

    @property
    def info(self) -> AnyGame:
        return game_named(self.game)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "engine_version": self.engine_version,
            "game": self.game,
            "rules": rules_to_json(self.rules),
            "seed": str(self.seed),
            "players": list(self.players),
            "actions": list(self.actions),
            "totals": list(self.totals),
        }


def record_of(game: AnyGame, state: Any, *, players: Sequence[str] = ()) -> GameRecord:
    """The record of ``state`` (a state of ``game``) as it stands now."""
    return GameRecord(
        game=game.name,
        rules=state.rules,
        seed=state.seed,
        actions=tuple(game.format_action(a) for a in state.actions),
        totals=tuple(state.totals),
        players=tuple(players),
    )


def dumps(record: GameRecord) -> str:
    """The record as indented JSON text."""
    return json.dumps(record.to_json(), indent=1, ensure_ascii=False) + "\n"


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action of a replay: its index, the player who made it, the action, its events
    and the state right after it (a clone, safe to keep)."""

    index: int
    player: int
    action: Any
    events: list[Any]
    state: Any


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Rebuild the game action by action; ``RecordError`` at the first that fails."""
    game = record.info
    state = game.new_state(record.rules, record.seed)
    for index, text in enumerate(record.actions):
        player = state.current_player
        if player is None:
            raise RecordError(f"action {index + 1} ({text!r}) comes after the game ended")
        try:
            action = game.parse_action(text)
            events = state.apply(action)
        except (NotationError, IllegalAction) as error:
            raise RecordError(f"action {index + 1} ({text!r}) is refused: {error}") from None
        yield ReplayStep(index, player, action, events, state.clone())


@dataclass(frozen=True, slots=True)
class SeatDecision:
    """A move a seat chose, met while replaying a game: its action number, the game's
    state as the seat chose it (the replay's own state, moved on once the next decision
    is asked for), and the move."""

    number: int
    state: Any
    action: Any


def seat_decisions(
    game: AnyGame,
    state: Any,
    actions: Sequence[str],
    seat: int,
    chosen: Collection[int] | None = None,
) -> Iterator[SeatDecision]:
    """Play ``actions`` on ``state`` (a new game's, left at the game's end) and yield
    ``seat``'s decisions: only the action numbers in ``chosen`` when given (those its
    player chose, not a stand-in's).  ``RecordError`` for a seat the game has not, an
    action of ``chosen`` that was another seat's, and an action the game refuses."""
    if not 0 <= seat < state.num_players:
        raise RecordError(f"there is no seat {seat} in this game")
    mine = None if chosen is None else set(chosen)
    for number, text in enumerate(actions):
        try:
            action = game.parse_action(text)
        except NotationError as error:
            raise RecordError(f"action {number + 1} ({text!r}): {error}") from None
        mover = state.current_player
        if mine is not None and number in mine and mover != seat:
            raise RecordError(f"action {number + 1} was not seat {seat}'s to play")
        if mover == seat and (mine is None or number in mine):
            yield SeatDecision(number, state, action)
        try:
            state.apply(action)
        except IllegalAction as error:
            raise RecordError(f"action {number + 1} ({text!r}) is refused: {error}") from None


def final_state(record: GameRecord) -> Any:
    """The state after the record's last action."""
    game = record.info
    state = game.new_state(record.rules, record.seed)
    for index, text in enumerate(record.actions):
        try:
            state.apply(game.parse_action(text))
        except (NotationError, IllegalAction) as error:
            raise RecordError(f"action {index + 1} ({text!r}) is refused: {error}") from None
    return state


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in data:
        raise RecordError(f"the record has no {name!r}")
    value = data[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"the record's {name!r} has the wrong type")
    return value


def seed_from_json(value: object) -> int:
    """A record's seed: decimal text (``"42"``, as written now) or a JSON whole number (as
    format version 1 wrote it); ``ValueError`` for anything else or out of range.

    >>> seed_from_json("9223372036854775807") == seed_from_json(2**63 - 1) == 2**63 - 1
    True
    >>> seed_from_json("042")
    Traceback (most recent call last):
    ...
    ValueError: a seed is written in decimal without leading zeros, not '042'
    """
    if isinstance(value, str):
        if len(value) > MAX_SEED_DIGITS or not _DECIMAL.fullmatch(value):
            raise ValueError(
                f"a seed is written in decimal without leading zeros, not {value[:40]!r}"
            )
        value = int(value)
    return check_seed(value)


def loads(text: str | bytes) -> GameRecord:
    """Read and verify a record; raises :class:`RecordError` for anything wrong."""
    if len(text) > MAX_TEXT:
        raise RecordError("the record is too large")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"the record is not JSON: {error}") from None
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    except ValueError:  # an integer past the interpreter's digit limit
        raise RecordError("the record holds a number with too many digits") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"this is not a rummykit record (its 'format' is not {FORMAT!r})")
    version = _field(data, "format_version", int)
    if version not in READABLE_VERSIONS:
        raise RecordError(
            f"record format version {version} is not supported (only 1 and {FORMAT_VERSION})"
        )
    engine_version = data.get("engine_version", "")
    if not isinstance(engine_version, str):
        raise RecordError("the record's 'engine_version' has the wrong type")
    try:
        game = game_named(data.get("game"))
        rules = rules_from_json(game.rules_type, _field(data, "rules", dict))
        seed = seed_from_json(data.get("seed"))
    except ValueError as error:
        raise RecordError(str(error)) from None
    actions = _field(data, "actions", list)
    if len(actions) > MAX_ACTIONS or not all(isinstance(a, str) for a in actions):
        raise RecordError("the record's 'actions' must be a list of action texts")
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("the record's 'players' must be a list of names")
    totals = _field(data, "totals", list)
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise RecordError("the record's 'totals' must be whole numbers")
    record = GameRecord(
        game=game.name,
        rules=rules,
        seed=seed,
        actions=tuple(actions),
        totals=tuple(totals),
        players=tuple(players),
        engine_version=engine_version,
    )
    replayed = final_state(record)
    if tuple(replayed.totals) != record.totals:
        raise RecordError(
            f"the record's totals {list(record.totals)} differ from its replay"
            f" {list(replayed.totals)}"
        )
    if players and len(players) != replayed.num_players:
        raise RecordError(
            f"the record names {len(players)} players for a {replayed.num_players}-player game"
        )
    return record
