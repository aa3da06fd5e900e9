"""Turn flow, going out, last turns, reshuffles, refusals and scoring (RULES.md 2.2-2.4)."""

from __future__ import annotations

import pytest

from rummykit.cards import format_card
from rummykit.games.core import IllegalAction
from rummykit.games.randomness import SeedStream
from rummykit.games.three_thirteen import Discard, DrawStock, GoOut, Rules, TakeDiscard
from rummykit.games.three_thirteen.events import (
    Discarded,
    DiscardTaken,
    GameEnded,
    HandDealt,
    HandEnded,
    StockDrawn,
    StockReshuffled,
    WentOut,
)
from tests.three_thirteen.helpers import ALL_ACTIONS, cards, only, stacked


def card(name: str) -> int:
    return cards(name)[0]


def assert_refused(state, action, code):
    refusal = state.check(action)
    assert refusal is not None and refusal.code == code, refusal
    assert refusal.message
    before = (state.locations(), [state.observation(p) for p in range(state.num_players)])
    with pytest.raises(IllegalAction) as raised:
        state.apply(action)
    assert raised.value.refusal == refusal and raised.value.code == code
    after = (state.locations(), [state.observation(p) for p in range(state.num_players)])
    assert after == before
    return refusal


def test_a_turn_is_draw_then_discard():
    state = stacked(
        hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h", stock_top="Jc"
    )
    assert list(state.legal_actions()) == [DrawStock(), TakeDiscard()]
    assert state.apply(DrawStock()) == [StockDrawn(0, card("Jc"))]
    assert state.phase == "discard" and state.current_player == 0
    assert list(state.legal_actions()) == [Discard(c) for c in sorted(cards("2c 7d Kh Jc"))]
    assert state.apply(Discard(card("Kh"))) == [Discarded(0, card("Kh"))]
    assert (state.phase, state.current_player) == ("draw", 1)
    assert state.discard_pile[-2:] == (card("5h"), card("Kh"))
    assert state.apply(TakeDiscard()) == [DiscardTaken(1, card("Kh"))]
    assert sorted(state.hand(1)) == sorted(cards("4s 9s Qd Kh"))


def test_the_card_just_taken_may_be_discarded():
    state = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h")
    state.apply(TakeDiscard())
    assert state.check(Discard(card("5h"))) is None
    state.apply(Discard(card("5h")))
    assert state.discard_pile[-1] == card("5h") and state.current_player == 1


def test_going_out_on_the_first_turn_then_one_last_turn_each():
    rules = Rules(players=3, first_round=1, last_round=2)
    state = stacked(
        rules=rules,
        hands=["4c 5c 6c", "9d 9h 2s", "Ah Ks Qd"],
        round_number=1,
        discard_pile="8h",
        stock_top="Kd 7s 7h",
    )
    state.apply(DrawStock())
    # Only the Kd discard leaves three cards in melds.
    assert [a for a in state.legal_actions() if isinstance(a, GoOut)] == [GoOut(card("Kd"))]
    assert_refused(state, GoOut(card("4c")), "cannot_go_out")
    events = state.apply(GoOut(card("Kd")))
    went_out = events[0]
    assert isinstance(went_out, WentOut) and went_out.player == 0 and went_out.discard == card("Kd")
    assert [(m.meld_id, m.owner, m.kind, m.cards) for m in went_out.melds] == [
        (0, 0, "run", tuple(cards("4c 5c 6c")))
    ]
    assert state.went_out == 0 and state.last_turns_remaining == 2
    assert state.hand(0) == () and state.locations()["meld/0"] == cards("4c 5c 6c")
    # Player 1's last turn: draw 7s; 9d 9h 2s 7s ... going out is refused, discarding is fine.
    state.apply(DrawStock())
    assert not any(isinstance(a, GoOut) for a in state.legal_actions())
    refusal = assert_refused(state, GoOut(card("2s")), "last_turn_discard_only")
    assert refusal.params == {"went_out": 0}
    state.apply(Discard(card("2s")))
    assert state.last_turns_remaining == 1 and state.current_player == 2
    state.apply(TakeDiscard())
    events = state.apply(Discard(card("Qd")))
    assert [type(e) for e in events] == [Discarded, HandEnded, HandDealt]
    result = only(events, HandEnded).result
    assert result.went_out == 0 and result.round_number == 1 and result.wild_rank == 3
    assert result.players[0].deadwood == 0 and result.players[0].went_out
    assert result.players[0].melds == (tuple(cards("4c 5c 6c")),)
    # Player 1 holds 9d 9h 7s: nothing melds (3 is wild; no 3 here): 9 + 9 + 7.
    assert result.players[1].deadwood == 25 and result.players[1].melds == ()
    # Player 2 holds Ah Ks 2s: A + 10 + 2.
    assert result.players[2].unmelded == tuple(sorted(cards("Ah Ks 2s")))
    assert result.scores == (0, 25, 13) and state.totals == (0, 25, 13)
    assert only(events, HandEnded).totals == state.totals
    assert state.hand_over and state.round_number == 2 and state.phase == "draw"
    assert not state.game_over and state.winners == ()
    # The next action clears hand_over.
    state.apply(DrawStock())
    assert not state.hand_over


def test_melds_with_wilds_when_going_out_and_at_round_end():
    # Round 4: sixes are wild; 6 cards dealt, so going out needs two melds of three.
    state = stacked(
        hands=["7h 8h 6s Jc Jd 2c", "Ac 6c 2d 2h 9s Kc"],
        round_number=4,
        discard_pile="Js",
        stock_top="Kh",
    )
    state.apply(TakeDiscard())
    assert {a for a in state.legal_actions() if isinstance(a, GoOut)} == {GoOut(card("2c"))}
    events = state.apply(GoOut(card("2c")))
    melds = only(events, WentOut).melds
    assert sorted(meld.kind for meld in melds) == ["run", "set"]
    assert [meld.meld_id for meld in melds] == [0, 1] and {meld.owner for meld in melds} == {0}
    assert sorted(c for meld in melds for c in meld.cards) == sorted(cards("7h 8h 6s Jc Jd Js"))
    state.apply(DrawStock())
    events = state.apply(Discard(card("9s")))
    result = only(events, HandEnded).result
    # Ac 6c 2d 2h Kc Kh: the one wild (6c) goes with the kings, leaving Ac 2d 2h = 5.
    assert result.players[1].deadwood == 5
    assert [sorted(meld) for meld in result.players[1].melds] == [sorted(cards("Kc Kh 6c"))]
    assert sorted(result.players[1].unmelded) == sorted(cards("Ac 2d 2h"))


def test_rule_book_example_round_six_leaves_19():
    # RULES.md 2.4: in round 6, Ah 2h 4h 5h 7h 8h Th Tc leaves 19 (not the greedy 27).
    state = stacked(
        hands=["Ac 2c 3c 9d 9s 9h Kd Qd", "Ah 2h 4h 5h 7h 8h Th Tc"],
        round_number=6,
        stock="Jc",
        discard_pile="6s",
        reshuffled=True,
        last_turns_remaining=0,
    )
    state.apply(DrawStock())
    events = state.apply(Discard(card("Jc")))
    assert [type(e) for e in events] == [Discarded, HandEnded, HandDealt]
    result = only(events, HandEnded).result
    assert result.went_out is None
    assert result.players[1].deadwood == 19
    assert sorted(result.players[1].melds[0]) == sorted(cards("Th Tc 8h"))
    assert sorted(result.players[1].unmelded) == sorted(cards("Ah 2h 4h 5h 7h"))
    assert result.players[0].deadwood == 20
    assert state.totals == (20, 19)


def test_an_empty_stock_is_reshuffled_once_then_the_round_ends():
    seed = 77
    state = stacked(
        hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, stock="Jc", discard_pile="5h 6h", seed=seed
    )
    pile_before = list(state.discard_pile)
    state.apply(DrawStock())
    events = state.apply(Discard(card("Kh")))
    assert [type(e) for e in events] == [Discarded, StockReshuffled]
    expected = pile_before
    SeedStream(seed, "round/1/reshuffle").shuffle(expected)
    assert state.locations()["stock"] == expected
    assert state.discard_pile == (card("Kh"),)
    assert (
        only(events, StockReshuffled).stock_count == len(expected)
        and state.observation(0).reshuffled
    )

    # A second exhaustion in the same round ends it with no one out.
    state = stacked(
        hands=["2c 7d Kh", "4s 9s Qd"],
        round_number=1,
        stock="Jc",
        discard_pile="5h 6h",
        reshuffled=True,
    )
    state.apply(DrawStock())
    events = state.apply(Discard(card("Jc")))
    assert [type(e) for e in events] == [Discarded, HandEnded, HandDealt]
    result = only(events, HandEnded).result
    assert result.went_out is None and result.scores == (2 + 7 + 10, 4 + 9 + 10)


def test_the_last_turns_are_played_from_the_discard_pile_when_the_stock_is_gone():
    # RULES.md 2.2: player 0 goes out taking the last stock card, the reshuffle is used
    # up; players 1 and 2 still play their last turns, taking the top discard.
    rules = Rules(players=3, first_round=1)
    state = stacked(
        rules=rules,
        hands=["4c 5c 6c", "9d 9h 2s", "Jc Qd 3s"],
        round_number=1,
        stock="Kd",
        discard_pile="8h",
        reshuffled=True,
    )
    state.apply(DrawStock())
    events = state.apply(GoOut(card("Kd")))
    assert [type(e) for e in events] == [WentOut]
    assert state.current_player == 1 and state.stock_count == 0
    assert list(state.legal_actions()) == [TakeDiscard()]
    assert_refused(state, DrawStock(), "stock_empty")
    state.apply(TakeDiscard())
    assert card("Kd") in state.hand(1)
    events = state.apply(Discard(card("2s")))
    assert [type(e) for e in events] == [Discarded]
    assert state.current_player == 2 and list(state.legal_actions()) == [TakeDiscard()]
    state.apply(TakeDiscard())
    events = state.apply(Discard(card("Qd")))
    assert [type(e) for e in events] == [Discarded, HandEnded, HandDealt]
    result = only(events, HandEnded).result
    assert result.went_out == 0
    # Player 1 keeps 9d 9h Kd (the wild 3s is not theirs), player 2 Jc 3s 2s.
    assert result.scores == (0, 9 + 9 + 10, 10 + 3 + 2)


def test_the_last_turns_use_the_reshuffle_if_it_is_left():
    state = stacked(
        hands=["4c 5c 6c", "9d 9h 2s"], round_number=1, stock="Kd", discard_pile="8h 7h"
    )
    state.apply(DrawStock())
    events = state.apply(GoOut(card("Kd")))
    assert [type(e) for e in events] == [WentOut, StockReshuffled]
    assert state.stock_count == 52 - 6 - 1 and state.current_player == 1  # all but Kd


def test_a_round_with_no_one_out_ends_in_stalemate_after_the_set_number_of_turns():
    # Taking the top discard and throwing it straight back could go on forever.
    rules = Rules(first_round=1, last_round=2, stalemate_turns=6)
    state = stacked(rules=rules, hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h")
    for turn in range(6):
        state.apply(TakeDiscard())
        events = state.apply(Discard(card("5h")))
        if turn < 5:
            assert [type(e) for e in events] == [Discarded]
    assert [type(e) for e in events] == [Discarded, HandEnded, HandDealt]
    result = only(events, HandEnded).result
    assert result.went_out is None and result.scores == (2 + 7 + 10, 4 + 9 + 10)
    assert state.round_number == 2


def test_the_default_stalemate_is_200_turns_and_the_last_turns_still_finish():
    rules = Rules(first_round=1, last_round=2)
    assert rules.stalemate_turns == 200
    state = stacked(
        rules=rules,
        hands=["2c 7d Kh", "4s 9s Qd"],
        round_number=1,
        discard_pile="5h",
        turn=198,
    )
    state.apply(TakeDiscard())
    state.apply(Discard(card("5h")))
    assert state.round_number == 1  # 199 turns
    state.apply(TakeDiscard())
    events = state.apply(Discard(card("5h")))
    assert isinstance(events[1], HandEnded) and state.round_number == 2
    # Someone out at turn 199: the last turn is still played.
    state = stacked(
        rules=rules,
        hands=["4c 5c 6c", "9d 9h 2s"],
        round_number=1,
        stock_top="Kd",
        turn=199,
    )
    state.apply(DrawStock())
    assert [type(e) for e in state.apply(GoOut(card("Kd")))] == [WentOut]
    state.apply(DrawStock())
    events = state.apply(Discard(card("2s")))
    assert isinstance(events[1], HandEnded) and only(events, HandEnded).result.went_out == 0


def test_equal_lowest_totals_share_the_win():
    rules = Rules(first_round=1, last_round=1)
    state = stacked(rules=rules, hands=["4c 5c 6c", "7d 8d 9d"], round_number=1, stock_top="Kd Qs")
    state.apply(DrawStock())
    state.apply(GoOut(card("Kd")))
    state.apply(DrawStock())
    events = state.apply(Discard(card("Qs")))
    assert [type(e) for e in events] == [Discarded, HandEnded, GameEnded]
    assert state.game_over and state.current_player is None and state.phase == "over"
    assert state.totals == (0, 0) and state.winners == (0, 1)
    assert events[2] == GameEnded(totals=(0, 0), winners=(0, 1))
    assert list(state.legal_actions()) == []


def test_lowest_total_wins_over_several_rounds():
    rules = Rules(first_round=10, last_round=11)
    state = stacked(
        rules=rules,
        hands=["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc", "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Kd Ks"],
        round_number=10,
        stock_top="Qh",
    )
    state.apply(DrawStock())
    state.apply(GoOut(card("Qh")))
    state.apply(DrawStock())
    state.apply(Discard(state.hand(1)[-1]))
    assert state.hand_results[0].scores[0] == 0
    while not state.game_over:
        state.apply(next(iter(state.legal_actions())))
    totals = tuple(sum(r.scores[p] for r in state.hand_results) for p in range(2))
    assert state.totals == totals
    assert state.winners == tuple(p for p in range(2) if totals[p] == min(totals))


@pytest.mark.parametrize(
    "action",
    ["draw", None, 3, object(), DrawStock, GoOut],
)
def test_what_is_not_an_action_is_refused(action):
    state = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h")
    assert_refused(state, action, "not_an_action")


@pytest.mark.parametrize("bad", [99, -1, "Qh", True, None, 2.0])
def test_a_card_that_is_not_a_card_is_refused(bad):
    state = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h")
    state.apply(DrawStock())
    for action in (Discard(bad), GoOut(bad)):
        refusal = assert_refused(state, action, "bad_card")
        assert refusal.params == {"card": repr(bad)}


def test_refusals_by_phase_and_hand():
    state = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h")
    refusal = assert_refused(state, Discard(card("2c")), "wrong_phase")
    assert refusal.params == {"phase": "draw", "action": "discard"}
    assert_refused(state, GoOut(card("2c")), "wrong_phase")
    state.apply(DrawStock())
    assert assert_refused(state, DrawStock(), "wrong_phase").params["action"] == "draw"
    assert assert_refused(state, TakeDiscard(), "wrong_phase").params["action"] == "take"
    refusal = assert_refused(state, Discard(card("4s")), "card_not_in_hand")
    assert refusal.params == {"card": "4s"} and "4s" in refusal.message
    assert_refused(state, GoOut(card("Ah")), "card_not_in_hand")
    assert_refused(state, GoOut(card("2c")), "cannot_go_out")


def test_empty_stock_or_discard_pile_refusals():
    no_pile = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1)
    assert no_pile.discard_pile == ()
    assert list(no_pile.legal_actions()) == [DrawStock()]
    assert_refused(no_pile, TakeDiscard(), "discard_pile_empty")
    no_stock = stacked(hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, stock="")
    assert no_stock.stock_count == 0
    assert list(no_stock.legal_actions()) == [TakeDiscard()]
    assert_refused(no_stock, DrawStock(), "stock_empty")


def test_after_the_game_every_action_is_refused():
    rules = Rules(first_round=1, last_round=1)
    state = stacked(rules=rules, hands=["4c 5c 6c", "7d 8d 9d"], round_number=1, stock_top="Kd Qs")
    for move in (DrawStock(), GoOut(card("Kd")), DrawStock(), Discard(card("Qs"))):
        state.apply(move)
    assert state.game_over
    for action in ALL_ACTIONS:
        assert_refused(state, action, "game_over")


def test_check_agrees_with_legal_actions_on_every_action():
    state = stacked(
        hands=["7h 8h 5s Jc Jd", "Ac 5c 2d 2h 9s"],
        round_number=3,
        discard_pile="Js",
        stock_top="Kc",
    )
    for step in range(6):
        legal = set(state.legal_actions())
        assert {a for a in ALL_ACTIONS if state.check(a) is None} == legal, step
        state.apply(sorted(legal, key=repr)[0])


def test_cards_seen_taken_are_tracked_until_played():
    rules = Rules(players=3)
    state = stacked(
        rules=rules,
        hands=["Qh 2c 9d", "4s 9s Qd", "Ac Ad 6h"],
        round_number=1,
        discard_pile="Qh",
        current=0,
    )
    state.apply(TakeDiscard())
    assert state.observation(1).known_cards[0] == (card("Qh"),)
    state.apply(Discard(card("9d")))
    # Player 0 holds Qh twice (two decks) and is known to hold one of them.
    assert state.observation(2).known_cards == ((card("Qh"),), (), ())
    state.apply(TakeDiscard())
    assert state.observation(0).known_cards[1] == (card("9d"),)
    state.apply(Discard(card("9d")))
    assert state.observation(0).known_cards[1] == ()
    state.apply(DrawStock())
    state.apply(Discard(state.hand(2)[0]))
    state.apply(DrawStock())
    state.apply(Discard(card("Qh")))
    assert state.observation(1).known_cards[0] == ()
    assert card("Qh") in state.hand(0)


def test_events_for_hides_other_hands_and_stock_draws():
    state = stacked(
        hands=["2c 7d Kh", "4s 9s Qd"], round_number=1, discard_pile="5h", stock_top="Jc"
    )
    state.apply(DrawStock())
    state.apply(Discard(card("Jc")))
    assert state.events_for(0)[0] == StockDrawn(0, card("Jc"))
    assert state.events_for(1)[0] == StockDrawn(0, None)
    state.apply(TakeDiscard())
    assert state.events_for(0)[2] == DiscardTaken(1, card("Jc"))
    # A fresh game: the deal shows each player only their own hand.
    from rummykit.games.three_thirteen import State

    fresh = State.new(Rules(players=3), 4)
    for player in range(3):
        dealt = fresh.events_for(player)[0]
        assert isinstance(dealt, HandDealt)
        assert [hand is not None for hand in dealt.hands] == [p == player for p in range(3)]
        assert dealt.hands[player] == fresh.hand(player)
    with pytest.raises(ValueError, match="from 0 to 2, not 3"):
        fresh.events_for(3)


def test_event_json_names_cards():
    state = stacked(hands=["4c 5c 6c", "9d 9h 2s"], round_number=1, stock_top="Kd")
    state.apply(DrawStock())
    events = state.apply(GoOut(card("Kd")))
    data = events[0].to_json()
    assert data == {
        "event": "went_out",
        "player": 0,
        "melds": [{"meld_id": 0, "owner": 0, "kind": "run", "cards": ["4c", "5c", "6c"]}],
        "discard": "Kd",
    }
    assert state.events[0].to_json() == {"event": "stock_drawn", "player": 0, "card": "Kd"}
    assert format_card(card("Kd")) == "Kd"
