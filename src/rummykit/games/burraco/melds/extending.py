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

This module never decides whose meld may grow (the game state does).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

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
    _reason,
)
from rummykit.games.core import MeldError

# ---------------------------------------------------------------------------------------
# Extending a meld


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
        raise MeldError(_why_not_one(meld, cards[0]))
    union = (*meld.cards, *cards)
    target = _arrange(union)
    if target is None or target.kind != meld.kind:
        reason = _reason(union) if target is None else f"they would not form a {meld.kind}"
        raise MeldError(f"{format_cards(cards)} cannot join {meld.describe()}: {reason}")
    raise MeldError(
        f"{format_cards(cards)} cannot join {meld.describe()} one card at a time"
        " (a wild filling a gap moves only when its natural card replaces it)"
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
