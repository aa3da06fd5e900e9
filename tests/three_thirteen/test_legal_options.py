"""``State.legal_options`` and ``legal_actions`` (built from it) against ``check``.

``check`` decides legality on its own (the phase, the card in hand, the going-out
search for ``GoOut``), so on every position of seeded random games, two to four
players, the actions it accepts among all 108 must be exactly those listed, once each
and in the documented order, and the options must name the same cards.
"""

from __future__ import annotations

import random

import pytest

from rummykit.cards import CARD_COUNT
from rummykit.games.three_thirteen import Rules, State
from rummykit.games.three_thirteen.actions import (
    DISCARDS,
    DRAW_STOCK,
    GO_OUTS,
    TAKE_DISCARD,
    LegalOptions,
)

EVERY_ACTION = (DRAW_STOCK, TAKE_DISCARD, *DISCARDS, *GO_OUTS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_listed_actions_are_those_check_accepts(players: int) -> None:
    rng = random.Random(players)
    positions = 0
    for seed in range(3):
        state = State.new(Rules(players=players), seed)
        while True:
            listed = list(state.legal_actions())
            accepted = [action for action in EVERY_ACTION if state.check(action) is None]
            assert listed == accepted  # EVERY_ACTION is in the listing's order
            options = state.legal_options()
            assert isinstance(options, LegalOptions)
            assert options.draw_stock == (DRAW_STOCK in listed)
            assert options.take_discard == (TAKE_DISCARD in listed)
            assert options.discards == [a.card for a in listed if a in DISCARDS]
            assert list(options.going_out) == [a.card for a in listed if a in GO_OUTS]
            assert all(0 <= card < CARD_COUNT for card in options.discards)
            positions += 1
            if state.game_over:
                break
            state.apply(rng.choice(listed))
    assert positions > 1000


def test_a_finished_game_has_no_options() -> None:
    state = State.new(Rules(), 1)
    rng = random.Random(1)
    while not state.game_over:
        state.apply(rng.choice(list(state.legal_actions())))
    assert state.legal_options() == LegalOptions(False, False, [], ())
    assert list(state.legal_actions()) == []
