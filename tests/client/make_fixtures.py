"""Write the browser client's test fixtures (tests/client/fixtures/*.json) from real games.

The node tests of ``model.js``, ``legal.js`` and ``hand-order.js`` read what the server
really sends, never hand-written data: each fixture is one game played by the greedy
bots from a seed, and a few of its positions as a seat (or a watcher) receives them,
built with the server's own ``StateMessage`` model and watcher view.  Each fixture
keeps its seed, rules and actions, so tests/client/test_fixtures.py replays them and
checks that every message is still exactly what the engine and the server make.

Run ``python tests/client/make_fixtures.py`` after a change to the engine, the bots or
the protocol that alters them (test_fixtures.py says when); it writes only the fixture
files.  Each position is the first of the game that shows what its name says (a wild
run on the table, a burraco, a player gone out, ...); the seeds are the first ones whose
game has them all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from rummykit.bots.levels import make_bot
from rummykit.games import burraco, three_thirteen
from rummykit.games.core import rules_from_json, rules_to_json
from rummykit.games.registry import AnyGame, game_named
from rummykit.server.protocol.messages import (
    HandArrangement,
    LastAction,
    PlayerInfo,
    StateMessage,
    TurnInfo,
)
from rummykit.server.table.views import watcher_events, watcher_observation

FIXTURES = Path(__file__).resolve().parent / "fixtures"

Views = dict[int, dict[str, Any]]
"""Each seat's observation JSON."""
WATCHER: Final = "watcher"
Viewer = int | Literal["watcher"]
"""Whose view a position is: a seat's, or a watcher's."""


@dataclass(frozen=True)
class Wanted:
    """A position a fixture needs: its name, what it shows, and how to recognise it
    (``seat_for`` answers whose view shows it, or ``None`` when the state does not)."""

    name: str
    about: str
    seat_for: Callable[[Any, Views], Viewer | None]
    after: str | None = None
    """When set, the position is instead the state right after the position of this
    name, from the same seat."""


def _mover(state: Any) -> int | None:
    return None if state.game_over else state.current_player


def hand_start(state: Any) -> int:
    """The index in the event log of the current hand's deal (every seat sees it)."""
    events = state.events
    return max(i for i, event in enumerate(events) if event.to_json()["event"] == "hand_dealt")


def state_message(
    game: AnyGame, state: Any, seat: int | None, last: LastAction | None
) -> dict[str, Any]:
    """What the server sends ``seat`` (``None``: a watcher) now: the ``state`` message with
    this hand's events (from its deal on)."""
    start = hand_start(state)
    if seat is None:
        observations = [state.observation(p).to_json() for p in range(state.num_players)]
        observation = watcher_observation(observations)
        per_seat = [
            [event.to_json() for event in state.events_for(p, start)]
            for p in range(state.num_players)
        ]
        events = watcher_events(per_seat)
    else:
        observation = state.observation(seat).to_json()
        events = [event.to_json() for event in state.events_for(seat, start)]
    mover = _mover(state)
    legal = [game.format_action(a) for a in state.legal_actions()] if seat == mover else []
    shown = (
        None
        if seat is None or game.own_arrangement is None
        else game.own_arrangement(state.observation(seat))
    )
    players = [
        PlayerInfo(seat=p, name=f"Bot {p + 1}", kind="bot", level="greedy", connected=True)
        for p in range(state.num_players)
    ]
    message = StateMessage(
        table_id="fixture",
        game=game.name,
        status="over" if state.game_over else "playing",
        state_number=len(state.actions),
        seat=seat,
        observation=observation,
        events_start=start,
        events=events,
        legal_actions=legal if seat is not None and not state.game_over else [],
        players=players,
        turn=None if mover is None else TurnInfo(player=mover),
        last_action=last,
        arrangement=None if shown is None else HandArrangement.model_validate(shown),
    )
    return message.model_dump(mode="json")


def _next_of(position: dict[str, Any] | None, state: Any) -> Viewer | None:
    """The seat of ``position`` when ``state`` is the one right after it."""
    if position is None:
        return None
    message = position["message"]
    if len(state.actions) != message["state_number"] + 1:
        return None
    seat: int | None = message["seat"]
    return WATCHER if seat is None else seat


def play(game: AnyGame, rules: Any, seed: int) -> Iterator[tuple[Any, LastAction | None]]:
    """Every state of a game between greedy bots (a copy of each), with the action that
    led to it."""
    state = game.new_state(rules, seed)
    bots = [make_bot(game.name, "greedy") for _ in range(state.num_players)]
    rng = random.Random(seed)
    last = None
    while True:
        yield state.clone(), last
        if state.game_over:
            return
        player = state.current_player
        observation = state.observation(player)
        decision = bots[player].decide(observation, list(state.legal_actions()), rng)
        text = game.format_action(decision.action)
        state.apply(decision.action)
        last = LastAction(seat=player, action=text, actor="bot")


def find(game: AnyGame, rules: Any, seed: int, wanted: list[Wanted]) -> dict[str, Any] | None:
    """The fixture of ``seed``'s game: each wanted position's message (the first state
    that shows it), or ``None`` when the game lacks one."""
    found: dict[str, dict[str, Any]] = {}
    final = None
    for state, last in play(game, rules, seed):
        views = {p: state.observation(p).to_json() for p in range(state.num_players)}
        for want in wanted:
            if want.name in found:
                continue
            viewer = (
                _next_of(found.get(want.after), state)
                if want.after is not None
                else want.seat_for(state, views)
            )
            if viewer is not None:
                seat = None if viewer == WATCHER else viewer
                message = state_message(game, state, seat, last)
                found[want.name] = {"about": want.about, "message": message}
        final = state
    if final is None or set(found) != {want.name for want in wanted}:
        return None
    return {
        "game": game.name,
        "rules": rules_to_json(rules),
        "seed": seed,
        "actions": [game.format_action(a) for a in final.actions],
        "positions": found,
    }


# ---------------------------------------------------------------------------------------
# Burraco: the positions the tests need


def _burraco_draw(state: Any, views: Views) -> Viewer | None:
    """The player to move at the start of a turn, with a run holding a wild on the table."""
    mover = _mover(state)
    if mover is None or views[mover]["phase"] != "draw":
        return None
    melds = views[mover]["melds"]
    dirty_run = any(m["kind"] == "run" and m["wild_index"] is not None for m in melds)
    return mover if dirty_run and len(melds) >= 3 else None


def _legal_verbs(state: Any) -> set[str]:
    game = game_named("burraco" if isinstance(state, burraco.State) else "three-thirteen")
    return {game.format_action(a).split()[0] for a in state.legal_actions()}


def _burraco_play(state: Any, views: Views) -> Viewer | None:
    """The player to move right after drawing from the stock, who may lay a new meld and
    add to one on the table."""
    mover = _mover(state)
    if mover is None or views[mover]["phase"] != "play":
        return None
    last = state.events[-1].to_json()
    verbs = _legal_verbs(state)
    return mover if last["event"] == "stock_drawn" and {"meld", "extend"} <= verbs else None


def _burraco_burraco(state: Any, views: Views) -> Viewer | None:
    """A seat's view with a burraco (seven cards or more) on the table."""
    return 0 if any(len(m["cards"]) >= 7 for m in views[0]["melds"]) else None


def _burraco_over(state: Any, views: Views) -> Viewer | None:
    """Seat 0's view once the game is over."""
    return 0 if state.game_over else None


BURRACO: list[Wanted] = [
    Wanted(
        "draw", "the player to move, before drawing; a run with a wild on the table", _burraco_draw
    ),
    Wanted(
        "drawn", "the same player's view right after that move", lambda state, views: None, "draw"
    ),
    Wanted(
        "play",
        "the player to move, just after drawing from the stock; may meld and extend",
        _burraco_play,
    ),
    Wanted("burraco", "seat 0's view with a burraco (seven cards or more)", _burraco_burraco),
    Wanted("over", "seat 0's view of the end of the game", _burraco_over),
]


# ---------------------------------------------------------------------------------------
# Three-Thirteen: the positions the tests need


def _thirteen_discard(state: Any, views: Views) -> Viewer | None:
    """The player to move, about to discard, once every player has taken from the pile
    and drawn from the stock in this round."""
    mover = _mover(state)
    if mover is None or views[mover]["phase"] != "discard":
        return None
    history = views[mover]["discard_history"]
    takers = {entry["player"] for entry in history if entry["kind"] == "take"}
    drawn = {
        event.to_json()["player"]
        for event in state.events[hand_start(state) :]
        if event.to_json()["event"] == "stock_drawn"
    }
    everyone = set(range(state.num_players))
    return mover if takers == everyone and drawn == everyone else None


def _thirteen_out(state: Any, views: Views) -> Viewer | None:
    """The player to move, who may go out now."""
    mover = _mover(state)
    return mover if mover is not None and "out" in _legal_verbs(state) else None


def _thirteen_went_out(state: Any, views: Views) -> Viewer | None:
    """A player with a last turn to play after someone went out."""
    mover = _mover(state)
    if mover is None or views[mover]["went_out"] is None or views[mover]["phase"] != "discard":
        return None
    return mover


def _thirteen_watcher(state: Any, views: Views) -> Viewer | None:
    """A watcher's view after a finished round, in the middle of the next."""
    view = views[0]
    return WATCHER if view["hand_results"] and view["turn"] >= 4 else None


def _thirteen_round_over(state: Any, views: Views) -> Viewer | None:
    """Seat 0's view right after a round ended."""
    return 0 if state.hand_over and views[0]["hand_results"] else None


THREE_THIRTEEN: list[Wanted] = [
    Wanted(
        "discard",
        "the player to move, about to discard, once every player has both taken and drawn",
        _thirteen_discard,
    ),
    Wanted("out", "the player to move, who may go out now", _thirteen_out),
    Wanted("went_out", "a player's last turn after someone went out", _thirteen_went_out),
    Wanted("watcher", "a watcher's view in the middle of a round", _thirteen_watcher),
    Wanted("round_over", "seat 0's view right after a round ended", _thirteen_round_over),
]


GAMES: list[tuple[str, Any, list[Wanted]]] = [
    ("burraco", burraco.Rules(), BURRACO),
    (
        "three-thirteen",
        three_thirteen.Rules(players=3, jokers=True, first_round=5, last_round=7),
        THREE_THIRTEEN,
    ),
]


def replayed(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each position's message as the engine and the server make it now, from the
    fixture's seed, rules and actions (every action checked legal on the way)."""
    game = game_named(data["game"])
    state = game.new_state(rules_from_json(game.rules_type, data["rules"]), data["seed"])
    wanted = {
        position["message"]["state_number"]: (name, position["message"]["seat"])
        for name, position in data["positions"].items()
    }
    assert len(wanted) == len(data["positions"]), "two positions at one state"
    messages: dict[str, dict[str, Any]] = {}
    last = None
    for number in range(len(data["actions"]) + 1):
        if number in wanted:
            name, seat = wanted[number]
            messages[name] = state_message(game, state, seat, last)
        if number == len(data["actions"]):
            break
        text = data["actions"][number]
        player = state.current_player
        state.apply(game.parse_action(text))
        last = LastAction(seat=player, action=text, actor="bot")
    return messages


def fixture(name: str, rules: Any, wanted: list[Wanted]) -> dict[str, Any]:
    """The fixture of the first seed (from 1) whose game has every wanted position."""
    game = game_named(name)
    for seed in range(1, 200):
        found = find(game, rules, seed, wanted)
        if found is not None:
            return found
    raise RuntimeError(f"no {name} game of seeds 1 to 199 has {[w.name for w in wanted]}")


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for name, rules, wanted in GAMES:
        data = fixture(name, rules, wanted)
        path = FIXTURES / f"{name}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{path}: seed {data['seed']}, {len(data['actions'])} actions")


if __name__ == "__main__":
    main()
