"""The easy bot: greedy's move, or a random legal one at about the share it is told,
drawn from its own generator only (the same generator, the same game)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummykit.bots.easy import SLIP, EasyBot
from rummykit.bots.levels import make_bot
from rummykit.bots.reasons import Reason
from rummykit.games import burraco, three_thirteen
from rummykit.games.registry import game_named
from rummykit.sim.match import play_game


def _decisions(game: str, seed: int) -> list[tuple[Any, list[Any]]]:
    """The observations and legal actions of a game between two greedy bots, at every
    state with a choice."""
    state: Any = (
        burraco.State.new(burraco.Rules(), seed=seed)
        if game == "burraco"
        else three_thirteen.State.new(three_thirteen.Rules(last_round=3), seed=seed)
    )
    greedy = make_bot(game, "greedy")
    rng = random.Random(seed)
    seen: list[tuple[Any, list[Any]]] = []
    while state.current_player is not None and len(seen) < 400:
        legal = list(state.legal_actions())
        observation = state.observation(state.current_player)
        if len(legal) > 1:
            seen.append((observation, legal))
        state.apply(greedy.decide(observation, legal, rng).action)
    return seen


@pytest.mark.parametrize("game", ["burraco", "three-thirteen"])
def test_it_plays_greedys_move_but_about_half_of_its_decisions(game: str) -> None:
    greedy = make_bot(game, "greedy")
    easy = make_bot(game, "easy")
    assert isinstance(easy, EasyBot) and easy.name == "easy" and easy.slip == SLIP == 0.5
    slips = differing = total = 0
    for seed in range(3):
        for observation, legal in _decisions(game, seed):
            chosen = easy.decide(observation, legal, random.Random(total))
            assert chosen.action in legal
            if chosen.reason == Reason.of("random_move"):
                slips += 1
            elif chosen.action != greedy.decide(observation, legal, random.Random(0)).action:
                differing += 1
            total += 1
    assert total > 100
    assert differing == 0  # a move that is not a slip is greedy's
    assert 0.4 < slips / total < 0.6, (slips, total)


def test_the_same_generator_gives_the_same_game() -> None:
    game = game_named("three-thirteen")
    rules = three_thirteen.Rules(last_round=4)
    first = play_game(game, rules, [make_bot("three-thirteen", "easy")] * 2, seed=11)
    again = play_game(game, rules, [make_bot("three-thirteen", "easy")] * 2, seed=11)
    assert (first.totals, first.actions, first.decisions) == (
        again.totals,
        again.actions,
        again.decisions,
    )


def test_the_share_of_slips_is_checked() -> None:
    greedy = make_bot("burraco", "greedy")
    assert EasyBot(greedy, slip=0.0).slip == 0.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        EasyBot(greedy, slip=1.5)
    with pytest.raises(ValueError, match="no legal action"):
        EasyBot(greedy).decide(None, [], random.Random(0))
