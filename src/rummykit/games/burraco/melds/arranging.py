"""Arranging a Burraco meld: the :class:`Meld` value and :func:`arrange`.

A run is described by *places* ``1..14`` in its suit: place ``1`` is the low ace,
``2..13`` the ranks, ``14`` the high ace.  Among the legal arrangements of a multiset,
:func:`arrange` keeps the fewest wilds (a 2 stands at its own place whenever it can),
then the wild as high as it can stand (a wild at either end stands high if there is
room), then the lowest start (``A 2 ... K`` rather than ``2 ... K A``).  A meld on the
table may lie otherwise (:mod:`.extending`); :func:`_is_table_layout` says which other
layouts are legal, so that :meth:`Meld.from_json` can check one.

>>> from rummykit.cards import parse_cards
>>> arrange(parse_cards("7h 8h 9h 2c")).describe()
'7h 8h 9h 2c(=Th)'

This module knows nothing of turns or of the table; besides the standard library it
imports only the card tables and ``core.MeldError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.cards import (
    BURRACO_POINTS,
    CARD_COUNT,
    JOKER,
    RANK_OF,
    RANKS,
    SUIT_OF,
    Card,
    CardError,
    format_card,
    format_cards,
    parse_card,
)
from rummykit.games.core import MeldError

MIN_MELD: Final = 3
"""The fewest cards of any meld."""
MAX_SET: Final = 9
"""The most cards of a set: eight naturals and one wild."""
MAX_SET_NATURALS: Final = 8
HIGH_ACE: Final = 14
"""The place of the high ace in a run; also the most cards a run can hold."""
BURRACO_SIZE: Final = 7
"""A meld of this many cards or more is a burraco."""

_TWO: Final = 2
_WILD_FACES: Final = (JOKER, 1, 14, 27, 40)  # Jk 2c 2d 2h 2s


def _natural_at(suit: int, place: int) -> Card:
    """The natural card of ``suit`` at run place ``place`` (1 and 14 are the ace)."""
    return suit * 13 + (0 if place == HIGH_ACE else place - 1)


# _PLACE_CARDS[suit][place]: the natural card at each place 1..14 (-1 off the ends).
_PLACE_CARDS: Final[tuple[tuple[Card, ...], ...]] = tuple(
    tuple(_natural_at(suit, place) if 1 <= place <= HIGH_ACE else -1 for place in range(16))
    for suit in range(4)
)


def _is_wild_face(card: Card) -> bool:
    return card == JOKER or RANK_OF[card] == _TWO


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run as it lies on the table.

    ``cards``: a run from low to high with each wild at the place it stands for; a set
    with its naturals sorted and the wild last.  ``wild_index`` is the index in
    ``cards`` of the card used as a wild (``None`` if clean).  ``suit`` is a run's suit
    (``None`` for a set).  ``rank`` is a set's rank, or a run's lowest place
    (``1..14``; ``14`` is the high ace).

    Build melds with :func:`arrange`, :func:`extend` or :meth:`from_json`; the
    constructor itself checks nothing (it is used in hot loops).

    >>> from rummykit.cards import parse_cards
    >>> meld = arrange(parse_cards("Kd Jk Ks Kc"))
    >>> meld.describe(), meld.points, meld.clean
    ('Kc Kd Ks Jk(=K)', 60, False)
    """

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    wild_index: int | None
    suit: int | None
    rank: int

    @property
    def clean(self) -> bool:
        """True when no card is used as a wild (a 2 at its own place is natural)."""
        return self.wild_index is None

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def points(self) -> int:
        """The sum of the card points (joker 30, any 2 20, ace 15, 8..K 10, 3..7 5)."""
        return sum(BURRACO_POINTS[c] for c in self.cards)

    @property
    def is_burraco(self) -> bool:
        """Seven cards or more (clean when :attr:`clean`, else dirty)."""
        return len(self.cards) >= BURRACO_SIZE

    @property
    def gap_wild(self) -> bool:
        """Whether a run's wild fills a gap (not at either end): there it stays until its
        natural card replaces it (RULES.md 1.4)."""
        index = self.wild_index
        return self.kind == "run" and index is not None and 0 < index < len(self.cards) - 1

    @property
    def wild(self) -> Card | None:
        """The card used as a wild, if any."""
        return None if self.wild_index is None else self.cards[self.wild_index]

    @property
    def stands_for(self) -> Card | None:
        """The natural card a run's wild stands for (``None`` for a set or a clean meld).

        >>> from rummykit.cards import parse_cards, format_card
        >>> format_card(arrange(parse_cards("Qh Kh Jk")).stands_for)
        'Ah'
        """
        if self.kind != "run" or self.wild_index is None or self.suit is None:
            return None
        return _natural_at(self.suit, self.rank + self.wild_index)

    @property
    def high(self) -> int:
        """A run's highest place; a set's rank."""
        return self.rank + len(self.cards) - 1 if self.kind == "run" else self.rank

    def describe(self) -> str:
        """The cards in order, the wild followed by what it stands for.

        >>> from rummykit.cards import parse_cards
        >>> arrange(parse_cards("2h 3h 4h 2c")).describe()
        '2h 3h 4h 2c(=5h)'
        """
        names = [format_card(c) for c in self.cards]
        if self.wild_index is not None:
            stands_for = self.stands_for
            meaning = RANKS[self.rank - 1] if stands_for is None else format_card(stands_for)
            names[self.wild_index] += f"(={meaning})"
        return " ".join(names)

    def __str__(self) -> str:
        return self.describe()

    def to_json(self) -> dict[str, Any]:
        """The arrangement with card names; :meth:`from_json` reads it back."""
        return {
            "kind": self.kind,
            "cards": [format_card(c) for c in self.cards],
            "wild_index": self.wild_index,
            "suit": self.suit,
            "rank": self.rank,
        }

    @staticmethod
    def from_json(data: object) -> Meld:
        """Read :meth:`to_json` back, treating the data as untrusted.

        With ``cards`` alone, the meld is ``arrange`` of them.  With every field, the
        fields must describe a meld :func:`extend` can leave on the table: the
        arrangement :func:`arrange` gives, or another legal layout of a run that the
        table procedure reaches (the ace high in ``2 ... K A``, a wild pinned in a gap).
        Anything else raises :class:`~rummykit.games.core.MeldError` saying what is wrong.
        """
        if not isinstance(data, Mapping):
            raise MeldError("a meld must be a JSON object")
        unknown = sorted(set(data) - {"kind", "cards", "wild_index", "suit", "rank"})
        if unknown:
            raise MeldError(f"a meld has no field {unknown[0]!r}")
        names = data.get("cards")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise MeldError("a meld's cards must be a list of card names")
        try:
            cards = [parse_card(name) for name in names]
        except CardError as error:
            raise MeldError(str(error)) from None
        meld = arrange(cards)
        if set(data) == {"cards"}:
            return meld
        missing = sorted({"kind", "wild_index", "suit", "rank"} - set(data))
        if missing:
            raise MeldError(f"a meld with a layout needs the field {missing[0]!r}")
        kind, wild_index, suit, rank = (data[k] for k in ("kind", "wild_index", "suit", "rank"))
        if kind not in ("set", "run") or any(
            value is not None and type(value) is not int for value in (wild_index, suit)
        ):
            raise MeldError(f"{data!r} is not a meld layout")
        if type(rank) is not int:
            raise MeldError(f"a meld's rank must be a whole number, not {rank!r}")
        laid = Meld(kind, tuple(cards), wild_index, suit, rank)
        if laid != meld and not _is_table_layout(laid):
            raise MeldError(f"these cards lie on the table as {meld.describe()}")
        return laid


# ---------------------------------------------------------------------------------------
# Checking input


def _checked(cards: object, what: str) -> tuple[Card, ...]:
    """``cards`` as a tuple of card codes, or a :class:`MeldError` saying what is wrong."""
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        raise MeldError(f"{what} must be a sequence of cards, not {cards!r}")
    result = tuple(cards)
    for card in result:
        if type(card) is not int or not 0 <= card < CARD_COUNT:
            raise MeldError(f"{card!r} is not a card code (0..52)")
    return result


# ---------------------------------------------------------------------------------------
# Arranging a multiset


def _arrange_set(cards: tuple[Card, ...], rank: int) -> Meld | None:
    naturals = sorted(c for c in cards if c != JOKER and RANK_OF[c] == rank)
    wilds = [c for c in cards if c == JOKER or RANK_OF[c] == _TWO]
    if len(naturals) + len(wilds) != len(cards):
        return None
    if len(wilds) > 1 or len(naturals) > MAX_SET_NATURALS or len(cards) > MAX_SET:
        return None
    if len(wilds) == 1:
        return Meld("set", (*naturals, wilds[0]), len(naturals), None, rank)
    return Meld("set", tuple(naturals), None, None, rank)


def _arrange_run(cards: tuple[Card, ...], suit: int) -> Meld | None:
    """The table's arrangement of ``cards`` as a run of ``suit``, or ``None``."""
    suit_two = suit * 13 + 1
    places = 0  # bits 3..13 of the naturals other than aces and 2s
    aces = 0
    twos = 0  # 2s of the suit
    others: list[Card] = []  # jokers and 2s of other suits: always wild
    for card in cards:
        if card == suit_two:
            twos += 1
        elif card == JOKER or RANK_OF[card] == _TWO:
            others.append(card)
        elif SUIT_OF[card] != suit:
            return None
        else:
            rank = RANK_OF[card]
            if rank == 1:
                aces += 1
            else:
                bit = 1 << rank
                if places & bit:
                    return None
                places |= bit
    if aces > 1 or len(others) > 1:
        return None
    best: tuple[int, int, int] | None = None
    best_layout = (0, 0, 0, 0)  # lo, hi, wild place (0: none), natural 2 used
    for natural_two in (1, 0) if twos else (0,):
        wild_count = len(others) + twos - natural_two
        if wild_count > 1:
            continue
        base = places | (4 if natural_two else 0)
        for ace_place in (1, HIGH_ACE) if aces else (0,):
            occupied = base | (1 << ace_place) if ace_place else base
            lo = (occupied & -occupied).bit_length() - 1
            hi = occupied.bit_length() - 1
            holes = hi - lo + 1 - occupied.bit_count()
            if holes > wild_count:
                continue
            if wild_count == 0:
                wild_place = 0
                key = (0, 0, lo)
            else:
                if holes:
                    wild_place = (((1 << (hi + 1)) - (1 << lo)) & ~occupied).bit_length() - 1
                elif hi < HIGH_ACE:
                    wild_place = hi + 1
                else:
                    wild_place = lo - 1
                key = (1, -wild_place, min(lo, wild_place))
            if best is None or key < best:
                best = key
                best_layout = (lo, hi, wild_place, natural_two)
    if best is None:
        return None
    lo, hi, wild_place, natural_two = best_layout
    if wild_place:
        wild_card = others[0] if others else suit_two
        lo = min(lo, wild_place)
        hi = max(hi, wild_place)
    row = _PLACE_CARDS[suit]
    arranged = [row[place] for place in range(lo, hi + 1)]
    if wild_place:
        arranged[wild_place - lo] = wild_card
        return Meld("run", tuple(arranged), wild_place - lo, suit, lo)
    return Meld("run", tuple(arranged), None, suit, lo)


def _arrange(cards: tuple[Card, ...]) -> Meld | None:
    """The meld of ``cards`` (any order) or ``None``; no input checks, no reasons."""
    if len(cards) < MIN_MELD:
        return None
    rank = 0
    suit = -1
    same_rank = True
    same_suit = True
    naturals = 0
    for card in cards:
        if card == JOKER or RANK_OF[card] == _TWO:
            continue
        naturals += 1
        if rank == 0:
            rank = RANK_OF[card]
            suit = SUIT_OF[card]
        else:
            same_rank = same_rank and RANK_OF[card] == rank
            same_suit = same_suit and SUIT_OF[card] == suit
    if naturals == 0:
        # Only 2s and jokers: at most one 2 is natural, so at least two are wild.
        return None
    if same_rank and naturals >= 2:
        return _arrange_set(cards, rank)
    if same_suit:
        return _arrange_run(cards, suit)
    return None


def why_not(cards: tuple[Card, ...]) -> MeldError:
    """Why ``cards`` do not form a meld (slow; only for errors): in English, and as a
    code (``why``) with the cards it names (``detail``)."""

    def said(why: str, text: str, detail: Sequence[Card] = ()) -> MeldError:
        return MeldError(text, why, tuple(format_card(c) for c in detail))

    if len(cards) < MIN_MELD:
        return said("too_few", f"a meld needs at least {MIN_MELD} cards, not {len(cards)}")
    naturals = [c for c in cards if not _is_wild_face(c)]
    wilds = [c for c in cards if _is_wild_face(c)]
    if not naturals:
        if any(c != JOKER for c in cards) and all(RANK_OF[c] == _TWO for c in cards):
            return said(
                "twos_only", "2s cannot form a set, and a run of them would hold more than one wild"
            )
        return said("no_natural", "a meld needs a natural card and may hold only one wild")
    ranks = {RANK_OF[c] for c in naturals}
    suits = {SUIT_OF[c] for c in naturals}
    if len(ranks) == 1 and len(naturals) >= 2:
        if len(wilds) > 1:
            return said(
                "set_wilds", f"a set may hold only one wild, not {format_cards(wilds)}", wilds
            )
        if len(naturals) > MAX_SET_NATURALS:
            return said("set_size", f"a set holds at most {MAX_SET_NATURALS} natural cards")
        return said("set_size", f"a set holds at most {MAX_SET} cards")  # pragma: no cover
    if len(suits) > 1:
        if len(ranks) == 1:  # pragma: no cover - defensive
            return said("other", "a set needs two natural cards of its rank")
        shown = sorted(naturals)
        return said(
            "mixed_suits",
            f"cards of different ranks form a run only in one suit, not {format_cards(shown)}",
            shown,
        )
    suit = suits.pop()
    if sum(1 for c in naturals if RANK_OF[c] == 1) > 1:
        return said("two_aces", "a run cannot hold two natural aces")
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return said("twice", f"a run cannot hold {format_card(card)} twice", (card,))
        seen.add(card)
    suit_twos = [c for c in wilds if c == suit * 13 + 1]
    others = [c for c in wilds if c != suit * 13 + 1]
    if len(others) > 1 or len(others) + len(suit_twos) > 2:
        return said("run_wilds", f"a run may hold only one wild, not {format_cards(wilds)}", wilds)
    return said(
        "gap", f"{format_cards(cards)} are not consecutive cards of one suit, even with a wild"
    )


def arrange(cards: Sequence[Card]) -> Meld:
    """The meld formed by the multiset ``cards``, arranged as the rules put it.

    Raises :class:`~rummykit.games.core.MeldError` with the reason when the cards are
    no legal meld.

    >>> from rummykit.cards import parse_cards
    >>> arrange(parse_cards("2c 2h 4h 5h 6h")).describe()
    '2h 2c(=3h) 4h 5h 6h'
    >>> arrange(parse_cards("5h 6h"))
    Traceback (most recent call last):
    ...
    rummykit.games.core.MeldError: a meld needs at least 3 cards, not 2
    """
    checked = _checked(cards, "a meld")
    meld = _arrange(checked)
    if meld is None:
        raise why_not(checked)
    return meld


# ---------------------------------------------------------------------------------------
# Layouts a meld on the table may have


def _is_table_layout(meld: Meld) -> bool:
    """Whether ``meld`` is a run layout that :func:`extend` can leave on the table.

    Each natural at its place, at most one wild (not at its own place), never two
    natural aces, no more wilds than the cards need, and a wild at the low end only when
    there is no room above (checked field by field; sets have one layout only).  A wild
    inside the run stays there until it is replaced, so it may outlast the need for it:
    ``Jd Qd 2d(=Kd) Ad`` grown down to ``3d`` could lie clean from ``Ad`` to ``Qd``.
    """
    cards, index, suit, lo = meld.cards, meld.wild_index, meld.suit, meld.rank
    if meld.kind != "run" or type(suit) is not int or type(lo) is not int:
        return False
    hi = lo + len(cards) - 1
    if not 0 <= suit <= 3 or len(cards) < MIN_MELD or lo < 1 or hi > HIGH_ACE:
        return False
    if index is not None and (type(index) is not int or not 0 <= index < len(cards)):
        return False
    row = _PLACE_CARDS[suit]
    for offset, card in enumerate(cards):
        if (offset == index) != (card != row[lo + offset]):
            return False  # a natural off its place, or a "wild" at its own place
    if index is not None and not _is_wild_face(cards[index]):
        return False
    if lo == 1 and hi == HIGH_ACE and index not in (0, len(cards) - 1):
        return False  # two natural aces
    if index == 0 and hi < HIGH_ACE:
        return False  # a wild stands high when there is room
    canonical = _arrange(cards)
    return canonical is not None and (meld.gap_wild or canonical.clean == (index is None))
