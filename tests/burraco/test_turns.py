"""Known answers for the Burraco turn: every refusal code, the one-card pile, pozzetti,
closing, the reserve, the stalemate, one set per rank (RULES.md 1.2-1.6)."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.games.burraco import Discard, DrawStock, Extend, Meld, Rules, State, TakePile
from rummykit.games.burraco.events import (
    Discarded,
    Extended,
    GameEnded,
    HandEnded,
    Melded,
    PileTaken,
    PozzettoTaken,
    PozzettoToStock,
)
from rummykit.games.core import IllegalAction

from .support import BURRACO, cards, discard, draw_and_discard, extend, meld, position


def refused(state: State, action: object, code: str) -> dict[str, object]:
    """Assert ``action`` is refused with ``code`` by check and apply, state unchanged."""
    refusal = state.check(action)
    assert refusal is not None and refusal.code == code, refusal
    assert refusal.message
    before = (state.locations(), state.observation(0), state.observation(1), len(state.events))
    with pytest.raises(IllegalAction) as raised:
        state.apply(action)  # type: ignore[arg-type]
    assert raised.value.refusal == refusal and raised.value.code == code
    assert before == (
        state.locations(),
        state.observation(0),
        state.observation(1),
        len(state.events),
    )
    assert action not in set(state.legal_actions())
    return dict(refusal.params)


def accepted(state: State, action: object) -> list[object]:
    assert state.check(action) is None
    return list(state.apply(action))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Draw phase


def test_draw_takes_the_top_of_the_stock() -> None:
    state = position(hands=["3h 9c", "4s 5s"], stock_top="Kh Qc", phase="draw")
    events = accepted(state, DrawStock())
    assert [type(e).__name__ for e in events] == ["StockDrawn"]
    assert sorted(state.locations()["hand/0"]) == sorted(cards("3h 9c Qc"))
    assert state.phase == "play"


def test_take_pile_takes_the_whole_pile() -> None:
    state = position(hands=["3h 9c", "4s 5s"], pile="Kh 7c 7c", phase="draw")
    (event,) = accepted(state, TakePile())
    assert isinstance(event, PileTaken) and event.cards == tuple(cards("Kh 7c 7c"))
    assert state.locations()["discard_pile"] == []
    assert state.observation(1).known_cards[0] == tuple(cards("7c 7c Kh"))
    assert state.observation(0).forbidden_discard is None  # pile larger than one card


def test_wrong_phase() -> None:
    drawing = position(hands=["3h 9c", "4s 5s"], pile="Kh", phase="draw")
    assert refused(drawing, discard("3h"), "wrong_phase") == {"phase": "draw"}
    refused(drawing, meld("3h 4h 5h"), "wrong_phase")
    playing = position(hands=["3h 9c", "4s 5s"], pile="Kh")
    refused(playing, DrawStock(), "wrong_phase")
    refused(playing, TakePile(), "wrong_phase")


def test_empty_stock_and_pile_are_refused() -> None:
    refused(position(hands=["3h", "4s"], stock_size=0, phase="draw"), DrawStock(), "stock_empty")
    refused(position(hands=["3h", "4s"], pile="", phase="draw"), TakePile(), "discard_pile_empty")


@pytest.mark.parametrize(
    "thing",
    ["draw", None, 5, object(), Meld(("3h",)), Discard("Qh"), Discard(99), Extend(0, 5)],  # type: ignore[arg-type]
)
def test_malformed_actions_are_refused_not_crashing(thing: object) -> None:
    state = position(hands=["3h 4h 5h", "4s"], melds=[(0, "9c Tc Jc")])
    refusal = state.check(thing)
    assert refusal is not None and refusal.code in {"not_an_action", "malformed_action"}
    with pytest.raises(IllegalAction):
        state.apply(thing)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Melding and extending


def test_meld_and_extend_own_melds() -> None:
    state = position(hands=["3h 4h 5h 6h 7c 8c 9c Kd", "4s 5s"], melds=[(1, "9s Ts Js")])
    (event,) = accepted(state, meld("5h 3h 4h"))
    assert isinstance(event, Melded) and event.meld_id == 1 and event.meld.kind == "run"
    (event,) = accepted(state, extend(1, "6h"))
    assert isinstance(event, Extended) and len(event.meld.cards) == 4
    assert [m.owner for m in state.observation(0).melds] == [1, 0]
    assert sorted(state.locations()["hand/0"]) == sorted(cards("7c 8c 9c Kd"))


def test_meld_refusals() -> None:
    state = position(hands=["3h 4h 5h 9c Kd Kd", "4s 5s"], melds=[(1, "9s Ts Js")])
    params = refused(state, meld("3h 4h 9c"), "illegal_meld")
    assert params["cards"] == ("3h", "4h", "9c") and params["reason"]
    assert refused(state, meld("3h 4h 6h"), "card_not_in_hand") == {"card": "6h"}
    params = refused(state, meld("Kd Kd Kd"), "too_few_copies")
    assert params == {"card": "Kd", "held": 2, "named": 3}
    said = state.check(meld("Kd Kd Kd"))
    assert said is not None
    assert said.message == "you hold only two Kd, and the move names it three times"
    assert refused(state, meld("9c 9c 9c"), "too_few_copies") == {
        "card": "9c",
        "held": 1,
        "named": 3,
    }
    assert refused(state, meld("3h 9c 9d"), "card_not_in_hand") == {"card": "9d"}
    refused(state, Meld(()), "no_cards")
    refused(state, meld("Kd Kd"), "illegal_meld")


def test_extend_refusals() -> None:
    state = position(hands=["3h 4h 5h 9c Qs Kd", "4s 5s"], melds=[(1, "9s Ts Js"), (0, "7c 8c 9c")])
    assert refused(state, extend(0, "Qs"), "not_your_meld") == {"meld_id": 0}
    refused(state, extend(2, "Qs"), "no_such_meld")
    refused(state, Extend(-1, (parse_card("Qs"),)), "no_such_meld")
    refused(state, Extend("1", (parse_card("Qs"),)), "no_such_meld")  # type: ignore[arg-type]
    refused(state, extend(1, "Kd"), "illegal_extension")
    refused(state, extend(1, "Tc"), "card_not_in_hand")
    refused(state, Extend(1, ()), "no_cards")
    assert Extend(0, (parse_card("Qs"),)) not in set(state.legal_actions())


def test_several_cards_extend_at_once_when_one_by_one_works() -> None:
    state = position(hands=["Tc Jc Qc 3h 4h", "4s 5s"], melds=[(0, "7c 8c 9c")])
    (event,) = accepted(state, extend(0, "Qc Tc Jc"))
    assert isinstance(event, Extended) and event.meld.size == 6


def test_wild_is_replaced_by_extending_with_its_natural_card() -> None:
    # RULES.md 1.4: the wild stays in the same meld and moves to an end (high if room).
    state = position(hands=["8h 3c 4c", "4s 5s"], melds=[(0, "7h Jk 9h")])
    (event,) = accepted(state, extend(0, "8h"))
    assert isinstance(event, Extended)
    assert event.meld.describe() == "7h 8h 9h Jk(=Th)"
    assert event.meld.stands_for == parse_card("Th")


def test_one_set_per_rank() -> None:
    hands = ["Kh Kh Ks 3c 4d", "4s 5s"]
    state = position(hands=hands, melds=[(0, "Kc Kd Ks")])
    assert refused(state, meld("Kh Kh Ks"), "second_set_of_rank") == {"rank": "K"}
    listed = set(state.legal_actions())
    assert all(not isinstance(a, Meld) for a in listed)
    assert extend(0, "Kh") in listed
    # Another player's set of the same rank is no obstacle.
    other = position(hands=["Kh Kh Ks 3c 4d", "4s 5s"], melds=[(1, "Kc Kd Ks")])
    assert meld("Kh Kh Ks") in set(other.legal_actions())
    # The variant switched off allows a second set.
    free = position(rules=Rules(one_set_per_rank=False), hands=hands, melds=[(0, "Kc Kd Ks")])
    assert meld("Kh Kh Ks") in set(free.legal_actions())
    accepted(free, meld("Kh Kh Ks"))


# ---------------------------------------------------------------------------------------
# The one-card pile ([decided], in face terms)


def test_one_card_pile_may_not_be_discarded() -> None:
    state = position(hands=["3h 9d", "4s 5s"], pile="Kc", phase="draw")
    accepted(state, TakePile())
    assert refused(state, discard("Kc"), "discard_taken_card") == {"card": "Kc"}
    assert state.observation(0).forbidden_discard == parse_card("Kc")
    assert state.observation(1).forbidden_discard is None
    assert state.observation(1).restricted_card == parse_card("Kc")
    assert set(state.legal_actions()) == {discard("3h"), discard("9d")}
    accepted(state, discard("9d"))
    assert state.observation(0).restricted_card is None


def test_one_card_pile_twin_may_be_discarded() -> None:
    state = position(hands=["Kc 9d", "4s 5s"], pile="Kc", phase="draw")
    accepted(state, TakePile())
    assert state.observation(0).forbidden_discard is None
    assert discard("Kc") in set(state.legal_actions())
    accepted(state, discard("Kc"))


def test_melding_the_taken_card_lifts_the_restriction() -> None:
    state = position(hands=["Kc Kd Ks 9d 4c", "4s 5s"], pile="Kc", phase="draw")
    accepted(state, TakePile())
    # Two Kc in hand: one may go (the twin).  After melding one, the other is free.
    assert discard("Kc") in set(state.legal_actions())
    accepted(state, meld("Kc Kd Ks"))
    assert state.observation(0).restricted_card is None
    assert discard("Kc") in set(state.legal_actions())


def test_larger_pile_has_no_restriction() -> None:
    state = position(hands=["3h 9d", "4s 5s"], pile="Kc Kc", phase="draw")
    accepted(state, TakePile())
    assert discard("Kc") in set(state.legal_actions())


# ---------------------------------------------------------------------------------------
# Pozzetti


def test_melding_every_card_takes_a_pozzetto_and_the_turn_goes_on() -> None:
    state = position(hands=["3h 4h 5h", "4s 5s"])
    pozzetto = state.locations()["pozzetto/0"]
    events = accepted(state, meld("3h 4h 5h"))
    assert isinstance(events[-1], PozzettoTaken) and events[-1].pozzetto == 0
    assert sorted(state.locations()["hand/0"]) == sorted(pozzetto)
    assert state.current_player == 0 and state.phase == "play"
    assert state.observation(1).took_pozzetto == (True, False)
    assert state.observation(1).pozzetti_left == (1,)
    assert state.events_for(1)[-1] == PozzettoTaken(0, 0, None)


def test_discarding_the_last_card_takes_a_pozzetto_and_ends_the_turn() -> None:
    state = position(hands=["9c", "4s 5s"], pozzetti=(False, True), took=(False, True))
    pozzetto = state.locations()["pozzetto/1"]
    events = accepted(state, discard("9c"))
    assert [type(e) for e in events] == [Discarded, PozzettoTaken]
    assert state.locations()["hand/0"] == pozzetto
    assert state.current_player == 1 and state.phase == "draw"


def test_refill_comes_before_the_reserve() -> None:
    state = position(hands=["9c", "4s 5s"], stock_size=0)
    events = accepted(state, discard("9c"))
    assert [type(e) for e in events] == [Discarded, PozzettoTaken, PozzettoToStock]
    assert events[1].pozzetto == 0 and events[2].pozzetto == 1  # type: ignore[attr-defined]
    assert len(state.locations()["stock"]) == 11


def test_reserve_takes_the_first_pozzetto_left() -> None:
    state = position(
        hands=["9c 3h", "4s 5s"], stock_size=0, pozzetti=(False, True), took=(True, False)
    )
    events = accepted(state, discard("9c"))
    assert [type(e) for e in events] == [Discarded, PozzettoToStock]
    assert events[1].pozzetto == 1  # type: ignore[attr-defined]
    assert state.observation(0).pozzetti_left == ()


def test_empty_stock_without_pozzetto_ends_the_hand() -> None:
    state = position(
        hands=["9c 3h", "4s 5s"], stock_size=0, pozzetti=(False, False), took=(True, True)
    )
    events = accepted(state, discard("9c"))
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert ended[0].reason == "stock_exhausted" and ended[0].closer is None
    assert isinstance(events[-1], GameEnded) and state.game_over


# ---------------------------------------------------------------------------------------
# Closing and the way to end the turn


def test_closing_needs_a_burraco() -> None:
    state = position(hands=["9c", "4s 5s"], took=(True, False), pozzetti=(False, True))
    refused(state, discard("9c"), "closing_without_burraco")


@pytest.mark.parametrize("wild", ["2c", "2d", "Jk"])
def test_closing_discard_may_not_be_a_wild(wild: str) -> None:
    state = position(
        hands=[wild, "4s 5s"], melds=[(0, BURRACO)], took=(True, False), pozzetti=(False, True)
    )
    assert refused(state, discard(wild), "closing_with_wild") == {"card": wild}


def test_closing_ends_the_hand_with_the_bonus() -> None:
    state = position(
        hands=["9c", "4s 5s"], melds=[(0, BURRACO)], took=(True, False), pozzetti=(False, True)
    )
    events = accepted(state, discard("9c"))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.reason == "closed" and ended.closer == 0
    breakdown = ended.result.breakdown[0]
    assert breakdown.closing_bonus == 100 and breakdown.pozzetto_penalty == 0
    assert state.game_over and state.winners == (0,)
    refused(state, DrawStock(), "game_over")
    assert state.current_player is None and list(state.legal_actions()) == []


def test_closing_without_a_pozzetto_to_take_gets_no_bonus() -> None:
    state = position(
        hands=["9c", "4s 5s"], melds=[(0, BURRACO)], took=(False, True), pozzetti=(False, False)
    )
    events = accepted(state, discard("9c"))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    breakdown = ended.result.breakdown[0]
    assert ended.closer == 0 and breakdown.closing_bonus == 0 and breakdown.pozzetto_penalty == 100


def test_melding_out_with_no_pozzetto_is_refused() -> None:
    state = position(
        hands=["3h 4h 5h", "4s 5s"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
    )
    assert refused(state, meld("3h 4h 5h"), "no_way_to_end_turn")["reason"] == "empty_hand"
    gone = position(hands=["3h 4h 5h", "4s 5s"], pozzetti=(False, False), took=(False, False))
    refused(gone, meld("3h 4h 5h"), "no_way_to_end_turn")


def test_leaving_a_last_card_that_cannot_close_is_refused() -> None:
    no_burraco = position(
        hands=["3h 4h 5h Kc", "4s 5s"], took=(True, False), pozzetti=(False, True)
    )
    assert refused(no_burraco, meld("3h 4h 5h"), "no_way_to_end_turn")["reason"] == "no_burraco"
    assert set(no_burraco.legal_actions()) == {discard(c) for c in ("3h", "4h", "5h", "Kc")}
    with_burraco = position(
        hands=["3h 4h 5h Kc", "4s 5s"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
    )
    accepted(with_burraco, meld("3h 4h 5h"))
    accepted(with_burraco, discard("Kc"))
    assert with_burraco.game_over


def test_the_new_meld_itself_can_be_the_burraco() -> None:
    state = position(
        hands=["3h 4h 5h 6h 7h 8h 9h Kc", "4s 5s"], took=(True, False), pozzetti=(False, True)
    )
    assert meld("3h 4h 5h 6h 7h 8h 9h") in set(state.legal_actions())
    accepted(state, meld("3h 4h 5h 6h 7h 8h 9h"))
    accepted(state, discard("Kc"))
    assert state.hand_results[0].reason == "closed"


def test_leaving_a_wild_as_the_last_card_is_refused() -> None:
    state = position(
        hands=["3h 4h 5h 2c", "4s 5s"],
        melds=[(0, BURRACO)],
        took=(True, False),
        pozzetti=(False, True),
    )
    assert refused(state, meld("3h 4h 5h"), "no_way_to_end_turn")["reason"] == "wild_left"
    refused(state, meld("3h 4h 5h 2c"), "no_way_to_end_turn")  # nothing left to discard
    accepted(state, meld("3h 4h 2c"))  # leaves 5h, a fine closing discard


def test_leaving_the_restricted_card_as_the_last_card_is_refused() -> None:
    state = position(hands=["3h 4h 5h", "4s 5s"], pile="Kc", phase="draw")
    accepted(state, TakePile())
    params = refused(state, meld("3h 4h 5h"), "no_way_to_end_turn")
    assert params == {"reason": "restricted_left", "card": "Kc"}


def test_the_dead_end_test_looks_at_the_rest_of_the_turn() -> None:
    # Issue example (RULES.md 1.6): after taking the one-card pile 7h, the meld 5c 5d 5s
    # leaves only 7h, which may not be discarded but can still go onto 8h 9h Th; that
    # empties the hand and brings a pozzetto, so the meld is legal, in either order.
    def fresh() -> State:
        state = position(
            hands=["5c 5d 5s", "4s 5s"], melds=[(0, "8h 9h Th")], pile="7h", phase="draw"
        )
        accepted(state, TakePile())
        return state

    state = fresh()
    assert meld("5c 5d 5s") in set(state.legal_actions())
    accepted(state, meld("5c 5d 5s"))
    refused(state, discard("7h"), "discard_taken_card")
    assert set(state.legal_actions()) == {extend(0, "7h")}
    events = accepted(state, extend(0, "7h"))
    assert any(isinstance(e, PozzettoTaken) for e in events)
    assert state.phase == "play" and len(state.locations()["hand/0"]) == 11

    other_order = fresh()
    accepted(other_order, extend(0, "7h"))
    accepted(other_order, meld("5c 5d 5s"))
    assert len(other_order.locations()["hand/0"]) == 11

    # The card may go onto the meld just laid, too.
    onto_new = position(hands=["5c 5d 5s", "4s 5s"], pile="5h", phase="draw")
    accepted(onto_new, TakePile())
    assert meld("5c 5d 5s") in set(onto_new.legal_actions())
    accepted(onto_new, meld("5c 5d 5s"))
    accepted(onto_new, extend(0, "5h"))

    # With four cards (the 4s kept) a discard is left anyway.
    literal = position(
        hands=["5c 5d 5s 4s", "4s 5s"], melds=[(0, "8h 9h Th")], pile="7h", phase="draw"
    )
    accepted(literal, TakePile())
    accepted(literal, meld("5c 5d 5s"))


def test_the_restricted_last_card_is_refused_when_it_fits_no_meld() -> None:
    state = position(
        hands=["5c 5d 5s", "4s 5s"],
        melds=[(0, "Jh Qh Kh"), (1, "8h 9h Th")],
        pile="7h",
        phase="draw",
    )
    accepted(state, TakePile())
    params = refused(state, meld("5c 5d 5s"), "no_way_to_end_turn")
    assert params == {"reason": "restricted_left", "card": "7h"}
    said = state.check(meld("5c 5d 5s"))
    assert said is not None and said.message.endswith("nor add to any of your melds")
    # Without a pozzetto to take, adding the last card would empty the hand for good.
    no_pozzetto = position(
        hands=["5c 5d 5s", "4s 5s"],
        melds=[(0, "8h 9h Th")],
        pile="7h",
        phase="draw",
        took=(True, False),
        pozzetti=(False, True),
    )
    accepted(no_pozzetto, TakePile())
    assert refused(no_pozzetto, meld("5c 5d 5s"), "no_way_to_end_turn")["reason"] == (
        "restricted_left"
    )
    accepted(no_pozzetto, extend(0, "7h"))
    assert refused(no_pozzetto, meld("5c 5d 5s"), "no_way_to_end_turn")["reason"] == "empty_hand"


def test_extending_to_one_last_card_is_checked_too() -> None:
    state = position(
        hands=["6h Kc", "4s 5s"],
        melds=[(0, "3h 4h 5h")],
        took=(True, False),
        pozzetti=(False, True),
    )
    refused(state, extend(0, "6h"), "no_way_to_end_turn")
    assert set(state.legal_actions()) == {discard("6h"), discard("Kc")}
    ready = position(
        hands=["9h Kc", "4s 5s"],
        melds=[(0, "3h 4h 5h 6h 7h 8h")],
        took=(True, False),
        pozzetti=(False, True),
    )
    assert extend(0, "9h") in set(ready.legal_actions())  # it makes the burraco


# ---------------------------------------------------------------------------------------
# Stalemate


def test_stalemate_ends_the_hand_after_the_set_number_of_turns() -> None:
    state = State.new(Rules(stalemate_turns=3), 8)
    for _ in range(3):
        draw_and_discard(state)
    assert state.game_over and state.hand_results[0].reason == "stalemate"
    assert state.turn == 3


def test_a_wild_may_be_discarded_when_it_does_not_close() -> None:
    state = position(hands=["Jk 2c 9d", "4s 5s"])
    listed = set(state.legal_actions())
    assert {discard("Jk"), discard("2c"), discard("9d")} <= listed
    accepted(state, discard("Jk"))
    assert state.locations()["discard_pile"][-1] == parse_card("Jk")


def test_natural_two_turns_wild_so_the_run_can_grow() -> None:
    # RULES.md 1.4: table 2d..7d, add 9d -> 2d stands for 8d; add 8d -> clean again.
    state = position(hands=["9d 8d Kc Qs", "4s 5s"], melds=[(0, "2d 3d 4d 5d 6d 7d")])
    (event,) = accepted(state, extend(0, "9d"))
    assert isinstance(event, Extended) and event.meld.stands_for == parse_card("8d")
    assert not event.meld.clean
    (event,) = accepted(state, extend(0, "8d"))
    assert isinstance(event, Extended) and event.meld.clean and event.meld.is_burraco
    assert event.meld.describe() == "2d 3d 4d 5d 6d 7d 8d 9d"
