"""Cards as small integers: encoding, the notation of the rule book, decks and points.

A card is an ``int``.  The 52 suited cards are ``suit * 13 + (rank - 1)`` with ranks
``1`` (ace) to ``13`` (king) and suits ``0..3`` in the order clubs, diamonds, hearts,
spades; the joker is ``52``.  Two copies of a card (two decks) are the same integer:
cards are named by face, never by physical copy.

Notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted for ``T``), suit
``c d h s``, joker ``Jk``.  Input is case-insensitive; output is canonical.

>>> format_card(parse_card("10H"))
'Th'
>>> [format_card(c) for c in parse_cards("as 2c jk")]
['As', '2c', 'Jk']

This module never does I/O and imports nothing outside the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

Card = int

JOKER: Final = 52
CARD_COUNT: Final = 53  # distinct faces: 52 suited cards and the joker

SUITS: Final = "cdhs"
RANKS: Final = "A23456789TJQK"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

ACE: Final = 1
KING: Final = 13


class CardError(ValueError):
    """A card name that is not in the notation (the message says which and why)."""


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1 = ace ... 13 = king) and ``suit`` (0..3, ``c d h s``).

    >>> format_card(make_card(12, 2))
    'Qh'
    """
    if not 1 <= rank <= KING or not 0 <= suit <= 3:
        raise CardError(f"no card of rank {rank} and suit {suit}")
    return suit * 13 + rank - 1


# Lookup tables are faster than arithmetic in the hot loops; the joker has rank 0, suit 4.
RANK_OF: Final[tuple[int, ...]] = (*tuple(c % 13 + 1 for c in range(52)), 0)
SUIT_OF: Final[tuple[int, ...]] = (*tuple(c // 13 for c in range(52)), 4)


def rank_of(card: Card) -> int:
    """Rank 1..13 of a suited card; 0 for the joker."""
    return RANK_OF[card]


def suit_of(card: Card) -> int:
    """Suit 0..3 of a suited card; 4 for the joker."""
    return SUIT_OF[card]


def is_joker(card: Card) -> bool:
    return card == JOKER


_NAMES: Final[tuple[str, ...]] = (*tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52)), "Jk")


def format_card(card: Card) -> str:
    """The canonical name of a card (``Th``, ``Jk``)."""
    if not 0 <= card < CARD_COUNT:
        raise CardError(f"{card!r} is not a card code (0..52)")
    return _NAMES[card]


def format_cards(cards: Iterable[Card]) -> str:
    """Names separated by spaces, in the given order."""
    return " ".join(format_card(c) for c in cards)


def _build_parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {"jk": JOKER}
    for card in range(52):
        rank_char = RANKS[card % 13].lower()
        suit_char = SUITS[card // 13]
        table[rank_char + suit_char] = card
        if rank_char == "t":
            table["10" + suit_char] = card
    return table


_PARSE: Final = _build_parse_table()


def parse_card(text: str) -> Card:
    """Parse one card name in the notation, case-insensitively.

    >>> parse_card("Jk") == JOKER
    True
    >>> parse_card("1h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.cards.CardError: '1h' is not a card: expected rank A,2-9,T (or 10),J,Q,K ...
    """
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card name")
    card = _PARSE.get(text.strip().lower())
    if card is None:
        raise CardError(
            f"{text!r} is not a card: expected rank A,2-9,T (or 10),J,Q,K and suit c,d,h,s, or Jk"
        )
    return card


def parse_cards(text: str | Sequence[str]) -> list[Card]:
    """Parse cards from a string (separated by spaces or commas) or a list of names."""
    names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(name) for name in names]


def sort_key(card: Card) -> tuple[int, int]:
    """Order for showing a hand: by suit (c d h s), then rank, jokers last."""
    return (SUIT_OF[card], RANK_OF[card])


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    """``cards`` in the order of :func:`sort_key`, which is card-code order (``suit * 13
    + rank - 1``, the joker 52 last): sorted by code, without a key call per card."""
    return sorted(cards)


# ---------------------------------------------------------------------------------------
# Decks


def standard_deck() -> list[Card]:
    """One 52-card deck in code order."""
    return list(range(52))


def burraco_deck(*, jokers: int = 2) -> list[Card]:
    """Two 52-card decks plus ``jokers`` jokers (2: 106 cards, 4: 108 cards)."""
    if jokers not in (2, 4):
        raise ValueError(f"Burraco is played with 2 or 4 jokers, not {jokers}")
    return standard_deck() * 2 + [JOKER] * jokers


def three_thirteen_deck(*, decks: int, jokers_per_deck: int = 0) -> list[Card]:
    """``decks`` standard decks (1 or 2), each with ``jokers_per_deck`` jokers."""
    if decks not in (1, 2):
        raise ValueError(f"Three-Thirteen uses 1 or 2 decks, not {decks}")
    return (standard_deck() + [JOKER] * jokers_per_deck) * decks


# ---------------------------------------------------------------------------------------
# Points


def _burraco_points(card: Card) -> int:
    if card == JOKER:
        return 30
    rank = RANK_OF[card]
    if rank == 2:
        return 20
    if rank == ACE:
        return 15
    return 10 if rank >= 8 else 5


BURRACO_POINTS: Final[tuple[int, ...]] = tuple(_burraco_points(c) for c in range(CARD_COUNT))
"""Burraco card points: joker 30, any 2 20, ace 15, 8..K 10, 3..7 5."""


def _deadwood_points(card: Card) -> int:
    if card == JOKER:
        return 15
    return min(RANK_OF[card], 10)


DEADWOOD_POINTS: Final[tuple[int, ...]] = tuple(_deadwood_points(c) for c in range(CARD_COUNT))
"""Three-Thirteen deadwood: ace 1, 2..10 face value, J Q K 10, joker 15."""
