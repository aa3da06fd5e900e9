"""The Burraco deal (docs/engine.md), turn order and dealer rotation."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.cards import burraco_deck, parse_cards
from rummykit.games.burraco import Discard, DrawStock, Rules, State, TakePile
from rummykit.games.burraco.events import HandDealt, HandEnded, PozzettoToStock
from rummykit.games.randomness import SeedStream

from .support import draw_and_discard, stacked_deck


def manual_deal(seed: int, hand_number: int, jokers: int = 2) -> dict[str, object]:
    """The deal written out straight from docs/engine.md."""
    dealer = (SeedStream(seed, "first-dealer").below(2) + hand_number) % 2
    deck = burraco_deck(jokers=jokers)
    SeedStream(seed, f"hand/{hand_number}").shuffle(deck)
    hands: list[list[int]] = [[], []]
    for _ in range(11):
        hands[1 - dealer].append(deck.pop())
        hands[dealer].append(deck.pop())
    pozzetto0 = [deck.pop() for _ in range(11)]
    pozzetto1 = [deck.pop() for _ in range(11)]
    pile = [deck.pop()]
    return {
        "dealer": dealer,
        "hand/0": hands[0],
        "hand/1": hands[1],
        "pozzetto/0": pozzetto0,
        "pozzetto/1": pozzetto1,
        "discard_pile": pile,
        "stock": deck,
    }


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 12345, 2**63 - 1])
@pytest.mark.parametrize("jokers", [2, 4])
def test_deal_follows_the_documented_procedure(seed: int, jokers: int) -> None:
    state = State.new(Rules(jokers=jokers), seed)
    expected = manual_deal(seed, 0, jokers)
    assert state.dealer == expected["dealer"]
    locations = state.locations()
    for place in ("hand/0", "hand/1", "pozzetto/0", "pozzetto/1", "discard_pile", "stock"):
        assert locations[place] == expected[place], place
    assert state.current_player == 1 - state.dealer
    assert state.phase == "draw" and state.hand_number == 0 and state.turn == 0
    assert len(locations["stock"]) == (61 if jokers == 2 else 63)
    assert sorted(c for cs in locations.values() for c in cs) == sorted(burraco_deck(jokers=jokers))
    (dealt,) = state.events
    assert isinstance(dealt, HandDealt) and dealt.first_player == 1 - state.dealer


def test_first_dealer_varies_with_the_seed() -> None:
    dealers = {State.new(Rules(), seed).dealer for seed in range(20)}
    assert dealers == {0, 1}


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert State.new(Rules(), 5).locations() == State.new(Rules(), 5).locations()
    assert State.new(Rules(), 5).locations() != State.new(Rules(), 6).locations()


def test_stacked_deck_deals_the_named_cards() -> None:
    deck = stacked_deck(
        dealer_hand="Ah Ac Ad As Kh Kc Kd Ks Qh Qc Qd",
        other_hand="3h 4h 5h 6h 7h 8h 9h Th Jh 2c Jk",
        pozzetto0="5c 5c",
        pile="9s",
        stock_top="7d 8d",
    )
    state = State.new(Rules(), 3, deck=deck)
    dealer = state.dealer
    locations = state.locations()
    assert sorted(locations[f"hand/{dealer}"]) == sorted(
        parse_cards("Ah Ac Ad As Kh Kc Kd Ks Qh Qc Qd")
    )
    assert sorted(locations[f"hand/{1 - dealer}"]) == sorted(
        parse_cards("3h 4h 5h 6h 7h 8h 9h Th Jh 2c Jk")
    )
    assert locations["pozzetto/0"][:2] == parse_cards("5c 5c")
    assert locations["discard_pile"] == parse_cards("9s")
    assert locations["stock"][-2:] == parse_cards("7d 8d")


def test_stacked_deck_must_be_the_game_deck() -> None:
    with pytest.raises(ValueError, match="stacked deck"):
        State.new(Rules(), 1, deck=burraco_deck()[:-1])
    with pytest.raises(ValueError, match="stacked deck"):
        State.new(Rules(jokers=4), 1, deck=burraco_deck())


def test_new_refuses_bad_seed_and_rules() -> None:
    with pytest.raises(ValueError):
        State.new(Rules(), -1)
    with pytest.raises(TypeError):
        State.new("quick", 1)  # type: ignore[arg-type]


def test_turn_phases_alternate() -> None:
    state = State.new(Rules(), 11)
    first = state.current_player
    assert first is not None and state.phase == "draw"
    assert set(state.legal_actions()) == {DrawStock(), TakePile()}
    state.apply(DrawStock())
    assert str(state.phase) == "play" and state.current_player == first
    assert DrawStock() not in set(state.legal_actions())
    discard = next(a for a in state.legal_actions() if isinstance(a, Discard))
    state.apply(discard)
    assert state.phase == "draw" and state.current_player == 1 - first and state.turn == 1


def play_hand_by_drawing(state: State) -> list[object]:
    """Draw and discard the card drawn until the hand ends; returns the events."""
    events: list[object] = []
    hand_number = state.hand_number
    while state.hand_number == hand_number and not state.game_over:
        events += draw_and_discard(state)
    return events


def test_dealer_alternates_and_next_hand_is_dealt_at_once() -> None:
    rules = Rules(mode="target", target=100_000, stalemate_turns=4)
    state = State.new(rules, 21)
    dealers = [state.dealer]
    for hand in range(3):
        events = play_hand_by_drawing(state)
        assert state.hand_over and state.hand_number == hand + 1
        assert isinstance(events[-1], HandDealt) and isinstance(events[-2], HandEnded)
        expected = manual_deal(21, hand + 1)
        assert state.locations()["stock"] == expected["stock"]
        assert state.current_player == 1 - state.dealer and state.phase == "draw"
        dealers.append(state.dealer)
    assert dealers == [dealers[0], 1 - dealers[0], dealers[0], 1 - dealers[0]]
    assert len(state.hand_results) == 3
    assert [r.reason for r in state.hand_results] == ["stalemate"] * 3


def test_reserve_pozzetti_replace_the_stock_then_the_hand_ends() -> None:
    state = State.new(Rules(), 4)
    events = play_hand_by_drawing(state)
    to_stock = [e for e in events if isinstance(e, PozzettoToStock)]
    assert [e.pozzetto for e in to_stock] == [0, 1]
    assert state.game_over and state.hand_results[0].reason == "stock_exhausted"
    # 61 stock cards and two pozzetti of 11: one turn per card.
    assert state.turn == 61 + 22
    counts = Counter(type(a).__name__ for a in state.actions)
    assert counts == {"DrawStock": 83, "Discard": 83}
