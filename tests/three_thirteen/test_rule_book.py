"""RULES.md section 2 as the game state plays it: melds, wilds and deadwood at the table."""

from __future__ import annotations

import pytest

from rummykit.games.three_thirteen import Discard, DrawStock, GoOut, Rules
from rummykit.games.three_thirteen.events import HandEnded
from tests.three_thirteen.helpers import cards, only, stacked


def card(name: str) -> int:
    return cards(name)[0]


def going_out(state) -> set[int]:
    return {action.card for action in state.legal_actions() if isinstance(action, GoOut)}


@pytest.mark.parametrize(("wild_only_melds", "can_go_out"), [(False, False), (True, True)])
def test_three_wild_cards_alone_are_a_meld_only_in_the_variant(wild_only_melds, can_go_out):
    # Round 1: threes are wild, so 3c 3d 3h has no natural card (RULES.md 2.3).
    rules = Rules(wild_only_melds=wild_only_melds)
    state = stacked(rules=rules, hands=["3c 3d 3h", "4s 9s Qd"], round_number=1, stock_top="Kd")
    state.apply(DrawStock())
    assert (card("Kd") in going_out(state)) == can_go_out
    # Discarding a three instead leaves Kd with two wilds: a set either way.
    assert cards("3c 3d 3h") == sorted(going_out(state) - {card("Kd")})


@pytest.mark.parametrize(("ace_high", "can_go_out"), [(False, False), (True, True)])
def test_the_ace_is_low_unless_the_variant_makes_it_high(ace_high, can_go_out):
    rules = Rules(ace_high=ace_high)
    state = stacked(rules=rules, hands=["Qh Kh Ah", "4s 9s Qd"], round_number=1, stock_top="7c")
    state.apply(DrawStock())
    assert going_out(state) == ({card("7c")} if can_go_out else set())


def test_king_ace_two_never_wraps():
    rules = Rules(ace_high=True)
    state = stacked(rules=rules, hands=["Kh Ah 2h", "4s 9s Qd"], round_number=1, stock_top="7c")
    state.apply(DrawStock())
    assert going_out(state) == set()


def test_identical_cards_make_a_set_with_two_decks():
    rules = Rules(players=3)
    state = stacked(
        rules=rules, hands=["7h 7h 7c", "4s 9s Qd", "2c 5d Kh"], round_number=1, stock_top="Jd"
    )
    state.apply(DrawStock())
    assert going_out(state) == {card("Jd")}


def test_wilds_fill_a_run_and_any_number_may_join_a_meld():
    # Round 2: fours are wild; 5h 4c 7h is a run (4c stands for 6h).
    state = stacked(hands=["5h 4c 7h 4d", "2s 9s Qd Kc"], round_number=2, stock_top="Tc")
    state.apply(DrawStock())
    assert going_out(state) == {card("Tc")}


def score_at_round_end(*, rules: Rules, hands: list[str], round_number: int) -> tuple[int, ...]:
    """End the round by a second stock exhaustion: player 0 draws the last card and
    discards it, so every hand is scored as dealt."""
    state = stacked(
        rules=rules, hands=hands, round_number=round_number, stock="Jc", reshuffled=True
    )
    state.apply(DrawStock())
    return only(state.apply(Discard(card("Jc"))), HandEnded).result.scores


def test_an_unmelded_wild_counts_its_face():
    # Round 1: 3c is wild but 3c 9d Kh makes no meld, so it counts 3: 3 + 9 + 10.
    scores = score_at_round_end(rules=Rules(), hands=["2s 5s 8d", "3c 9d Kh"], round_number=1)
    assert scores == (15, 22)


def test_an_unmelded_joker_counts_15():
    rules = Rules(jokers=True)
    scores = score_at_round_end(rules=rules, hands=["2s 5s 8d", "Jk 9d Kh"], round_number=1)
    assert scores == (15, 34)


def test_a_joker_is_always_wild():
    rules = Rules(jokers=True)
    scores = score_at_round_end(rules=rules, hands=["2s 5s 8d", "Jk 9d 9h"], round_number=1)
    assert scores == (15, 0)


def test_deadwood_points_ace_one_faces_ten():
    # Round 3 (fives wild): A, 2, T, J, Q, K in different suits meld nothing.
    scores = score_at_round_end(
        rules=Rules(first_round=3), hands=["Ac 2d Th Js Qc", "Kd 9c 7h 6s 3d"], round_number=3
    )
    assert scores == (1 + 2 + 10 + 10 + 10, 10 + 9 + 7 + 6 + 3)
