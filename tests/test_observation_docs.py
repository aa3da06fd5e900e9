"""docs/observations.md names exactly the fields real games emit, with the right types.

Random playouts of both games (several rule variants, every event kind) produce
observations and events; every JSON object they hold is compared with the table the
page gives for it: the same field names, and each value of the documented type.  The
page's field tables are also fingerprinted per version, so that changing them without
raising ``visibility.VERSION`` (the page's version rule) fails here.
"""

from __future__ import annotations

import hashlib
import random
import re
import typing
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.cards import parse_card
from rummykit.games import burraco, three_thirteen
from rummykit.games.burraco import events as burraco_events
from rummykit.games.three_thirteen import events as three_thirteen_events
from rummykit.games.visibility import VERSION

DOC = Path(__file__).resolve().parents[1] / "docs" / "observations.md"

FINGERPRINTS = {
    2: "8f76d556a8a8451236576ecfc1f3ec5fb83869e2c7b2f5bb79612f165a569198",
    3: "406da445a5145b1adbef5e81301787e8cedbe60971ff9bdca44bfd62f1c6b01d",
    # Version 4's tables, with Burraco's teams named (Burraco for four came within
    # version 4: see the page's History); before it, 41c93b70ccf03a8d4f47ab99c134eccc...
    4: "67660ec0f10b58a75ff8a6d7d9fdbf2b2529aecd9523f1e851f10160d7f47b42",
}
"""The fingerprint of the field tables (names and types) for each version."""

Table = dict[str, str]  # field -> documented type


def documented_tables() -> dict[str, Table]:
    """Each ``### heading`` of the page with the fields and types of the table under it."""
    tables: dict[str, Table] = {}
    heading = None
    for line in DOC.read_text().splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
            continue
        match = re.match(r"\|\s*`([a-z_]+)`\s*\|(.*?[^\\])\|", line)
        if heading is not None and match:
            fields = tables.setdefault(heading, {})
            assert match[1] not in fields, f"{heading}: {match[1]} is listed twice"
            fields[match[1]] = match[2].replace("\\|", "|").strip()
    return tables


TABLES = documented_tables()


def fingerprint(tables: dict[str, Table]) -> str:
    text = "\n".join(
        f"{heading}\t{name}\t{kind}"
        for heading, table in sorted(tables.items())
        for name, kind in table.items()
    )
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------------------
# Documented types


def _split(kind: str) -> list[str]:
    """``kind``'s alternatives at the top level (``[a | b] | null`` -> two)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(kind):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(kind[start:index].strip())
            start = index + 1
    parts.append(kind[start:].strip())
    return parts


def fits(value: object, kind: str) -> bool:
    """Whether ``value`` is of the documented type ``kind``."""
    kind = kind.removesuffix(" per player").removesuffix(" per team").strip()
    for alternative in _split(kind):
        if alternative == "null" and value is None:
            return True
        if alternative in ("int", "player") and type(value) is int:
            return alternative == "int" or value >= 0
        if alternative == "team" and type(value) is int:
            return value in (0, 1)
        if alternative == "bool" and type(value) is bool:
            return True
        if alternative == "string" and type(value) is str:
            return True
        if alternative == "card" and type(value) is str:
            parse_card(value)
            return True
        if alternative == "object" and type(value) is dict:
            return True
        if alternative.startswith("[") and type(value) is list:
            inner = alternative[1:-1]
            return all(fits(item, inner) for item in value)
    return False


# ---------------------------------------------------------------------------------------
# What real games emit, by the heading of the table that describes it


def _entries(name: str, items: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for item in items:
        yield name, item


def burraco_objects(observation: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "Burraco observation", observation
    yield from _entries("Burraco `melds[]` entry", observation["melds"])
    yield from _entries("Burraco `discard_history[]` entry", observation["discard_history"])
    for result in observation["hand_results"]:
        yield from burraco_result(result)


def burraco_result(result: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "Burraco `hand_results[]` entry", result
    yield from _entries("Burraco `breakdown[]` entry", result["breakdown"])
    for side in result["melds"]:
        yield from _entries("Burraco meld (in `melded` and `extended` events)", side)


def burraco_event(event: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield f"Burraco event `{event['event']}`", event
    if "meld" in event:
        yield "Burraco meld (in `melded` and `extended` events)", event["meld"]
    if event["event"] == "hand_ended":
        yield from burraco_result(event["result"])


def three_thirteen_objects(observation: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "Three-Thirteen observation", observation
    yield from _entries("Three-Thirteen `melds[]` entry", observation["melds"])
    yield from _entries("Three-Thirteen `discard_history[]` entry", observation["discard_history"])
    for result in observation["hand_results"]:
        yield from three_thirteen_result(result)


def three_thirteen_result(result: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "Three-Thirteen `hand_results[]` entry", result
    yield from _entries("Three-Thirteen `players[]` entry", result["players"])


def three_thirteen_event(event: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield f"Three-Thirteen event `{event['event']}`", event
    if event["event"] == "went_out":
        yield from _entries("Three-Thirteen `melds[]` entry", event["melds"])
    if event["event"] == "hand_ended":
        yield from three_thirteen_result(event["result"])


GAMES: dict[str, tuple[Any, list[Any], Any, Any]] = {
    "Burraco": (
        burraco,
        [
            burraco.Rules(),
            burraco.Rules(mode="target", target=505, jokers=4),
            burraco.Rules(players=4),
        ],
        burraco_objects,
        burraco_event,
    ),
    "Three-Thirteen": (
        three_thirteen,
        [
            three_thirteen.Rules(last_round=4),
            three_thirteen.Rules(players=4, jokers=True, ace_high=True, last_round=3),
        ],
        three_thirteen_objects,
        three_thirteen_event,
    ),
}


EVENT_TYPES = {"Burraco": burraco_events.Event, "Three-Thirteen": three_thirteen_events.Event}


def expected(heading: str, game: str) -> Table:
    """The documented fields of the object under ``heading`` (observations add the
    fields both games share)."""
    table = dict(TABLES[heading])
    if heading == f"{game} observation":
        table = {**TABLES["Both games: observation"], **table}
    return table


def emitted(game: str) -> dict[str, list[dict[str, Any]]]:
    """Every JSON object a few random playouts of ``game`` produce, by table heading."""
    module, variants, observed, evented = GAMES[game]
    seen: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for seed, rules in enumerate(variants * 3):
        rng = random.Random(seed)
        state = module.State.new(rules, seed)
        step = 0
        while not state.game_over:
            if step % 7 == 0 or state.hand_over:
                player = step % state.num_players
                for heading, item in observed(state.observation(player).to_json()):
                    seen[heading].append(item)
            state.apply(rng.choice(list(state.legal_actions())))
            step += 1
        for player in range(state.num_players):
            for heading, item in observed(state.observation(player).to_json()):
                seen[heading].append(item)
            for event in state.events_for(player):
                for heading, item in evented(event.to_json()):
                    seen[heading].append(item)
    return seen


@pytest.fixture(scope="module", params=sorted(GAMES))
def game_output(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    return request.param, emitted(request.param)


def test_every_emitted_object_has_exactly_the_documented_fields(game_output) -> None:
    game, seen = game_output
    for heading, items in seen.items():
        assert heading in TABLES, f"docs/observations.md has no table {heading!r}"
        table = expected(heading, game)
        for item in items:
            assert set(item) == set(table), (
                f"{heading}: emitted {sorted(item)}, documented {sorted(table)}"
            )
            for name, value in item.items():
                assert fits(value, table[name]), f"{heading}: {name}={value!r} is not {table[name]}"


def test_every_documented_table_of_a_game_is_emitted(game_output) -> None:
    game, seen = game_output
    documented = {heading for heading in TABLES if heading.startswith(f"{game} ")}
    assert documented - set(seen) == set(), "documented but never emitted"


def test_every_event_class_of_a_game_is_emitted(game_output) -> None:
    game, seen = game_output
    event_type = EVENT_TYPES[game]
    kinds = {heading.split("`")[1] for heading in seen if heading.startswith(f"{game} event")}
    assert len(kinds) == len(typing.get_args(event_type)) >= 8


def test_the_shared_fields_mean_the_same_in_both_games() -> None:
    both = set(TABLES["Both games: observation"])
    own = {game: set(TABLES[f"{game} observation"]) for game in GAMES}
    assert not both & (own["Burraco"] | own["Three-Thirteen"])
    for kind in ("hand_dealt", "stock_drawn", "discarded", "hand_ended", "game_ended"):
        shared = set(TABLES[f"Burraco event `{kind}`"]) & set(
            TABLES[f"Three-Thirteen event `{kind}`"]
        )
        for field in shared:
            assert (
                TABLES[f"Burraco event `{kind}`"][field]
                == TABLES[f"Three-Thirteen event `{kind}`"][field]
            ), f"{kind}.{field} has two types"


def test_the_page_states_the_engine_s_version_and_the_tables_fit_it() -> None:
    assert f'"version": {VERSION}' in DOC.read_text()
    assert VERSION in FINGERPRINTS, (
        f"record the fingerprint of version {VERSION}'s tables: {fingerprint(TABLES)}"
    )
    assert fingerprint(TABLES) == FINGERPRINTS[VERSION], (
        "the field tables of docs/observations.md changed: raise visibility.VERSION"
        f" (the page's version rule) and record {fingerprint(TABLES)} for it"
    )
