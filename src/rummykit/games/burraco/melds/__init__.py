"""Burraco melds: which multisets of cards are sets or runs, and how melds grow.

This is the meld logic of RULES.md 1.3 and 1.4, pure and fast.  A meld is a multiset:
:func:`arrange` finds the arrangement the rules give it, :func:`extend` adds cards
to a meld on the table, :func:`candidate_melds` lists every new meld a hand can lay
and :func:`extending_cards` every card of a hand that fits a meld.

A run is described by *places* ``1..14`` in its suit: place ``1`` is the low ace,
``2..13`` the ranks, ``14`` the high ace.  Among the legal arrangements of a multiset,
:func:`arrange` keeps the fewest wilds (a 2 stands at its own place whenever it can),
then the wild as high as it can stand (a wild at either end stands high if there is
room), then the lowest start (``A 2 ... K`` rather than ``2 ... K A``).

On the table (:func:`extend`, RULES.md 1.4) natural cards keep their places, the ace
too, except that a natural 2 at the bottom may turn wild; a wild at an end moves
wherever that helps; a wild filling a gap stays until its natural card replaces it.  Of
the outcomes, the same preference picks one.  So a table meld is usually ``arrange`` of
its cards, but not always: ``Ah 2c(=2h) 3h ... Jh`` plus ``Qh`` is ``Ah 2c(=2h) 3h ...
Qh`` (laid at once, ``3h ... Qh 2c(=Kh) Ah``), and ``Ah 2h ... Jh`` does not take
``Kh`` (its 2 is not at the bottom and its ace does not move), though the same cards
laid at once are ``3h ... Jh 2h(=Qh) Kh Ah``.

>>> from rummykit.cards import parse_cards
>>> arrange(parse_cards("7h 8h 9h 2c")).describe()
'7h 8h 9h 2c(=Th)'
>>> extend(arrange(parse_cards("7h 8h 9h 2c")), parse_cards("5h")).describe()
'5h 2c(=6h) 7h 8h 9h'

This module never decides turn rules (whose meld, one set per rank, closing): that is
the game state's job.  It never does I/O and imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
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


def _reason(cards: tuple[Card, ...]) -> str:
    """Why ``cards`` do not form a meld, in English (slow; only for errors)."""
    if len(cards) < MIN_MELD:
        return f"a meld needs at least {MIN_MELD} cards, not {len(cards)}"
    naturals = [c for c in cards if not _is_wild_face(c)]
    wilds = [c for c in cards if _is_wild_face(c)]
    if not naturals:
        if any(c != JOKER for c in cards) and all(RANK_OF[c] == _TWO for c in cards):
            return "2s cannot form a set, and a run of them would hold more than one wild"
        return "a meld needs a natural card and may hold only one wild"
    ranks = {RANK_OF[c] for c in naturals}
    suits = {SUIT_OF[c] for c in naturals}
    if len(ranks) == 1 and len(naturals) >= 2:
        if len(wilds) > 1:
            return f"a set may hold only one wild, not {format_cards(wilds)}"
        if len(naturals) > MAX_SET_NATURALS:
            return f"a set holds at most {MAX_SET_NATURALS} natural cards"
        return f"a set holds at most {MAX_SET} cards"  # pragma: no cover - defensive
    if len(suits) > 1:
        if len(ranks) == 1:
            return "a set needs two natural cards of its rank"  # pragma: no cover
        return "cards of different ranks form a run only in one suit, not " + format_cards(
            sorted(naturals)
        )
    suit = suits.pop()
    if sum(1 for c in naturals if RANK_OF[c] == 1) > 1:
        return "a run cannot hold two natural aces"
    seen: set[Card] = set()
    for card in naturals:
        if card in seen:
            return f"a run cannot hold {format_card(card)} twice"
        seen.add(card)
    suit_twos = [c for c in wilds if c == suit * 13 + 1]
    others = [c for c in wilds if c != suit * 13 + 1]
    if len(others) > 1 or len(others) + len(suit_twos) > 2:
        return f"a run may hold only one wild, not {format_cards(wilds)}"
    return f"{format_cards(cards)} are not consecutive cards of one suit, even with a wild"


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
        raise MeldError(_reason(checked))
    return meld


# ---------------------------------------------------------------------------------------
# Extending a meld


def _is_table_layout(meld: Meld) -> bool:
    """Whether ``meld`` is a run layout that :func:`extend` can leave on the table.

    Each natural at its place, at most one wild (not at its own place), never two
    natural aces, no more wilds than the cards need, and a wild at the low end only when
    there is no room above (checked field by field; sets have one layout only).
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
    return canonical is not None and canonical.clean == (index is None)


def _gap_wild(meld: Meld) -> int | None:
    """The place of a run's wild that fills a gap (it cannot move), else ``None``."""
    index = meld.wild_index
    if meld.kind != "run" or index is None or index == 0 or index == len(meld.cards) - 1:
        return None
    return meld.rank + index


def _extend_run(meld: Meld, suit: int, card: Card) -> Meld | None:
    """The table procedure of RULES.md 1.4 for one card added to a run.

    Natural cards keep their places (the ace too), except that a natural 2 at the
    bottom may turn wild; a wild at an end may move anywhere; a wild filling a gap stays
    unless ``card`` is the natural card it stands for.  Of the outcomes the one kept has
    the fewest wilds (a 2 goes home), then the wild as high as it can stand, then the
    lowest start.
    """
    row = _PLACE_CARDS[suit]
    cards = meld.cards
    lo = meld.rank
    last = len(cards) - 1
    index = meld.wild_index
    fixed = 0  # places of the naturals already laid (each stays)
    for offset in range(last + 1):
        if offset != index:
            fixed |= 1 << (lo + offset)
    old_wild = cards[index] if index is not None else -1
    pinned = 0 if index is None or index in (0, last) else lo + index
    if pinned and card == row[pinned]:
        pinned = 0  # replaced: the wild is free to move
    suit_two = row[_TWO]
    # Where the new card may stand as a natural (0: it can only be a wild).
    if card == row[1]:
        natural_places: tuple[int, ...] = (1, HIGH_ACE)
    elif card == JOKER or RANK_OF[card] == _TWO:
        natural_places = (_TWO,) if card == suit_two else ()
    elif SUIT_OF[card] == suit:
        natural_places = (RANK_OF[card],)
    else:
        return None
    choices = [(place, -1) for place in natural_places]
    if card == JOKER or RANK_OF[card] == _TWO:
        choices.append((0, card))
    # A free wild that is the suit's 2 may go home; a natural 2 at the bottom may turn
    # wild: each such 2 is a choice between place 2 and the wild.
    old_choices = [(0, old_wild)] if old_wild >= 0 else [(0, -1)]
    if old_wild == suit_two and not pinned:
        old_choices.append((_TWO, -1))
    if lo == _TWO and index != 0:
        fixed &= ~(1 << _TWO)
        two_choices = [(_TWO, -1), (0, suit_two)]
    else:
        two_choices = [(0, -1)]
    best: tuple[int, int, int] | None = None
    best_layout = (0, 0, -1)  # low, high, wild card
    for place, new_wild in choices:
        for old_place, kept_wild in old_choices:
            for two_place, two_wild in two_choices:
                naturals = fixed
                clash = False
                for extra in (place, old_place, two_place):
                    if extra:
                        clash = clash or bool(naturals >> extra & 1)
                        naturals |= 1 << extra
                wilds = [w for w in (new_wild, kept_wild, two_wild) if w >= 0]
                if clash or len(wilds) > 1 or (naturals & 2 and naturals >> HIGH_ACE & 1):
                    continue  # a place taken twice, two wilds, or two natural aces
                low = (naturals & -naturals).bit_length() - 1
                high = naturals.bit_length() - 1
                missing = ((1 << (high + 1)) - (1 << low)) & ~naturals
                if not wilds:
                    if missing:
                        continue
                    key = (0, 0, low)
                    wild = -1
                else:
                    wild = wilds[0]
                    if pinned:
                        if missing != 1 << pinned:
                            continue
                        wild_place = pinned
                    elif missing & (missing - 1):
                        continue  # two holes
                    elif missing:
                        wild_place = missing.bit_length() - 1
                    elif high < HIGH_ACE:
                        wild_place = high + 1
                    else:
                        wild_place = low - 1  # fourteen naturals cannot be: low > 1
                    if wild == suit_two and wild_place == _TWO:
                        continue  # there it is natural: another choice
                    low = min(low, wild_place)
                    high = max(high, wild_place)
                    key = (1, -wild_place, low)
                if best is None or key < best:
                    best = key
                    best_layout = (low, high, wild)
    if best is None:
        return None
    low, high, wild = best_layout
    laid = [row[place] for place in range(low, high + 1)]
    if best[0] == 0:
        return Meld("run", tuple(laid), None, suit, low)
    wild_index = -best[1] - low
    laid[wild_index] = wild
    return Meld("run", tuple(laid), wild_index, suit, low)


def _extend_one(meld: Meld, card: Card) -> Meld | None:
    """``meld`` with ``card`` added, or ``None`` when the card cannot be added alone."""
    if meld.kind == "run":
        if meld.suit is None:
            return None
        return _extend_run(meld, meld.suit, card)
    grown = _arrange((*meld.cards, card))
    if grown is None or grown.kind != meld.kind:
        return None
    return grown


def _why_not_one(meld: Meld, card: Card) -> str:
    grown = _arrange((*meld.cards, card))
    if grown is None or grown.kind != meld.kind:
        return f"{format_card(card)} does not fit {meld.describe()}"
    place = _gap_wild(meld)
    if place is not None and meld.suit is not None:
        wild = meld.cards[place - meld.rank]
        stands = _natural_at(meld.suit, place)
        return (
            f"the wild {format_card(wild)} fills a gap in {meld.describe()} and can move"
            f" only when {format_card(stands)} replaces it"
        )
    return (
        f"{format_card(card)} fits {meld.describe()} only if cards already laid change"
        " places (natural cards stay put; only a 2 at the bottom may turn wild)"
    )


def extend(meld: Meld, added: Sequence[Card]) -> Meld:
    """``meld`` with the cards ``added``, as a new meld (``meld`` is not changed).

    Several cards are legal when adding them one at a time in some order is legal.
    Raises :class:`~rummykit.games.core.MeldError` with the reason otherwise.

    >>> from rummykit.cards import parse_cards
    >>> dirty = extend(arrange(parse_cards("2d 3d 4d 5d 6d 7d")), parse_cards("9d"))
    >>> dirty.describe()
    '3d 4d 5d 6d 7d 2d(=8d) 9d'
    >>> extend(dirty, parse_cards("8d")).describe()
    '2d 3d 4d 5d 6d 7d 8d 9d'
    """
    if not isinstance(meld, Meld):
        raise MeldError(f"{meld!r} is not a meld")
    cards = _checked(added, "the cards to add")
    if not cards:
        raise MeldError("no cards to add")
    if len(cards) == 1:
        grown = _extend_one(meld, cards[0])
        if grown is None:
            raise MeldError(_why_not_one(meld, cards[0]))
        return grown
    union = (*meld.cards, *cards)
    target = _arrange(union)
    if target is None or target.kind != meld.kind:
        reason = _reason(union) if target is None else f"they would not form a {meld.kind}"
        raise MeldError(f"{format_cards(cards)} cannot join {meld.describe()}: {reason}")
    seen: dict[tuple[Meld, tuple[Card, ...]], frozenset[Meld]] = {}

    def reachable(current: Meld, remaining: tuple[Card, ...]) -> frozenset[Meld]:
        """Every meld that adding ``remaining`` one at a time can leave."""
        if not remaining:
            return frozenset((current,))
        key = (current, remaining)
        if key not in seen:
            results: set[Meld] = set()
            for index, card in enumerate(remaining):
                if card not in remaining[:index]:
                    step = _extend_one(current, card)
                    if step is not None:
                        rest = remaining[:index] + remaining[index + 1 :]
                        results.update(reachable(step, rest))
            seen[key] = frozenset(results)
        return seen[key]

    results = reachable(meld, tuple(sorted(cards)))
    if not results:
        raise MeldError(
            f"{format_cards(cards)} cannot join {meld.describe()} one card at a time"
            " (a wild filling a gap moves only when its natural card replaces it)"
        )
    return min(results, key=_table_key)


def _table_key(meld: Meld) -> tuple[int, int, int, tuple[Card, ...]]:
    """Orders arrangements of one multiset: the one the rules keep comes first."""
    if meld.wild_index is None:
        return (0, 0, meld.rank, meld.cards)
    return (1, -(meld.rank + meld.wild_index), meld.rank, meld.cards)


# ---------------------------------------------------------------------------------------
# Which cards fit a meld


def _addable_by_trial(meld: Meld) -> frozenset[Card]:
    """Every face that :func:`_extend_one` accepts (the slow, obviously right way)."""
    if meld.kind == "set":
        faces: tuple[Card, ...] = (*_WILD_FACES, *(s * 13 + meld.rank - 1 for s in range(4)))
    else:
        suit = meld.suit if meld.suit is not None else 0
        faces = (*_WILD_FACES, *(suit * 13 + r for r in range(13) if r != 1))
    return frozenset(c for c in faces if _extend_one(meld, c) is not None)


def _addable_to_run(meld: Meld, suit: int) -> frozenset[Card]:
    """The faces that fit a run as the table has it (RULES.md 1.4), from its places."""
    row = _PLACE_CARDS[suit]
    cards = meld.cards
    last = len(cards) - 1
    lo = meld.rank
    hi = lo + last
    index = meld.wild_index
    ace_is_natural = (lo == 1 and index != 0) or (hi == HIGH_ACE and index != last)
    ace = row[1]
    places: list[int]
    fits: set[Card] = set()
    if index is None:
        places = [lo - 1, hi + 1]
        fits.update(_WILD_FACES)  # a clean run always has room for a wild at an end
        if lo == _TWO:
            places.append(hi + 2)  # the 2 at the bottom turns wild to fill hi + 1
    elif index in (0, last):
        low = lo + 1 if index == 0 else lo  # the naturals are low..high
        high = hi - 1 if index == last else hi
        places = [low - 1, high + 1, low - 2, high + 2]  # the wild may move to either end
        if cards[index] == row[_TWO] and low == _TWO + 2:
            # The 2 goes back to its place if another wild fills the place above it.
            fits.update(_WILD_FACES)
    else:
        places = [lo + index, lo - 1, hi + 1]  # a gap: only its own card replaces it
    for place in places:
        if 1 <= place <= HIGH_ACE:
            card = row[place]
            if card != ace or not ace_is_natural:
                fits.add(card)
    return frozenset(fits)


@lru_cache(maxsize=8192)
def _addable(meld: Meld) -> frozenset[Card]:
    """Every card face that can be added alone to ``meld``."""
    if meld.kind == "set":
        has_wild = meld.wild_index is not None
        if len(meld.cards) >= MAX_SET:
            return frozenset()
        fits: set[Card] = set()
        if len(meld.cards) - has_wild < MAX_SET_NATURALS:
            fits.update(s * 13 + meld.rank - 1 for s in range(4))
        if not has_wild:
            fits.update(_WILD_FACES)
        return frozenset(fits)
    if meld.suit is None or _arrange(meld.cards) != meld:
        # Not the arrangement the rules give these cards (built by hand, not by
        # arrange or extend): ask the general procedure card by card.
        return _addable_by_trial(meld)
    return _addable_to_run(meld, meld.suit)


def extending_cards(meld: Meld, hand: Sequence[Card]) -> Iterator[Card]:
    """Each distinct card of ``hand`` that can be added alone to ``meld``, in hand order.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> meld = arrange(parse_cards("7h 8h 9h 2c"))
    >>> format_cards(extending_cards(meld, parse_cards("5h 6h Jh Qh Jk 5h Th")))
    '5h 6h Jh Th'
    """
    fits = _addable(meld)
    seen: set[Card] = set()
    for card in hand:
        if card in fits and card not in seen:
            seen.add(card)
            yield card


# ---------------------------------------------------------------------------------------
# Every new meld of a hand

_SET_RANKS: Final = (1, *range(3, 14))


@lru_cache(maxsize=4096)
def _set_table(rank: int, per_suit: tuple[int, ...]) -> tuple[tuple[Meld, ...], ...]:
    """The sets of ``rank`` from ``per_suit`` copies of each suit's card: first the
    clean ones, then those with each wild face in the order of ``_WILD_FACES``.

    With at most two copies of a card there are at most 12 x 81 tables.
    """
    choices: list[tuple[Card, ...]] = [()]
    for suit, available in enumerate(per_suit):
        card = suit * 13 + rank - 1
        choices = [chosen + (card,) * k for chosen in choices for k in range(available + 1)]
    clean = tuple(
        Meld("set", naturals, None, None, rank)
        for naturals in choices
        if MIN_MELD <= len(naturals) <= MAX_SET_NATURALS
    )
    # Two naturals and a wild at least.
    wildable = [n for n in choices if _TWO <= len(n) <= MAX_SET_NATURALS]
    return (
        clean,
        *(
            tuple(Meld("set", (*n, wild), len(n), None, rank) for n in wildable)
            for wild in _WILD_FACES
        ),
    )


RunPattern = tuple[int, int, int, bool]
"""A run pattern: lowest and highest place, the wild's place (0: clean) and whether the
suit's own 2 may be that wild (the other wild faces always may)."""


@lru_cache(maxsize=1 << 15)
def _run_patterns(rank_mask: int, twos: int) -> tuple[RunPattern, ...]:
    """Every run (as places) of the naturals of ``rank_mask`` (bit ``r`` for rank ``r``,
    the ace is bit 1) and ``twos`` copies of the suit's 2, each multiset once.

    Only the arrangement the rules give a multiset is listed: the wild high when it
    could stand at either end, ``A..K`` rather than ``2..A``, a 2 at its own place.  At
    most 8192 x 3 patterns, whatever the suit and the wilds at hand.
    """
    present = [bool(rank_mask >> r & 1) for r in range(HIGH_ACE + 1)] + [False]
    present[HIGH_ACE] = present[1]
    present[_TWO] = twos > 0
    patterns: list[RunPattern] = []

    def add(lo: int, hi: int, wild_place: int) -> None:
        """Add ``lo..hi`` with a wild at ``wild_place`` (0: clean)."""
        if not wild_place:
            patterns.append((lo, hi, 0, False))
            return
        spare = twos - (1 if lo <= _TWO <= hi and wild_place != _TWO else 0)
        # The suit's 2 at place 2 is natural, and below naturals from 3 up it goes home.
        two_may_be_wild = (
            spare > 0 and wild_place != _TWO and not (lo == MIN_MELD and wild_place == hi)
        )
        patterns.append((lo, hi, wild_place, two_may_be_wild))

    for lo in range(1, HIGH_ACE):
        if not present[lo]:
            continue
        hole = 0
        for hi in range(lo + 1, HIGH_ACE + 1):
            if not present[hi]:
                if hole:
                    break
                hole = hi
                continue
            if lo == 1 and hi == HIGH_ACE:
                break  # two natural aces
            ace_both_ways = lo == _TWO and hi == HIGH_ACE  # the same cards lie as A..K
            if hole:
                if not ace_both_ways:
                    add(lo, hi, hole)
                continue
            if hi - lo >= _TWO and not ace_both_ways:
                add(lo, hi, 0)
                for gap in range(lo + 1, hi):  # a wild in place of a natural left out
                    add(lo, hi, gap)
            if hi < HIGH_ACE:
                add(lo, hi + 1, hi + 1)
            elif lo > MIN_MELD:
                # The naturals end with the high ace: the wild stands below them.
                add(lo - 1, hi, lo - 1)
    return tuple(patterns)


_RUN_MELDS: dict[tuple[int, int, int, int, Card], Meld] = {}
"""Every run meld met so far by its suit, places and wild (at most about 11,000)."""


def _run_meld(suit: int, lo: int, hi: int, wild_place: int, wild: Card) -> Meld:
    key = (suit, lo, hi, wild_place, wild)
    meld = _RUN_MELDS.get(key)
    if meld is None:
        row = _PLACE_CARDS[suit]
        if wild_place:
            cards = (*row[lo:wild_place], wild, *row[wild_place + 1 : hi + 1])
            meld = Meld("run", cards, wild_place - lo, suit, lo)
        else:
            meld = Meld("run", row[lo : hi + 1], None, suit, lo)
        _RUN_MELDS[key] = meld
    return meld


def _add_runs(melds: list[Meld], suit: int, rank_mask: int, twos: int, others: list[Card]) -> None:
    """Add the runs of one suit; ``others`` are the wild faces at hand."""
    suit_two = suit * 13 + 1
    get = _RUN_MELDS.get
    for lo, hi, wild_place, two_may_be_wild in _run_patterns(rank_mask, twos):
        if not wild_place:
            melds.append(get((suit, lo, hi, 0, 0)) or _run_meld(suit, lo, hi, 0, 0))
            continue
        for wild in others:
            if wild != suit_two:
                key = (suit, lo, hi, wild_place, wild)
                melds.append(get(key) or _run_meld(*key))
        if two_may_be_wild:
            melds.append(_run_meld(suit, lo, hi, wild_place, suit_two))


def _general_candidates(counts: list[int]) -> list[Meld]:
    """The candidates of any multiset (more than two copies of a card included)."""
    melds: list[Meld] = []
    others = [face for face in _WILD_FACES if counts[face]]
    for rank in _SET_RANKS:
        per_suit = tuple(counts[s * 13 + rank - 1] for s in range(4))
        if sum(per_suit) >= _TWO:
            table = _set_table(rank, per_suit)
            melds.extend(table[0])
            for position, face in enumerate(_WILD_FACES, start=1):
                if counts[face]:
                    melds.extend(table[position])
    for suit in range(4):
        base = suit * 13
        mask = sum(1 << r for r in range(1, 14) if r != _TWO and counts[base + r - 1])
        _add_runs(melds, suit, mask, min(counts[base + 1], _TWO), others)
    return melds


_RANK_BIT: Final = tuple(1 << RANK_OF[c] if RANK_OF[c] != _TWO else 0 for c in range(52))


def _candidates(hand: Sequence[Card]) -> list[Meld]:
    cards = _checked(hand, "a hand")
    counts = [0] * CARD_COUNT
    masks = [0, 0, 0, 0, 0]
    rank_totals = [0] * 14
    crowded = False  # more copies of a card than two decks hold
    for card in cards:
        counts[card] += 1
        if card != JOKER:
            if counts[card] > _TWO:
                crowded = True
            masks[SUIT_OF[card]] |= _RANK_BIT[card]
            rank_totals[RANK_OF[card]] += 1
    if crowded:
        return _general_candidates(counts)
    melds: list[Meld] = []
    wild_positions = [
        position for position, face in enumerate(_WILD_FACES, start=1) if counts[face]
    ]
    for rank in _SET_RANKS:
        if rank_totals[rank] >= _TWO:
            index = rank - 1
            table = _set_table(
                rank, (counts[index], counts[index + 13], counts[index + 26], counts[index + 39])
            )
            melds.extend(table[0])
            for position in wild_positions:
                melds.extend(table[position])
    others = [face for face in _WILD_FACES if counts[face]]
    for suit in range(4):
        mask = masks[suit]
        twos = counts[suit * 13 + 1]
        if mask.bit_count() + (twos > 0) >= _TWO:
            _add_runs(melds, suit, mask, twos, others)
    return melds


def candidate_arrangements(hand: Sequence[Card]) -> Iterator[Meld]:
    """Every legal new meld that the multiset ``hand`` can form, each multiset once,
    as arranged melds (see :func:`candidate_melds`)."""
    return iter(_candidates(hand))


def candidate_melds(hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every legal new meld that the multiset ``hand`` can form, each multiset once.

    The cards of each are in the order of ``arrange(...).cards``.  Works on counts per
    face and on places per suit (with the melds of each pattern kept in a cache), never
    on subsets of the hand.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> for meld in candidate_melds(parse_cards("5h 6h 7h Jk")):
    ...     print(format_cards(meld))
    5h 6h Jk
    5h 6h 7h
    5h Jk 7h
    5h 6h 7h Jk
    6h 7h Jk
    """
    return iter([meld.cards for meld in _candidates(hand)])
