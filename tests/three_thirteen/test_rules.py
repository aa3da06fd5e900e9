"""Rules: defaults, validation, decks and the JSON form."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import JOKER
from rummykit.games.core import rules_from_json, rules_to_json
from rummykit.games.three_thirteen import Rules
from rummykit.games.three_thirteen.rules import hand_size, wild_rank


def test_defaults_are_the_rule_book():
    rules = Rules()
    assert rules_to_json(rules) == {
        "players": 2,
        "jokers": False,
        "ace_high": False,
        "wild_only_melds": False,
        "first_round": 1,
        "last_round": 11,
        "stalemate_turns": 200,
    }
    assert list(rules.rounds) == list(range(1, 12))


@pytest.mark.parametrize(
    ("players", "jokers", "size", "copies"),
    [
        (2, False, 52, 1),
        (3, False, 104, 2),
        (4, False, 104, 2),
        (2, True, 54, 1),
        (4, True, 108, 2),
    ],
)
def test_deck(players, jokers, size, copies):
    rules = Rules(players=players, jokers=jokers)
    deck = rules.deck()
    assert len(deck) == size == rules.deck_size
    counts = Counter(deck)
    assert all(counts[card] == copies for card in range(52))
    assert counts[JOKER] == (2 * copies if jokers else 0)


def test_round_sizes_and_wild_ranks():
    assert [hand_size(r) for r in range(1, 12)] == list(range(3, 14))
    assert [wild_rank(r) for r in range(1, 12)] == list(range(3, 14))


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 1}, "2 to 4 players"),
        ({"players": 5}, "2 to 4 players"),
        ({"players": True}, "2 to 4 players"),
        ({"players": "2"}, "2 to 4 players"),
        ({"jokers": 1}, "jokers"),
        ({"ace_high": "yes"}, "ace_high"),
        ({"wild_only_melds": None}, "wild_only_melds"),
        ({"first_round": 0}, "first_round"),
        ({"last_round": 12}, "last_round"),
        ({"first_round": 5, "last_round": 4}, "comes after"),
        ({"first_round": 2.0}, "first_round"),
    ],
)
def test_bad_rules_are_refused_with_a_message(options, fragment):
    with pytest.raises(ValueError, match=fragment):
        Rules(**options)


def test_rules_are_keyword_only_and_frozen():
    with pytest.raises(TypeError):
        Rules(3)  # type: ignore[call-arg]
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.players = 3  # type: ignore[misc]


@given(
    players=st.integers(2, 4),
    jokers=st.booleans(),
    ace_high=st.booleans(),
    wild_only_melds=st.booleans(),
    rounds=st.tuples(st.integers(1, 11), st.integers(1, 11)).map(sorted),
)
def test_rules_json_round_trip(players, jokers, ace_high, wild_only_melds, rounds):
    rules = Rules(
        players=players,
        jokers=jokers,
        ace_high=ace_high,
        wild_only_melds=wild_only_melds,
        first_round=rounds[0],
        last_round=rounds[1],
    )
    assert rules_from_json(Rules, rules_to_json(rules)) == rules


def test_rules_json_refuses_unknown_options_and_bad_types():
    with pytest.raises(ValueError, match="unknown rule option"):
        rules_from_json(Rules, {"players": 2, "pozzetti": 2})
    with pytest.raises(ValueError, match="players"):
        rules_from_json(Rules, {"players": "two"})
    with pytest.raises(ValueError, match="2 to 4"):
        rules_from_json(Rules, {"players": 7})
