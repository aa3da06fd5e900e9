"""Bots that never go round in circles (``rummykit.bots.progress``): a card taken alone
from the discard pile is not thrown back while nobody draws from the stock, so two bots
never hand the same cards back and forth until the stalemate rule ends the hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.bots.base import Bot
from rummykit.bots.burraco.progress import moves_with_progress as burraco_moves
from rummykit.bots.levels import make_bot
from rummykit.bots.three_thirteen.progress import moves_with_progress as three_thirteen_moves
from rummykit.cards import parse_card, parse_cards
from rummykit.games import burraco
from rummykit.games.three_thirteen import Rules as ThreeThirteenRules
from rummykit.games.three_thirteen import State as ThreeThirteenState
from rummykit.games.three_thirteen.actions import DRAW_STOCK, TAKE_DISCARD
from rummykit.games.three_thirteen.actions import Discard as ThreeThirteenDiscard
from rummykit.games.three_thirteen.table import PileMove
from rummykit.sim.cycles import longest_cycle, watch_game

from ..burraco.support import position

LEVELS = ("easy", "greedy", "ismcts:iterations=60")


def _burraco_after_take() -> burraco.State:
    """Player 1 throws 3c; player 0, holding its twin and nothing that 3c helps, takes
    the one-card pile.  Every other card of the hand is worth keeping (wilds, a pair of
    neighbours in two suits), so before the fix 3c's twin was the cheapest discard:
    thrown back, it left the table as it was but for whose turn it is."""
    state = position(
        hands=["3c Jk 2h 7d 8d Qs Ks", "3c 9h 9s Ah 4d 6c Td Jd Kh 5s 4s Ts"],
        player=1,
        phase="play",
    )
    state.apply(burraco.Discard(parse_card("3c")))
    state.apply(burraco.TakePile())
    return state


@pytest.mark.parametrize("spec", LEVELS)
def test_burraco_bot_does_not_throw_back_the_twin_of_a_one_card_pile(spec: str) -> None:
    state = _burraco_after_take()
    legal = list(state.legal_actions())
    assert burraco.Discard(parse_card("3c")) in legal  # the rules allow the twin
    for seed in range(4):
        decision = make_bot("burraco", spec).decide(
            state.observation(0), legal, random.Random(seed)
        )
        assert decision.action != burraco.Discard(parse_card("3c")), decision.reason.text


def test_burraco_hint_does_not_throw_back_the_twin_of_a_one_card_pile() -> None:
    from rummykit.bots.hints import suggest

    state = _burraco_after_take()
    decision = suggest("burraco", state.observation(0), list(state.legal_actions()))
    assert decision.action != burraco.Discard(parse_card("3c")), decision.reason.text


def test_burraco_bot_draws_when_taking_would_leave_only_the_twin() -> None:
    """Holding only the twin of the pile's one card, taking it could only be undone."""
    state = position(hands=["3c", "3c 9h 9s"], player=1, phase="play", took=(True, False))
    state.apply(burraco.Discard(parse_card("3c")))
    legal = list(state.legal_actions())
    assert burraco.TakePile() in legal
    assert burraco_moves(state.observation(0), legal) == [burraco.DrawStock()]
    decision = make_bot("burraco", "greedy").decide(state.observation(0), legal, random.Random(0))
    assert decision.action == burraco.DrawStock()
    assert decision.reason.text == "draw: taking 3c back would only go round in circles"


def test_burraco_a_stock_draw_lifts_the_rule() -> None:
    """After a draw from the stock (by anyone) a face taken earlier may go again."""
    state = _burraco_after_take()
    state.apply(burraco.Discard(parse_card("8d")))  # player 0 keeps both 3c
    state.apply(burraco.DrawStock())  # player 1 draws: the hand moved on
    state.apply(burraco.Discard(parse_card("Ts")))
    state.apply(burraco.DrawStock())
    legal = list(state.legal_actions())
    assert burraco_moves(state.observation(0), legal) == legal


def _three_thirteen_after_take() -> ThreeThirteenState:
    """Round 3 (wild 5s): player 0 holds a run and two loners; player 1 threw Qs and
    player 0 took it.  Throwing Qs back leaves the least deadwood, and the round as it
    was: before the fix every bot did."""
    rules = ThreeThirteenRules(players=2, first_round=3, last_round=3)
    hands = [parse_cards("7h 8h 9h 4c 6d"), parse_cards("Ac Ad 9s Jc Kd Qs")]
    rest = Counter(rules.deck())
    for hand in hands:
        rest.subtract(hand)
    state = ThreeThirteenState.from_parts(
        rules=rules,
        seed=1,
        round_number=3,
        dealer=0,
        hands=hands,
        stock=sorted(rest.elements()),
        discard_pile=[],
        current_player=1,
        phase="discard",
    )
    state.apply(ThreeThirteenDiscard(parse_card("Qs")))
    state.apply(TAKE_DISCARD)
    return state


@pytest.mark.parametrize("spec", LEVELS)
def test_three_thirteen_bot_does_not_throw_back_the_card_it_took(spec: str) -> None:
    state = _three_thirteen_after_take()
    legal = list(state.legal_actions())
    thrown_back = ThreeThirteenDiscard(parse_card("Qs"))
    assert thrown_back in legal  # the rules allow it (RULES.md 2.2)
    for seed in range(4):
        decision = make_bot("three-thirteen", spec).decide(
            state.observation(0), legal, random.Random(seed)
        )
        assert decision.action != thrown_back, decision.reason.text


def test_three_thirteen_bot_draws_when_taking_would_leave_only_taken_cards() -> None:
    """Nobody drew from the stock for three turns each: player 0 took 9d, Kd and Jc and
    holds nothing else; taking 7h would leave only cards it took to discard."""
    rules = ThreeThirteenRules(players=2, first_round=1, last_round=1)
    hands = [parse_cards("9d Kd Jc"), parse_cards("4c 2c 3h")]
    rest = Counter(rules.deck())
    for cards in [*hands, parse_cards("7h")]:
        rest.subtract(cards)
    moves = [
        (1, "discard", "9d"),
        (0, "take", "9d"),
        (0, "discard", "4c"),
        (1, "take", "4c"),
        (1, "discard", "Kd"),
        (0, "take", "Kd"),
        (0, "discard", "2c"),
        (1, "take", "2c"),
        (1, "discard", "Jc"),
        (0, "take", "Jc"),
        (0, "discard", "3h"),
        (1, "take", "3h"),
        (1, "discard", "7h"),
    ]
    state = ThreeThirteenState.from_parts(
        rules=rules,
        seed=1,
        round_number=1,
        dealer=1,
        hands=hands,
        stock=sorted(rest.elements()),
        discard_pile=parse_cards("7h"),
        current_player=0,
        phase="draw",
        discard_history=[
            PileMove(player=player, kind=kind, card=parse_card(card))  # type: ignore[arg-type]
            for player, kind, card in moves
        ],
        turn=7,
    )
    legal = list(state.legal_actions())
    assert three_thirteen_moves(state.observation(0), legal) == [DRAW_STOCK]
    decision = make_bot("three-thirteen", "greedy").decide(
        state.observation(0), legal, random.Random(0)
    )
    assert decision.action == DRAW_STOCK
    assert decision.reason.text == (
        "draw from the stock: taking 7h back would only go round in circles"
    )


def test_longest_cycle_counts_turns_between_returns() -> None:
    assert longest_cycle([]) == 0
    assert longest_cycle(["a", "b"] * 75) == 149  # the first visit to the last


@pytest.mark.parametrize(
    ("game", "rules", "seeds"),
    [
        ("burraco", burraco.Rules(), (0, 1, 2)),
        (
            "three-thirteen",
            ThreeThirteenRules(players=2, first_round=1, last_round=4),
            (0, 1, 15),
        ),
    ],
)
@pytest.mark.parametrize(
    "spec", ["easy", "greedy", pytest.param("ismcts:iterations=30", marks=pytest.mark.slow)]
)
def test_bot_against_itself_never_cycles(
    game: str, rules: object, seeds: tuple[int, ...], spec: str
) -> None:
    """Before the fix greedy threw a card back in Burraco's seed 0 and Three-Thirteen's
    seed 15, and easy's slips in most games."""
    from rummykit.games.registry import GAMES

    for seed in seeds:
        bots: list[Bot] = [make_bot(game, spec) for _ in range(2)]
        watched = watch_game(GAMES[game], rules, bots, seed)
        assert watched.throwbacks == 0, (seed, watched.hands)
        assert watched.longest_cycle <= 3, (seed, watched.hands)
        assert watched.stalemates == 0, (seed, watched.hands)
