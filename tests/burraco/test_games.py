"""Hand scoring inside the game and who wins (RULES.md 1.7-1.8)."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_card
from rummykit.games.burraco import Discard, Rules, State
from rummykit.games.burraco.events import GameEnded, HandDealt, HandEnded
from rummykit.games.burraco.results import game_winners

from .support import draw_and_discard, position


def test_rule_book_worked_example() -> None:
    # RULES.md 1.7: both took a pozzetto; A closes.  A = player 0, B = player 1.
    state = position(
        hands=["6c", "Qh Jk 4c"],
        melds=[
            (0, "3h 4h 5h 6h 7h 8h 9h"),
            (0, "Kc Kd Ks"),
            (0, "9s Ts Jk"),
            (1, "5c 5d 5s 2h"),
            (1, "Ad 2d 3d 4d 5d 6d 7d"),
        ],
        took=(True, True),
        pozzetti=(False, False),
    )
    events = state.apply(Discard(parse_card("6c")))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.reason == "closed" and ended.closer == 0
    a, b = ended.result.breakdown
    assert (a.melded, a.burraco_bonus, a.closing_bonus, a.total) == (125, 200, 100, 425)
    assert (b.melded, b.in_hand, b.burraco_bonus, b.total) == (95, 45, 200, 250)
    assert ended.result.scores == (425, 250) and state.totals == (425, 250)
    assert state.winners == (0,) and isinstance(events[-1], GameEnded)
    assert state.hand_results[0].to_json()["scores"] == [425, 250]


def stalemate_position(totals: tuple[int, int], *, second_hand: str, rules: Rules) -> State:
    """Player 0 discards 4d and the hand ends by stalemate: player 0 scores 30 - 10 = 20,
    player 1 scores 30 minus the points of ``second_hand``."""
    return position(
        hands=["9c 4d", second_hand],
        melds=[(0, "Kc Kd Ks"), (1, "Qc Qd Qs")],
        took=(True, True),
        pozzetti=(False, False),
        rules=rules,
        totals=totals,
    )


def finish(state: State) -> HandEnded:
    events = state.apply(Discard(parse_card("4d")))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    return ended


def test_quick_game_tie_is_a_draw() -> None:
    state = stalemate_position((0, 0), second_hand="9d", rules=Rules(stalemate_turns=1))
    ended = finish(state)
    assert ended.reason == "stalemate" and ended.result.scores == (20, 20)
    assert state.game_over and state.winners == (0, 1)


def test_quick_game_higher_score_wins() -> None:
    state = stalemate_position((0, 0), second_hand="Ad", rules=Rules(stalemate_turns=1))
    assert finish(state).result.scores == (20, 15)
    assert state.winners == (0,)


TARGET = Rules(mode="target", target=2005, stalemate_turns=1)


@pytest.mark.parametrize(
    ("totals", "second_hand", "winners"),
    [
        ((2000, 0), "9d", (0,)),  # only player 0 reaches the target
        ((2000, 1990), "9d", (0,)),  # both pass: the higher total wins
        ((1990, 2000), "9d", (1,)),
        ((1000, 1000), "9d", None),  # nobody there: another hand
        ((2000, 2000), "9d", None),  # both pass with an exact tie: another hand
        ((2000, 2005), "Ad", None),
    ],
)
def test_target_game(
    totals: tuple[int, int], second_hand: str, winners: tuple[int, ...] | None
) -> None:
    state = stalemate_position(totals, second_hand=second_hand, rules=TARGET)
    ended = finish(state)
    expected_totals = tuple(t + s for t, s in zip(totals, ended.result.scores, strict=True))
    assert state.totals == expected_totals == ended.result.totals
    assert state.hand_over
    if winners is None:
        assert not state.game_over and state.hand_number == 1
        assert isinstance(state.events[-1], HandDealt)
        assert state.dealer == 1 - ended.result.dealer
    else:
        assert state.game_over and state.winners == winners


def test_game_winners_rules() -> None:
    assert game_winners(Rules(), [10, -5], hands_played=1) == (0,)
    assert game_winners(Rules(), [-10, -10], hands_played=1) == (0, 1)
    target = Rules(mode="target", target=505)
    assert game_winners(target, [505, 0], hands_played=1) == (0,)
    assert game_winners(target, [504, 504], hands_played=1) is None
    assert game_winners(target, [504, 504], hands_played=49) is None
    assert game_winners(target, [504, 504], hands_played=50) == (0, 1)
    assert game_winners(target, [-20, -30], hands_played=50) == (0,)
    assert game_winners(target, [700, 700], hands_played=50) == (0, 1)


@pytest.mark.parametrize(
    ("totals", "second_hand", "winners"),
    [
        ((0, 0), "9d", (0, 1)),  # a tie after the last hand is a draw
        ((0, 0), "Ad", (0,)),
        ((-100, 0), "9d", (1,)),
        ((2000, 2000), "9d", (0, 1)),  # past the target with a tie: no more hands
    ],
)
def test_a_target_game_ends_after_max_hands(
    totals: tuple[int, int], second_hand: str, winners: tuple[int, ...]
) -> None:
    rules = Rules(mode="target", target=2005, stalemate_turns=1, max_hands=1)
    state = stalemate_position(totals, second_hand=second_hand, rules=rules)
    finish(state)
    assert state.game_over and state.winners == winners
    assert isinstance(state.events[-1], GameEnded)


def test_max_hands_counts_every_hand_of_a_whole_game() -> None:
    rules = Rules(mode="target", target=100_000, stalemate_turns=2, max_hands=3)
    state = State.new(rules, 5)
    while not state.game_over:
        draw_and_discard(state)
    assert len(state.hand_results) == 3 and state.hand_number == 2
    best = max(state.totals)
    assert state.winners == tuple(p for p, total in enumerate(state.totals) if total == best)
    with pytest.raises(ValueError, match="max_hands"):
        Rules(mode="target", max_hands=0)


def test_hand_without_pozzetto_costs_100() -> None:
    state = position(hands=["9c 4d", "9d"], pozzetti=(True, True), rules=Rules(stalemate_turns=1))
    events = state.apply(Discard(parse_card("4d")))
    (ended,) = [e for e in events if isinstance(e, HandEnded)]
    assert ended.result.scores == (-110, -110)
    assert all(b.pozzetto_penalty == 100 for b in ended.result.breakdown)
