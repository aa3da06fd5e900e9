"""Extending a Burraco meld on the table (RULES.md 1.4), and which cards fit one.

On the table natural cards keep their places, the ace too, except that a natural 2 at
the bottom may turn wild; a wild at an end moves wherever that helps; a wild filling a
gap stays until its natural card replaces it.  Of the outcomes, the preference of
:func:`~.arranging.arrange` picks one.  So a table meld is usually ``arrange`` of its
cards, but not always: ``Ah 2c(=2h) 3h ... Jh`` plus ``Qh`` is ``Ah 2c(=2h) 3h ... Qh``
(laid at once, ``3h ... Qh 2c(=Kh) Ah``), and ``Ah 2h ... Jh`` does not take ``Kh`` (its
2 is not at the bottom and its ace does not move), though the same cards laid at once
are ``3h ... Jh 2h(=Qh) Kh Ah``.

>>> from rummykit.cards import parse_cards
>>> from rummykit.games.burraco.melds import arrange
>>> extend(arrange(parse_cards("7h 8h 9h 2c")), parse_cards("5h")).describe()
'5h 2c(=6h) 7h 8h 9h'

:func:`additions` lists every multiset of a hand's cards that a meld accepts.

This module never decides whose meld may grow (the game state does).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final

from rummykit.cards import (
    JOKER,
    RANK_OF,
    SUIT_OF,
    Card,
    format_card,
    format_cards,
)
from rummykit.games.burraco.melds.arranging import (
    _PLACE_CARDS,
    _TWO,
    _WILD_FACES,
    HIGH_ACE,
    MAX_SET,
    MAX_SET_NATURALS,
    Meld,
    _arrange,
    _checked,
    _natural_at,
    why_not,
)
from rummykit.games.core import MeldError

# ---------------------------------------------------------------------------------------
# Extending a meld


def _gap_wild(meld: Meld) -> int | None:
    """The place of a run's wild that fills a gap (it cannot move), else ``None``."""
    if meld.wild_index is None or not meld.gap_wild:
        return None
    return meld.rank + meld.wild_index


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


def _why_not_one(meld: Meld, card: Card) -> MeldError:
    grown = _arrange((*meld.cards, card))
    if grown is None or grown.kind != meld.kind:
        return MeldError(
            f"{format_card(card)} does not fit {meld.describe()}",
            "does_not_fit",
            (format_card(card),),
        )
    place = _gap_wild(meld)
    if place is not None and meld.suit is not None:
        wild = meld.cards[place - meld.rank]
        stands = _natural_at(meld.suit, place)
        return MeldError(
            f"the wild {format_card(wild)} fills a gap in {meld.describe()} and can move"
            f" only when {format_card(stands)} replaces it",
            "wild_in_gap",
            (format_card(stands),),
        )
    return MeldError(
        f"{format_card(card)} fits {meld.describe()} only if cards already laid change"
        " places (natural cards stay put; only a 2 at the bottom may turn wild)",
        "would_move",
        (format_card(card),),
    )


def extend(meld: Meld, added: Sequence[Card]) -> Meld:
    """``meld`` with the cards ``added``, as a new meld (``meld`` is not changed).

    Several cards are legal when adding them one at a time in some order is legal.
    Raises :class:`~rummykit.games.core.MeldError` with the reason otherwise.

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.games.burraco.melds import arrange
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
    grown = extended(meld, cards)
    if grown is not None:
        return grown
    if len(cards) == 1:
        raise _why_not_one(meld, cards[0])
    union = (*meld.cards, *cards)
    target = _arrange(union)
    joining = f"{format_cards(cards)} cannot join {meld.describe()}"
    if target is None:
        why = why_not(union)
        raise MeldError(f"{joining}: {why}", why.why, why.detail)
    if target.kind != meld.kind:
        raise MeldError(f"{joining}: they would not form a {meld.kind}", f"not_a_{meld.kind}")
    raise MeldError(
        f"{joining} one card at a time"
        " (a wild filling a gap moves only when its natural card replaces it)",
        "one_at_a_time",
    )


def extended(meld: Meld, cards: Sequence[Card]) -> Meld | None:
    """What :func:`extend` makes of ``meld`` and one card code or more, or ``None``
    where it raises, without saying why (nothing is checked: for hot loops)."""
    if len(cards) == 1:
        return _extend_one(meld, cards[0])
    target = _arrange((*meld.cards, *cards))
    if target is None or target.kind != meld.kind:
        return None
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
        return None
    return min(results, key=_table_key)


def _table_key(meld: Meld) -> tuple[int, int, int, tuple[Card, ...]]:
    """Orders arrangements of one multiset: the one the rules keep comes first."""
    if meld.wild_index is None:
        return (0, 0, meld.rank, meld.cards)
    return (1, -(meld.rank + meld.wild_index), meld.rank, meld.cards)


_SET_KIN: Final = tuple(
    frozenset((*_WILD_FACES, *(suit * 13 + rank - 1 for suit in range(4)))) for rank in range(14)
)
_RUN_KIN: Final = tuple(frozenset((*_WILD_FACES, *_PLACE_CARDS[suit][1:14])) for suit in range(4))
_EVERY_FACE: Final = frozenset(range(JOKER + 1))


def kin_cards(meld: Meld) -> frozenset[Card]:
    """Every face that could ever join ``meld``, alone or after other cards: the wilds
    and the naturals of a set's rank or of a run's suit (every face for a run built by
    hand without a suit)."""
    if meld.kind == "set":
        return _SET_KIN[meld.rank]
    return _EVERY_FACE if meld.suit is None else _RUN_KIN[meld.suit]


def hand_kin(hand: Sequence[Card]) -> tuple[list[list[Card]], list[list[Card]]]:
    """One hand's cards grouped by the melds they could join (:func:`kin_cards`), for
    asking many melds about the same hand: ``(by_suit, by_rank)``, each suit's and each
    rank's naturals with every wild of the hand (a list per suit ``0..3`` and per rank
    ``0..13``).  ``by_suit[meld.suit]`` or ``by_rank[meld.rank]`` is then a hand in its
    own right for :func:`additions` and :func:`openers`, which cut a hand to the kin
    cards of the meld first.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> by_suit, by_rank = hand_kin(parse_cards("Kh 5h 2c 5s Jk 9d"))
    >>> format_cards(by_suit[2]), format_cards(by_rank[5])
    ('Kh 5h 2c Jk', '5h 5s 2c Jk')
    """
    wilds: list[Card] = []
    by_suit: list[list[Card]] = [[], [], [], []]
    by_rank: list[list[Card]] = [[] for _rank in range(14)]
    for card in hand:
        if card == JOKER or RANK_OF[card] == _TWO:
            wilds.append(card)
        else:
            by_suit[SUIT_OF[card]].append(card)
            by_rank[RANK_OF[card]].append(card)
    if wilds:
        for group in (*by_suit, *by_rank):
            group.extend(wilds)
    return by_suit, by_rank


def additions(meld: Meld, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every multiset of cards of ``hand`` that :func:`extend` accepts onto ``meld``
    (the one-card additions included), its cards in code order, in code order;
    remembered per meld and the hand's cards that could join it (the list is not to be
    changed).

    >>> from rummykit.cards import parse_cards, format_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> run = arrange(parse_cards("5h 6h 7h"))
    >>> [format_cards(cards) for cards in additions(run, parse_cards("3h 4h Kc"))]
    ['3h 4h', '4h']
    >>> tens = arrange(parse_cards("Th Th Ts Td Td Tc"))
    >>> [format_cards(cards) for cards in additions(tens, parse_cards("Tc Tc Ts 2c"))]
    ['2c', '2c Tc', '2c Tc Tc', '2c Tc Ts', '2c Ts', 'Tc', 'Tc Tc', 'Tc Ts', 'Ts']
    """
    kin = kin_cards(meld)
    return _additions(meld, tuple(sorted(filter(kin.__contains__, hand))))


def openers(meld: Meld, hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that begin (in code order) an addition of several cards to
    ``meld`` (:func:`additions`) but do not fit it alone, in code order: what a mask
    that offers an addition's cards one by one must offer first besides the cards that
    fit alone (remembered like :func:`additions`; the list is not to be changed).

    A set has none (every card of a set's addition fits it alone), nor does a run when
    every card of the hand that could join it fits alone; only then are the additions
    listed.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> format_cards(openers(arrange(parse_cards("5h 6h 7h")), parse_cards("3h 4h 9h Th")))
    '3h'
    """
    if meld.kind == "set":
        return []
    kin = kin_cards(meld)
    return _openers(meld, tuple(sorted(filter(kin.__contains__, hand))))


def _joining(meld: Meld, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` (kin of ``meld``, in code order) that could ever join it:
    all of them for a set, for a run only those within reach."""
    if meld.kind == "run" and meld.suit is not None and hand:
        return _within_reach(meld, meld.suit, hand)
    return hand


@lru_cache(maxsize=8192)
def _additions(meld: Meld, hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """:func:`additions` of a hand already cut to ``meld``'s kin cards, in code order."""
    return _search(meld, _joining(meld, hand))


@lru_cache(maxsize=8192)
def _openers(meld: Meld, hand: tuple[Card, ...]) -> list[Card]:
    """:func:`openers` of a run and a hand already cut to its kin cards, in code order."""
    hand = _joining(meld, hand)
    fits = fitting_cards(meld)
    if fits.issuperset(hand):
        return []
    return sorted({found[0] for found in _search(meld, hand) if found[0] not in fits})


def _run_place_bits(suit: int, card: Card) -> int:
    """The places (as bits) that ``card`` can take as a natural in a run of ``suit``."""
    if card == JOKER or SUIT_OF[card] != suit:
        return 0
    return 1 << 1 | 1 << HIGH_ACE if RANK_OF[card] == 1 else 1 << RANK_OF[card]


_RUN_PLACE_BITS: Final = tuple(
    tuple(_run_place_bits(suit, card) for card in range(JOKER + 1)) for suit in range(4)
)


def _reach_cards(suit: int, low: int, high: int) -> frozenset[Card]:
    """The wilds and the naturals of ``suit`` whose place lies in ``low..high``."""
    places = range(low, high + 1)
    naturals = [_PLACE_CARDS[suit][place] for place in places]
    return frozenset((*_WILD_FACES, *naturals))


_REACH_CARDS: Final = tuple(
    tuple(
        tuple(_reach_cards(suit, low, high) if low <= high else frozenset() for high in range(15))
        for low in range(15)
    )
    for suit in range(4)
)
_PLACES: Final = (1 << (HIGH_ACE + 1)) - 2  # bits 1..14


def _within_reach(meld: Meld, suit: int, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` (kin of the run ``meld``) that could ever join it: every
    wild, and each natural with at most one place between it and the run that no
    natural of the hand fills (a run holds one wild; one place missing on either side
    is allowed, which is more than enough).  With bits for places: below the run, the
    reach stops above the second place missing; above it, below the second."""
    held = functools.reduce(operator.or_, map(_RUN_PLACE_BITS[suit].__getitem__, hand), 0)
    lowest = meld.rank
    highest = lowest + len(meld.cards) - 1
    below = ~held & ((1 << lowest) - 2)  # the places missing below the run
    first = below.bit_length() - 1
    second = (below & ((1 << first) - 1)).bit_length() - 1 if first > 0 else -1
    low = second + 1 if second > 0 else 1
    above = ~held & _PLACES & ~((1 << (highest + 1)) - 1)  # the places missing above it
    if above:
        above &= above - 1  # the first missing place may be passed
    high = (above & -above).bit_length() - 2 if above else HIGH_ACE
    allowed = _REACH_CARDS[suit][low][high]
    return tuple(filter(allowed.__contains__, hand))


@lru_cache(maxsize=8192)
def _search(meld: Meld, hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """:func:`additions` of the cards of a hand that could join ``meld``."""
    if not hand:
        return []
    if meld.kind == "set":
        return _set_additions(meld, hand)
    return _run_additions(meld, hand)


def _set_additions(meld: Meld, hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """A set takes any naturals of its rank and, while it has none, one wild, up to
    ``MAX_SET_NATURALS`` naturals and ``MAX_SET`` cards: every card added alone on the
    way is legal too, so any such multiset is an addition."""
    wilds = sorted({card for card in hand if card == JOKER or RANK_OF[card] == _TWO})
    naturals = [card for card in hand if card != JOKER and RANK_OF[card] != _TWO]
    has_wild = meld.wild_index is not None
    room = MAX_SET - len(meld.cards)
    natural_room = min(room, MAX_SET_NATURALS - (len(meld.cards) - has_wild))
    groups: list[tuple[Card, ...]] = [()]
    counts: dict[Card, int] = {}
    for card in naturals:
        counts[card] = counts.get(card, 0) + 1
    for card, count in counts.items():  # in code order: the hand is
        groups = [
            (*group, *(card,) * copies)
            for group in groups
            for copies in range(count + 1)
            if len(group) + copies <= natural_room
        ]
    found = [group for group in groups if group]
    if not has_wild:
        for wild in wilds:
            found.extend(tuple(sorted((*group, wild))) for group in groups if len(group) < room)
    found.sort()
    return found


_GROWN: dict[tuple[tuple[Card, ...], int | None, Card], Meld | None] = {}
""":func:`_extend_one` of runs, remembered by the run's cards, its wild's index and the
card added (which name a run: its suit and lowest place follow), without hashing a
:class:`Meld`: the searches of one hand's turns meet the same runs again and again."""
_GROWN_LIMIT: Final = 1 << 16


def _run_additions(meld: Meld, hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """A search: from ``meld``, each card left in the hand is added alone where it fits,
    and so on from every meld reached.  A meld reached holds ``meld``'s cards and the
    cards added, so it names its addition and is searched from once, whatever the order
    that reached it.

    :func:`extended` also asks that the cards together arrange as a run; a run reached
    always does (its naturals hold distinct places and it has one wild at most, so its
    own layout is one that :func:`~.arranging.arrange` weighs), so that is not asked.
    """
    grown_of = _GROWN
    if len(grown_of) > _GROWN_LIMIT:
        grown_of.clear()
    copies = {card: hand.count(card) for card in hand}
    found: set[tuple[Card, ...]] = set()
    seen = {(meld.cards, meld.wild_index)}
    frontier: list[tuple[Meld, tuple[Card, ...]]] = [(meld, ())]
    while frontier:
        current, used = frontier.pop()
        for card, count in copies.items():
            if card in used and used.count(card) >= count:
                continue
            key = (current.cards, current.wild_index, card)
            if key in grown_of:
                grown = grown_of[key]
            else:
                grown = grown_of[key] = _extend_one(current, card)
            if grown is None:
                continue
            name = (grown.cards, grown.wild_index)
            if name in seen:
                continue
            seen.add(name)
            cards = tuple(sorted((*used, card)))
            found.add(cards)
            frontier.append((grown, cards))
    return sorted(found)


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
def fitting_cards(meld: Meld) -> frozenset[Card]:
    """Every card face that can be added alone to ``meld`` (cached per meld).

    >>> from rummykit.cards import parse_cards, format_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> format_cards(sorted(fitting_cards(arrange(parse_cards("7h 8h 9h Th")))))
    '2c 2d 2h 6h Jh 2s Jk'
    """
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
    >>> from rummykit.games.burraco.melds import arrange
    >>> meld = arrange(parse_cards("7h 8h 9h 2c"))
    >>> format_cards(extending_cards(meld, parse_cards("5h 6h Jh Qh Jk 5h Th")))
    '5h 6h Jh Th'
    """
    fits = fitting_cards(meld)
    seen: set[Card] = set()
    for card in hand:
        if card in fits and card not in seen:
            seen.add(card)
            yield card
