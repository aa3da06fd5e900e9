"""The conformance harness on both games: 500 seeded random playouts each, and 125 more
of Burraco for four (two partnerships), in blocks that the test processes share out."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rummykit import cards
from rummykit.games import burraco, three_thirteen
from tests.conformance.harness import Tally, playout

PLAYOUTS = 500
FOUR_PLAYER_PLAYOUTS = 125


def burraco_rules(rng: random.Random) -> burraco.Rules:
    return burraco.Rules(
        jokers=rng.choice((2, 4)),
        one_set_per_rank=rng.random() < 0.8,
        stalemate_turns=rng.choice((200, 60)),
    )


def burraco_four_rules(rng: random.Random) -> burraco.Rules:
    return burraco.Rules(
        players=4,
        jokers=rng.choice((2, 4)),
        one_set_per_rank=rng.random() < 0.8,
        stalemate_turns=rng.choice((200, 60)),
    )


def three_thirteen_rules(rng: random.Random) -> three_thirteen.Rules:
    round_number = rng.randint(1, 11)
    return three_thirteen.Rules(
        players=rng.randint(2, 4),
        jokers=rng.random() < 0.25,
        ace_high=rng.random() < 0.25,
        wild_only_melds=rng.random() < 0.25,
        first_round=round_number,
        last_round=round_number,
    )


def burraco_deck(rules: burraco.Rules) -> Counter[int]:
    return Counter(cards.burraco_deck(jokers=rules.jokers))


def three_thirteen_deck(rules: three_thirteen.Rules) -> Counter[int]:
    decks = 1 if rules.players == 2 else 2
    return Counter(cards.three_thirteen_deck(decks=decks, jokers_per_deck=2 * rules.jokers))


def run_playouts(game: Any, make_rules: Any, deck: Any, seeds: range) -> Tally:
    tally = Tally()
    pool: list[Any] = []
    for seed in seeds:
        rules = make_rules(random.Random(seed))
        playout(game, rules, seed, expected_deck=deck(rules), illegal_pool=pool, tally=tally)
    return tally


@pytest.mark.parametrize("block", range(10))
def test_burraco_conformance(block: int) -> None:
    per_block = PLAYOUTS // 10
    tally = run_playouts(
        burraco.GAME, burraco_rules, burraco_deck, range(block * per_block, (block + 1) * per_block)
    )
    assert tally.playouts == per_block
    assert tally.refused > 0 and tally.leak_checks > 0 and tally.determinized > 0
    assert tally.hidden_changed > 0, "shuffling hidden cards never changed anything"
    assert {"Meld", "Extend", "Discard", "DrawStock", "TakePile"} <= set(tally.action_kinds)


@pytest.mark.parametrize("block", range(5))
def test_burraco_four_players_conformance(block: int) -> None:
    per_block = FOUR_PLAYER_PLAYOUTS // 5
    first = 100_000 + block * per_block
    tally = run_playouts(
        burraco.GAME, burraco_four_rules, burraco_deck, range(first, first + per_block)
    )
    assert tally.playouts == per_block
    assert tally.refused > 0 and tally.leak_checks > 0 and tally.determinized > 0
    assert tally.hidden_changed > 0, "shuffling hidden cards never changed anything"
    assert {"Meld", "Extend", "Discard", "DrawStock", "TakePile"} <= set(tally.action_kinds)
    assert tally.refusal_codes["not_your_meld"] > 0, "no addition to the other team's meld"


@pytest.mark.parametrize("block", range(10))
def test_three_thirteen_conformance(block: int) -> None:
    per_block = PLAYOUTS // 10
    tally = run_playouts(
        three_thirteen.GAME,
        three_thirteen_rules,
        three_thirteen_deck,
        range(block * per_block, (block + 1) * per_block),
    )
    assert tally.playouts == per_block
    assert tally.refused > 0 and tally.leak_checks > 0 and tally.determinized > 0
    assert tally.hidden_changed > 0, "shuffling hidden cards never changed anything"
    assert {"Discard", "DrawStock", "TakeDiscard"} <= set(tally.action_kinds)


def test_whole_games_follow_the_harness_too() -> None:
    tally = Tally()
    pool: list[Any] = []
    for seed in range(3):
        rules = burraco.Rules(mode="target", target=505)
        playout(
            burraco.GAME,
            rules,
            seed,
            expected_deck=burraco_deck(rules),
            illegal_pool=pool,
            tally=tally,
            heavy_every=100,
        )
    for seed in range(2):
        four = burraco.Rules(players=4, mode="target", target=505)
        playout(
            burraco.GAME,
            four,
            seed,
            expected_deck=burraco_deck(four),
            illegal_pool=pool,
            tally=tally,
            heavy_every=100,
        )
    for seed in range(2):
        tt_rules = three_thirteen.Rules(players=3)
        playout(
            three_thirteen.GAME,
            tt_rules,
            seed,
            expected_deck=three_thirteen_deck(tt_rules),
            illegal_pool=pool,
            tally=tally,
            heavy_every=200,
        )
    assert tally.playouts == 7 and tally.hands_ended > 7
