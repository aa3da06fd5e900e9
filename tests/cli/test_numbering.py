"""Meld numbers as each player sees them, and the move list built from them."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import parse_cards, sort_key
from rummykit.cli.moves import flow, grouped_moves
from rummykit.cli.numbering import (
    MeldNumbers,
    engine_to_shown,
    numbers_for,
    typed_to_engine,
)
from rummykit.games import burraco
from rummykit.games.burraco.actions import Extend
from rummykit.games.core import NotationError


def test_each_player_numbers_their_own_melds_from_one() -> None:
    numbers = MeldNumbers.of([(0, 1), (1, 0), (2, 1), (3, 0), (4, 0)])
    assert [numbers.number(i) for i in range(5)] == [1, 1, 2, 2, 3]
    assert numbers.owned_by(0) == {1: 1, 2: 3, 3: 4}
    typed = Extend(2, tuple(parse_cards("5h")))
    assert typed_to_engine(typed, numbers, 0) == Extend(3, typed.cards)
    assert typed_to_engine(typed, numbers, 1) == Extend(2, typed.cards)
    assert engine_to_shown(Extend(4, typed.cards), numbers) == Extend(3, typed.cards)
    with pytest.raises(NotationError, match="numbered 1 to 3"):
        typed_to_engine(Extend(4, typed.cards), numbers, 0)
    with pytest.raises(NotationError, match="no meld on the table"):
        typed_to_engine(typed, MeldNumbers.of([]), 0)


def played_until_both_melded(seed: int) -> burraco.State:
    state = burraco.State.new(burraco.Rules(), seed)
    rng = random.Random(seed)
    while not state.game_over:
        owners = {m.owner for m in state.observation(0).melds}
        if owners == {0, 1} and state.current_player == 0 and state.phase == "play":
            return state
        actions = list(state.legal_actions())
        melds = [a for a in actions if isinstance(a, burraco.actions.Meld)]
        state.apply(rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(actions))
    raise AssertionError("no position with melds of both players")


@pytest.mark.parametrize("seed", range(4))
def test_the_move_list_uses_the_numbers_shown_and_each_typed_move_is_legal(seed: int) -> None:
    state = played_until_both_melded(seed)
    observation = state.observation(0)
    numbers = numbers_for(observation)
    groups = grouped_moves("burraco", state.legal_actions(), numbers)
    titles = [g.title for g in groups]
    assert titles == sorted(
        titles, key=["Draw", "Lay a new meld", "Add to your meld", "Discard"].index
    )
    own = numbers.owned_by(0)
    for group in groups:
        for text in group.moves:
            action = typed_to_engine(burraco.GAME.parse_action(text), numbers, 0)
            assert state.check(action) is None, text
            if text.startswith("extend"):
                assert int(text.split()[1]) in own
    discards = next(g for g in groups if g.title == "Discard").moves
    cards = [burraco.GAME.parse_action(text).card for text in discards]  # type: ignore[union-attr]
    assert [sort_key(c) for c in cards] == sorted(sort_key(c) for c in cards)


def test_flow_never_breaks_a_move() -> None:
    moves = [f"meld {' '.join(['3h'] * n)}" for n in range(3, 12)]
    for width in (20, 40, 80):
        lines = flow(moves, width)
        assert [item for line in lines for item in line.split("   ")] == moves
        assert all(len(line) <= width or line in moves for line in lines)
