"""The leak audit of whole games: every message a seat or a watcher received checked
against the engine's own view at that state, replayed from the revealed record, and
every text it carries against what the receiver may read (see
tests/server/table/test_whole_games.py, and the other tests that play whole games)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rummykit.cards import CardError, parse_card
from rummykit.games.core import rules_from_json
from rummykit.games.registry import game_named
from rummykit.server.table.views import watcher_events, watcher_observation


def leaves_agree(watched: Any, seen: Any) -> bool:
    """Every non-null value of ``watched`` is the same in ``seen``."""
    if watched is None:
        return True
    if isinstance(watched, dict):
        return isinstance(seen, dict) and all(
            leaves_agree(v, seen.get(k)) for k, v in watched.items()
        )
    if (
        isinstance(watched, list)
        and isinstance(seen, list)
        and len(watched) == len(seen)
        and all(item is None or isinstance(item, (list, dict)) for item in watched)
    ):
        return all(leaves_agree(a, b) for a, b in zip(watched, seen, strict=True))
    return bool(watched == seen)


# Text fields, by message type, that may reach anyone at the table (outside
# ``observation`` and ``events``, held to the engine's views above): names and kinds the
# lobby shows, the table's own ids, who made the last move, what players said in the
# chat, the fair-deal proof at the end.  ``*`` is any list item.
PUBLIC_TEXTS: dict[str, frozenset[str]] = {
    "state": frozenset(
        {
            "type",
            "table_id",
            "game",
            "status",
            "players.*.name",
            "players.*.kind",
            "players.*.level",
            "last_action.actor",
        }
    ),
    "chat": frozenset({"type", "name", "text"}),
    "chat_history": frozenset({"type", "messages.*.type", "messages.*.name", "messages.*.text"}),
    "game_over": frozenset({"type", "table_id", "seed", "nonce", "commitment", "record_url"}),
    "pong": frozenset({"type"}),
}
# Text fields that only the receiver's own seat is sent: its own hand arranged and its
# legal moves, what it asked for (a hint, a refusal of its own request: their texts
# are made from its own view) and its rematch invitation.
OWN_TEXTS: dict[str, frozenset[str]] = {
    "state": frozenset({"arrangement.melds.*.kind", "legal_actions.*"}),
    "hint": frozenset({"type", "action", "reason", "reason_phrases.*.code"}),
    "error": frozenset({"type", "code", "message"}),
    "rematch": frozenset({"type", "table_id", "invite_token"}),
}


def texts(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text leaf of a JSON value outside ``observation``/``events``, by path
    (list items as ``*``; ``reason_phrases`` parameters and arrangement cards as one)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else key
            if where in ("observation", "events") or (
                where.startswith("arrangement.")
                and (key in ("cards", "stands_for", "unmelded", "card"))
            ):
                continue
            if where.startswith("reason_phrases.*.params"):
                yield where, json.dumps(item)
                continue
            yield from texts(item, where)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item, f"{path}.*" if path else "*")


def action_cards(action: str) -> list[str]:
    """The card names a move in the engine's notation names."""
    named = []
    for word in action.split():
        try:
            parse_card(word)
        except CardError:
            continue
        named.append(word)
    return named


def check_texts(
    seat: int | None, message: dict[str, Any], moved: dict[int | None, str] | None
) -> None:
    """Audit every text of ``message`` as received by ``seat`` (``None``: a watcher).

    Each text field must be one the audit knows: public, or the receiver's own.  A
    ``last_action``'s reason reaches only the seat whose move it was (it is worked out
    from that hand); its move names only cards the receiver's events of that move show
    (``moved``: the JSON of the receiver's events of that move)."""
    kind = message["type"]
    last = message.get("last_action") if kind == "state" else None
    for path, text in texts(message):
        if path in PUBLIC_TEXTS.get(kind, ()):
            continue
        if kind == "state" and path == "last_action.reason":
            assert last is not None and seat == last["seat"], (
                f"a bot's reason for seat {last and last['seat']} reached seat {seat}: {text!r}"
            )
            continue
        if kind == "state" and path == "last_action.action":
            assert moved is not None
            for card in action_cards(text):
                assert f'"{card}"' in moved[seat], (seat, text, moved[seat])
            continue
        own = OWN_TEXTS.get(kind, frozenset())
        if path in own or (kind == "hint" and path.startswith("reason_phrases.*.params")):
            # a watcher may be refused (its own request), but has no hand, moves or hint
            assert seat is not None or kind == "error", (seat, path, text)
            continue
        if kind == "error" and path.startswith("params."):
            continue  # the parameters of a refusal of the receiver's own request
        raise AssertionError(f"a text field the leak audit does not know: {kind} {path} = {text!r}")


def check_no_leak(record: dict[str, Any], messages: dict[int | None, list[dict[str, Any]]]) -> int:
    """Check every message against a replay of ``record``; how many states were checked."""
    game = game_named(record["game"])
    rules = rules_from_json(game.rules_type, record["rules"])
    state = game.new_state(rules, int(record["seed"]))
    # by state number: each receiver's events of the move that made that state (JSON)
    moved: dict[int, dict[int | None, str]] = {}
    for seat, received in messages.items():
        for message in received:
            if message["type"] != "state":
                check_texts(seat, message, None)
    by_number: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for seat, received in messages.items():
        for message in received:
            if message["type"] == "state":
                by_number.setdefault(message["state_number"], []).append((seat, message))
    checked = 0
    for number in range(len(record["actions"]) + 1):
        seats = range(state.num_players)
        for seat, message in by_number.get(number, []):
            start = message["events_start"]
            if seat is not None:
                assert message["seat"] == seat
                assert message["observation"] == state.observation(seat).to_json()
                expected = [e.to_json() for e in state.events_for(seat)]
                assert message["events"] == expected[start : start + len(message["events"])]
                if message["legal_actions"]:
                    assert state.current_player == seat
            else:
                assert message["seat"] is None and message["legal_actions"] == []
                observation = message["observation"]
                assert observation["hand"] is None
                for p in seats:
                    assert leaves_agree(observation, state.observation(p).to_json())
                    shuffled = state.clone()
                    shuffled.shuffle_hidden(p, number)
                    again = watcher_observation([shuffled.observation(q).to_json() for q in seats])
                    assert again == observation
                    seen = [e.to_json() for e in state.events_for(p)]
                    for i, event in enumerate(message["events"]):
                        assert leaves_agree(event, seen[start + i])
            checked += 1
        if number < len(record["actions"]):
            before = [len(state.events_for(p)) for p in seats]
            state.apply(game.parse_action(record["actions"][number]))
            per_seat = [[e.to_json() for e in state.events_for(p)][before[p] :] for p in seats]
            views: dict[int | None, str] = {p: json.dumps(per_seat[p]) for p in seats}
            views[None] = json.dumps(watcher_events(per_seat))
            moved[number + 1] = views
    for seat, received in messages.items():
        for message in received:
            if message["type"] == "state":
                check_texts(seat, message, moved.get(message["state_number"]))
    assert state.game_over and list(state.totals) == record["totals"]
    return checked
