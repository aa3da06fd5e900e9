"""What a Burraco player sees: observations, their JSON, and the filtered event log."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rummykit.cards import parse_card
from rummykit.games.burraco import (
    Discard,
    DrawStock,
    Extend,
    Meld,
    Observation,
    Rules,
    State,
    TakePile,
    determinize,
)
from rummykit.games.burraco.events import HandDealt, PozzettoTaken, StockDrawn
from rummykit.games.visibility import VERSION

from .support import cards, draw_and_discard, position


def round_trip(observation: Observation) -> Observation:
    return Observation.from_json(json.loads(json.dumps(observation.to_json())))


def test_start_of_a_hand() -> None:
    state = State.new(Rules(), 17)
    for player in (0, 1):
        seen = state.observation(player)
        assert seen.player == player and seen.version == VERSION
        assert list(seen.hand) == sorted(seen.hand, key=lambda c: (c // 13 if c < 52 else 4, c))
        assert sorted(seen.hand) == sorted(state.locations()[f"hand/{player}"])
        assert seen.hand_sizes == (11, 11) and seen.stock_count == 61
        assert seen.pozzetti_left == (0, 1) and seen.took_pozzetto == (False, False)
        assert seen.discard_pile == tuple(state.locations()["discard_pile"])
        assert [e.kind for e in seen.discard_history] == ["start"]
        assert seen.phase == "draw" and seen.current_player == 1 - seen.dealer
        assert seen.known_cards == ((), ()) and seen.melds == ()
        assert seen.totals == (0, 0) and seen.hand_results == () and seen.winners == ()
        assert round_trip(seen) == seen


def test_observation_shows_neither_the_other_hand_nor_the_seed() -> None:
    state = State.new(Rules(), 17)
    text = json.dumps(state.observation(0).to_json())
    assert "seed" not in text and 'stock"' not in text
    # The other hand's cards, the stock and the pozzetti may be shuffled freely.
    twin = state.clone()
    twin.shuffle_hidden(0, 99)
    assert twin.locations()["hand/1"] != state.locations()["hand/1"]
    assert twin.observation(0) == state.observation(0)
    assert twin.observation(1) != state.observation(1)


def test_known_cards_follow_the_pile_taken() -> None:
    state = position(hands=["9s 3h 4h 5h Kd", "4s 5s"], pile="Kh 7c 7c", phase="draw")
    state.apply(TakePile())
    assert state.observation(1).known_cards[0] == tuple(cards("7c 7c Kh"))
    state.apply(Meld(tuple(cards("3h 4h 5h"))))  # not a known card: nothing changes
    assert state.observation(1).known_cards[0] == tuple(cards("7c 7c Kh"))
    state.apply(Discard(parse_card("7c")))
    assert state.observation(1).known_cards[0] == tuple(cards("7c Kh"))
    # Shuffling what player 1 cannot see keeps the cards seen taken in player 0's hand.
    twin = state.clone()
    twin.shuffle_hidden(1, 5)
    hand = twin.locations()["hand/0"]
    assert hand.count(parse_card("Kh")) >= 1 and hand.count(parse_card("7c")) >= 1


def test_melding_a_known_card_forgets_one_copy() -> None:
    state = position(hands=["7d 7s 3h", "4s 5s"], pile="7c", phase="draw")
    state.apply(TakePile())
    state.apply(Meld(tuple(cards("7c 7d 7s"))))
    assert state.observation(1).known_cards[0] == ()


def test_melds_are_shown_with_ids_owners_and_arrangement() -> None:
    state = position(hands=["5h 3c 4c 9d", "4s 5s"], melds=[(1, "9s Ts Js"), (0, "7h 8h 9h 2c")])
    state.apply(Extend(1, (parse_card("5h"),)))
    seen = state.observation(1)
    assert [(m.meld_id, m.owner) for m in seen.melds] == [(0, 1), (1, 0)]
    assert seen.melds[1].meld.describe() == "5h 2c(=6h) 7h 8h 9h"
    assert round_trip(seen) == seen


def test_events_for_hides_what_the_player_may_not_see() -> None:
    state = position(hands=["3h 4h 5h", "4s 5s 6s"], phase="play")
    state.apply(Meld(tuple(cards("3h 4h 5h"))))  # takes pozzetto 0
    state = State.new(Rules(), 23)
    draw_and_discard(state)
    mover = 1 - state.dealer
    for player in (0, 1):
        seen = state.events_for(player)
        dealt = seen[0]
        assert isinstance(dealt, HandDealt)
        assert dealt.hands[player] is not None and dealt.hands[1 - player] is None
        assert dealt.pozzetti == (None, None)
        drawn = seen[1]
        assert isinstance(drawn, StockDrawn)
        assert (drawn.card is None) == (player != mover)
    full = state.events[0]
    assert isinstance(full, HandDealt) and all(h is not None for h in full.hands)
    assert all(p is not None for p in full.pozzetti)


def test_events_for_hides_the_other_players_pozzetto() -> None:
    state = position(hands=["3h 4h 5h", "4s 5s 6s"])
    state.apply(Meld(tuple(cards("3h 4h 5h"))))
    mine = state.events_for(0)[-1]
    theirs = state.events_for(1)[-1]
    assert isinstance(mine, PozzettoTaken) and mine.cards is not None
    assert theirs == PozzettoTaken(0, 0, None)
    with pytest.raises(ValueError):
        state.events_for(2)
    with pytest.raises(ValueError):
        state.observation(-1)


def test_forbidden_discard_is_shown_to_the_mover_only() -> None:
    state = position(hands=["3h 9d", "4s 5s"], pile="Kc", phase="draw")
    state.apply(TakePile())
    mine, theirs = state.observation(0), state.observation(1)
    assert mine.forbidden_discard == parse_card("Kc") and theirs.forbidden_discard is None
    assert mine.restricted_card == theirs.restricted_card == parse_card("Kc")
    assert round_trip(mine) == mine


def test_finished_game_round_trips() -> None:
    state = State.new(Rules(stalemate_turns=4), 2)
    while not state.game_over:
        draw_and_discard(state)
    for player in (0, 1):
        seen = state.observation(player)
        assert seen.game_over and seen.phase == "over" and seen.current_player is None
        assert seen.winners == state.winners and len(seen.hand_results) == 1
        assert round_trip(seen) == seen
        rebuilt = determinize(seen, 4)
        assert rebuilt.observation(player) == seen and rebuilt.game_over


def test_determinize_keeps_the_observation_and_uses_its_own_seed() -> None:
    state = State.new(Rules(mode="target", target=100_000, stalemate_turns=2), 31)
    draw_and_discard(state)
    state.apply(DrawStock())
    seen = state.observation(0)
    one, two = determinize(seen, 1), determinize(seen, 2)
    assert one.observation(0) == seen == two.observation(0)
    assert one.locations() != two.locations()
    assert one.seed == 1
    # Later hands come from the new seed, not the real game's.
    for rebuilt in (one, two):
        while rebuilt.hand_number == 0:
            action = next(a for a in rebuilt.legal_actions() if isinstance(a, Discard | DrawStock))
            rebuilt.apply(action)
    assert one.locations() != two.locations()


def test_determinize_refuses_an_impossible_observation() -> None:
    seen = State.new(Rules(), 3).observation(0)
    data = seen.to_json()
    data["stock_count"] = 10
    with pytest.raises(ValueError, match="unseen"):
        determinize(Observation.from_json(data), 1)
    data = seen.to_json()
    data["discard_pile"] = ["Jk", "Jk", "Jk"]
    with pytest.raises(ValueError, match="more Jk"):
        determinize(Observation.from_json(data), 1)
    with pytest.raises(ValueError):
        determinize("observation", 1)  # type: ignore[arg-type]


def _valid() -> dict[str, Any]:
    state = position(hands=["3h 9d 9d", "4s 5s"], melds=[(1, "9s Ts Js")], pile="Kc", phase="draw")
    state.apply(TakePile())
    return state.observation(0).to_json()


def _set(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(_valid())
    target: Any = data
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        target = target[key]
    if value is KeyError:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("version", 1, "version"),
        ("player", 2, "player"),
        ("player", True, "player"),
        ("rules", {"jokers": 3}, "jokers"),
        ("rules", {"decks": 3}, "unknown rule option"),
        ("hand", ["3h", "zz"], "hand"),
        ("hand", "3h 9d", "hand"),
        ("hand", ["9d", "3h", "9d", "Kc"], "sorted"),
        ("hand_sizes", [4, 2, 0], "one entry per player"),
        ("hand_sizes", [5, 2], "hand_sizes"),
        ("phase", "think", "phase"),
        ("phase", "over", "go together"),
        ("current_player", None, "go together"),
        ("turn", -1, "turn"),
        ("stock_count", "many", "stock_count"),
        ("pozzetti_left", [1, 0], "pozzetti_left"),
        ("pozzetti_left", [0, 2], "pozzetti_left"),
        ("took_pozzetto", [0, 1], "took_pozzetto"),
        ("melds.0.meld_id", 3, "numbered"),
        ("melds.0.owner", 5, "owner"),
        ("melds.0.cards", ["9s", "Ts", "Kd"], "melds"),
        ("melds.0.kind", "set", "melds"),
        ("melds.0.extra", 1, "unknown field"),
        ("discard_history.0.kind", "steal", "kind"),
        ("discard_history.0.player", 0, "start"),
        ("discard_history.1.cards", [], "discard_history"),
        ("restricted_card", "K", "restricted_card"),
        ("known_cards", [["Kc"], ["Qh"], []], "one entry per player"),
        ("known_cards.0", ["3h", "Kc"], "sorted"),
        ("totals", [0, "0"], "totals"),
        ("winners", [3], "winners"),
        ("hand_over", "no", "hand_over"),
        ("surprise", 1, "unknown field"),
        ("dealer", KeyError, "no 'dealer'"),
    ],
)
def test_malformed_observation_json_is_refused(path: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Observation.from_json(_set(path, value))


def test_malformed_observation_json_non_objects() -> None:
    things: tuple[object, ...] = (None, [], "observation", 3)
    for data in things:
        with pytest.raises(ValueError):
            Observation.from_json(data)  # type: ignore[arg-type]


def test_malformed_hand_results_are_refused() -> None:
    state = State.new(Rules(mode="target", target=100_000, stalemate_turns=2), 9)
    while state.hand_number == 0:
        draw_and_discard(state)
    data = state.observation(0).to_json()
    assert Observation.from_json(data) == state.observation(0)
    bad = copy.deepcopy(data)
    bad["hand_results"][0]["scores"][0] += 1
    with pytest.raises(ValueError, match="breakdown"):
        Observation.from_json(bad)
    bad = copy.deepcopy(data)
    bad["hand_results"][0]["breakdown"][0]["total"] += 1
    with pytest.raises(ValueError, match="breakdown"):
        Observation.from_json(bad)
    bad = copy.deepcopy(data)
    bad["hand_results"][0]["closer"] = 0
    with pytest.raises(ValueError, match="closer"):
        Observation.from_json(bad)
    bad = copy.deepcopy(data)
    bad["hand_results"][0]["reason"] = "boredom"
    with pytest.raises(ValueError, match="reason"):
        Observation.from_json(bad)


@pytest.mark.parametrize("pozzetto_left", [False, True])
def test_determinize_keeps_a_discardable_last_card_for_the_mover(pozzetto_left: bool) -> None:
    # Player 0 is mid-turn with one card; player 1 cannot see it but knows the rules
    # left it discardable: not a wild when discarding it would close the hand.
    state = position(
        hands=["9c", "4s 5s"],
        melds=[(0, "3d 4d 5d 6d 7d 8d 9d")],
        took=(not pozzetto_left, False),
        pozzetti=(False, pozzetto_left),
    )
    seen = state.observation(1)
    last_cards = set()
    for seed in range(150):
        rebuilt = determinize(seen, seed)
        (card,) = rebuilt.locations()["hand/0"]
        last_cards.add(card)
        assert rebuilt.observation(1) == seen
        assert Discard(card) in set(rebuilt.legal_actions())
    wilds = {parse_card(name) for name in ("Jk", "2c", "2d", "2h", "2s")}
    assert bool(last_cards & wilds) == pozzetto_left  # a refill makes any card fine
    assert len(last_cards) > 20
