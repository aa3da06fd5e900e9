"""The text of the table: every template agrees with its number and person.

Each line of both games' text is rendered for the player seeing it and for another
seat, with every count at 0, 1 and 2 (cards in a hand, the stock, the pile, pozzetti
left, last turns) and every wild rank, and read for disagreements (``1 cards``,
``2 card``, ``You has``, ``Player 1 have``, ``As are wild``); some lines are also
checked word for word.
"""

from __future__ import annotations

import dataclasses
import itertools
import re

from rummykit.cards import parse_cards
from rummykit.envs.describe import burraco_text, count, three_thirteen_text
from rummykit.games import burraco, three_thirteen

NOUNS = "card|point|pozzetto|last turn"
DISAGREEMENTS = [
    re.compile(r"\b1 (cards|points|pozzetti|last turns)\b"),
    re.compile(rf"(?<![\d.])(0|[2-9]|\d\d+) ({NOUNS})\b"),
    re.compile(r"\bYou (has|is|was)\b"),
    re.compile(r"\b[Pp]layer \d+ (have|are|were)\b"),
    re.compile(r"\b[A2-9TJQK]s are wild\b"),
]


def disagreements(text: str) -> list[str]:
    return [line for line in text.splitlines() for bad in DISAGREEMENTS if bad.search(line)]


def test_count_agrees_with_its_number() -> None:
    assert [count(n, "card") for n in (0, 1, 2, 11)] == ["0 cards", "1 card", "2 cards", "11 cards"]
    assert count(1, "pozzetto", "pozzetti") == "1 pozzetto"
    assert count(2, "pozzetto", "pozzetti") == "2 pozzetti"


def test_the_checker_finds_what_it_looks_for() -> None:
    bad = (
        "You has taken a pozzetto; 1 cards in hand.\nPlayer 1 have 2 card.\nAs are wild.\n"
        "Stock: 3 card; 1 pozzetti left.\nYou is to draw."
    )
    assert len(disagreements(bad)) == 8  # a line once for each thing wrong in it
    assert not disagreements("You have 1 card; player 1 has 0 cards, 2 pozzetti and 1 point.")


def burraco_observations() -> list[burraco.Observation]:
    """Every player as the viewer, with each count at 0, 1 and 2 and either player to
    move, from the observations of a hand in play."""
    state = burraco.State.new(burraco.Rules(), 5)
    for _ in range(4):  # a few turns, so that there are melds and a pile history
        state.apply(next(a for a in state.legal_actions() if isinstance(a, burraco.DrawStock)))
        melds = [a for a in state.legal_actions() if isinstance(a, burraco.Meld)]
        if melds:
            state.apply(melds[0])
        state.apply(next(a for a in state.legal_actions() if isinstance(a, burraco.Discard)))
    observations = []
    for player, number, current, took in itertools.product((0, 1), (0, 1, 2), (0, 1), (0, 1)):
        base = state.observation(player)
        observations.append(
            dataclasses.replace(
                base,
                current_player=current,
                hand=tuple(parse_cards("5h Kc")[:number]),
                hand_sizes=(number, 2 - number),
                stock_count=number,
                discard_pile=tuple(parse_cards("7d 8d")[:number]),
                pozzetti_left=(0, 1)[:number],
                took_pozzetto=(bool(took), not took),
            )
        )
    return observations


def test_burraco_text_agrees_for_every_person_and_number() -> None:
    texts = [burraco_text(observation) for observation in burraco_observations()]
    assert len(texts) == 24
    for text in texts:
        assert not disagreements(text), text
    lines = {line for text in texts for line in text.splitlines()}
    for expected in [
        "Your hand (1 card): 5h",
        "Your hand (0 cards): none",
        "Your hand (2 cards): Kc 5h",
        "Stock: 1 card; 1 pozzetto left.",
        "Stock: 0 cards; 0 pozzetti left.",
        "Stock: 2 cards; 2 pozzetti left.",
        "Discard pile: 7d (top: 7d; 1 card)",
        "Discard pile: 7d 8d (top: 8d; 2 cards)",
        "You have taken a pozzetto; 1 card in hand.",
        "You have not taken a pozzetto; 0 cards in hand.",
        "Player 1 has taken a pozzetto; 1 card in hand.",
        "Player 0 has not taken a pozzetto; 2 cards in hand.",
        "You are to draw (draw from the stock, or take the whole discard pile).",
        "Player 1 is to draw (draw from the stock, or take the whole discard pile).",
    ]:
        assert expected in lines, expected
    assert any(
        re.search(r"\((run|set), (clean|dirty)(, burraco)?, \d+ points\)", line) for line in lines
    )


def three_thirteen_observations() -> list[three_thirteen.Observation]:
    """Every seat of three as the viewer, each count at 0, 1 and 2, every wild rank,
    someone out or not, from an observation of a round in play."""
    state = three_thirteen.State.new(three_thirteen.Rules(players=3), 4)
    observations = []
    for player, number, went_out, wild in itertools.product(
        (0, 1, 2), (0, 1, 2), (None, 0, 1), range(1, 14)
    ):
        base = state.observation(player)
        observations.append(
            dataclasses.replace(
                base,
                wild_rank=wild,
                hand=tuple(parse_cards("5h Kc")[:number]),
                hand_sizes=(number, number, number),
                stock_count=number,
                discard_pile=tuple(parse_cards("7d 8d")[:number]),
                known_cards=tuple(tuple(parse_cards("Qs")) for _ in range(3)),
                went_out=went_out,
                last_turns_remaining=number,
                reshuffled=bool(number % 2),
            )
        )
    return observations


def test_three_thirteen_text_agrees_for_every_person_and_number() -> None:
    texts = [three_thirteen_text(observation) for observation in three_thirteen_observations()]
    for text in texts:
        assert not disagreements(text), text
    lines = {line for text in texts for line in text.splitlines()}
    for expected in [
        "Your hand (1 card): 5h",
        "Stock: 1 card (the round's one reshuffle is used).",
        "Stock: 2 cards.",
        "Player 1: 1 card, still holds Qs (taken from the pile).",
        "Player 2: 0 cards, still holds Qs (taken from the pile).",
        "You went out with no melds; 1 last turn left.",
        "Player 1 went out with no melds; 2 last turns left.",
    ]:
        assert expected in lines, expected
    wild_words = {re.search(r"(\w+) are wild", text).group(1) for text in texts}  # type: ignore[union-attr]
    assert wild_words == {
        "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
        "eights", "nines", "tens", "jacks", "queens", "kings",
    }  # fmt: skip
