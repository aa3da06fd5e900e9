"""The conformance harness with every bot at every seat, on both games.

Besides the harness's own checks on every game, each bot decision is checked: the
action is one of the legal ones, the reason is one line made of known phrases, each
with exactly the parameters its English template names; and every few decisions the
bot is asked again, with the same seed, about a real state whose hidden cards were
shuffled (the same observation, another state): it must give the same decision, which
it could not if it saw the state rather than the observation.  ``ismcts`` searches a
fixed number of iterations so that it is deterministic given its seed.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from rummykit import cards
from rummykit.bots.base import Decision
from rummykit.bots.levels import make_bot
from rummykit.bots.reasons import PHRASES
from rummykit.games import burraco, three_thirteen
from tests.conformance.harness import Chooser, Tally, playout

SPECS = ("random", "greedy", "ismcts:iterations=12")
"""Every level; the search with an iteration budget."""
RECHECK_EVERY = 7
"""Decisions between two checks on a shuffled twin of the state."""


class BotSeats:
    """A :data:`Chooser` that asks the bot of the seat to move and checks its answers."""

    def __init__(self, game: str, spec: str, players: int, seed: int) -> None:
        self.bots = [make_bot(game, spec) for _ in range(players)]
        self.seed = seed
        self.decisions = 0
        self.rechecked = 0
        self.hidden_changed = 0

    def __call__(self, state: Any, actions: list[Any], step: int) -> Any:
        player = state.current_player
        assert isinstance(player, int)
        bot = self.bots[player]
        observation = state.observation(player)
        decision_seed = self.seed * 100_003 + step
        decision = bot.decide(observation, actions, random.Random(decision_seed))
        assert isinstance(decision, Decision)
        assert decision.action in actions, f"{bot.name} chose an illegal {decision.action!r}"
        assert decision.reason.text and "\n" not in decision.reason.text
        for phrase in decision.reason.phrases:
            wanted = set(re.findall(r"\{(\w+)\}", PHRASES[phrase.code]))
            assert {name for name, _ in phrase.params} == wanted, phrase
        assert json.loads(json.dumps(decision.reason.to_json())) == decision.reason.to_json()
        self.decisions += 1
        if self.decisions % RECHECK_EVERY == 0:
            twin = state.clone()
            twin.shuffle_hidden(player, decision_seed)
            assert twin.observation(player) == observation
            self.hidden_changed += twin.locations() != state.locations()
            again = bot.decide(
                twin.observation(player), list(twin.legal_actions()), random.Random(decision_seed)
            )
            assert again == decision, f"{bot.name} decided otherwise on the same observation"
            self.rechecked += 1
        return decision.action


def play(game: Any, name: str, rules: Any, deck: Counter[int], spec: str, seed: int) -> BotSeats:
    seats = BotSeats(name, spec, game.new_state(rules, seed).num_players, seed)
    chooser: Chooser = seats
    tally = Tally()
    playout(game, rules, seed, expected_deck=deck, illegal_pool=[], tally=tally, choose=chooser)
    assert tally.playouts == 1
    return seats


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_burraco_hands(spec: str, seed: int) -> None:
    rules = burraco.Rules(jokers=2 + 2 * (seed % 2))
    deck = Counter(cards.burraco_deck(jokers=rules.jokers))
    seats = play(burraco.GAME, "burraco", rules, deck, spec, seed)
    assert seats.decisions > 20 and seats.rechecked > 2 and seats.hidden_changed > 0


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize(
    ("players", "round_number", "seed"), [(2, 3, 1), (3, 7, 2), (4, 11, 3), (2, 9, 4)]
)
def test_bots_play_three_thirteen_rounds(
    spec: str, players: int, round_number: int, seed: int
) -> None:
    rules = three_thirteen.Rules(
        players=players, jokers=seed % 2 == 0, first_round=round_number, last_round=round_number
    )
    decks = 1 if players == 2 else 2
    deck = Counter(cards.three_thirteen_deck(decks=decks, jokers_per_deck=2 * rules.jokers))
    seats = play(three_thirteen.GAME, "three-thirteen", rules, deck, spec, seed)
    assert seats.decisions > 5 and seats.rechecked > 0 and seats.hidden_changed > 0
