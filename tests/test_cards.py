"""Card encoding, notation, decks and points."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit import cards
from rummykit.cards import (
    BURRACO_POINTS,
    DEADWOOD_POINTS,
    JOKER,
    CardError,
    format_card,
    make_card,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Th", "Th"),
        ("10h", "Th"),
        ("th", "Th"),
        ("TH", "Th"),
        ("10H", "Th"),
        ("jk", "Jk"),
        ("JK", "Jk"),
        ("Jk", "Jk"),
        ("as", "As"),
        ("Jc", "Jc"),
        ("qD", "Qd"),
        ("2s", "2s"),
    ],
)
def test_notation_is_case_insensitive_and_canonical(text: str, canonical: str) -> None:
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["", "1h", "11h", "Tx", "hT", "Jkk", "joker", "0c", "Z", "10"])
def test_bad_names_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(bad)


def test_non_string_is_refused() -> None:
    with pytest.raises(CardError):
        parse_card(7)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=52))
def test_every_code_round_trips(card: int) -> None:
    assert parse_card(format_card(card)) == card


def test_encoding_is_suit_major() -> None:
    assert make_card(1, 0) == 0  # Ac
    assert format_card(make_card(13, 3)) == "Ks"
    assert cards.rank_of(parse_card("Td")) == 10
    assert cards.suit_of(parse_card("Td")) == 1
    assert cards.rank_of(JOKER) == 0 and cards.suit_of(JOKER) == 4
    with pytest.raises(CardError):
        make_card(14, 0)


def test_parse_cards_accepts_strings_and_lists() -> None:
    assert parse_cards("Ah, 2h 3h") == parse_cards(["ah", "2H", "3h"])


def test_the_showing_order_is_card_code_order() -> None:
    assert sorted(range(cards.CARD_COUNT), key=cards.sort_key) == list(range(cards.CARD_COUNT))


def test_sorted_cards_groups_by_suit_then_rank_jokers_last() -> None:
    hand = parse_cards("Jk Kh 2c Ah Tc")
    assert cards.format_cards(cards.sorted_cards(hand)) == "2c Tc Ah Kh Jk"


def test_decks() -> None:
    assert len(cards.burraco_deck()) == 106
    assert len(cards.burraco_deck(jokers=4)) == 108
    assert Counter(cards.burraco_deck())[parse_card("7h")] == 2
    assert len(cards.three_thirteen_deck(decks=1)) == 52
    assert len(cards.three_thirteen_deck(decks=2)) == 104
    assert Counter(cards.three_thirteen_deck(decks=2, jokers_per_deck=2))[JOKER] == 4
    with pytest.raises(ValueError):
        cards.burraco_deck(jokers=3)
    with pytest.raises(ValueError):
        cards.three_thirteen_deck(decks=3)


def test_burraco_points_follow_the_rule_book() -> None:
    # RULES.md 1.1: joker 30, any 2 20, ace 15, 8..K 10, 3..7 5; the deck totals 1,020.
    assert [BURRACO_POINTS[parse_card(n)] for n in ["Jk", "2h", "Ah", "8c", "Ks", "3d", "7s"]] == [
        30,
        20,
        15,
        10,
        10,
        5,
        5,
    ]
    assert sum(BURRACO_POINTS[c] for c in cards.burraco_deck()) == 1020


def test_deadwood_points_follow_the_rule_book() -> None:
    # RULES.md 2.4: ace 1, 2..10 face value, J Q K 10; joker 15 (variant).
    names = ["Ah", "2h", "9c", "Td", "Js", "Qh", "Kc", "Jk"]
    assert [DEADWOOD_POINTS[parse_card(n)] for n in names] == [1, 2, 9, 10, 10, 10, 10, 15]
