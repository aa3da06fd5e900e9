"""Whether a Burraco action is legal, and the list of legal actions: one place for both.

``examine`` answers for any object (an action or not) with a :class:`core.Refusal` or
``None``, and hands back the arranged meld of a legal ``Meld``/``Extend`` so that
applying it needs no second search.  ``legal_options`` lists what ``examine`` accepts
as plain values, using the same small predicates, without arranging every candidate
again (:func:`single_additions` lists its one-card additions alone, for a player
who looks at those first); ``legal_actions`` makes actions of that list.
``legal_extension`` answers like ``examine`` for one ``Extend`` without building a
refusal, ``legal_additions`` lists every ``Extend`` it accepts, several cards at once
included, and ``addition_openers`` the first cards of those a mask must offer (for
masks).  Nothing here changes the table.

The rules enforced here (RULES.md 1.2-1.6 and the engine's decisions):

- ``draw`` phase: ``DrawStock`` or ``TakePile`` (the whole pile, never empty at a turn's
  start); ``play`` phase: ``Meld``, ``Extend`` (the melds of the player's own team
  only: with four players, the partner's too), ``Discard``.
- One set per rank and team (``Rules.one_set_per_rank``).
- One-card pile: ``Discard(X)`` of the card taken alone is legal only while the hand
  holds more copies of ``X`` than the restriction counts (1 until an ``X`` is melded).
- Closing: a discard emptying the hand of a player who cannot take a pozzetto (their
  team has taken one, or none is left) needs a burraco of the team and may not be a
  wild (a joker or any 2).
- No move may leave the player without any legal move (the whole rest of the turn is
  looked at, so the order of a turn's melds and additions never decides legality).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final, NamedTuple

from rummykit.cards import CARD_COUNT, JOKER, RANK_OF, RANKS, Card, format_card, format_cards
from rummykit.games.burraco import melds
from rummykit.games.burraco.actions import DISCARDS, Discard, DrawStock, Extend, Meld, TakePile
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.table import Table
from rummykit.games.burraco.teams import TEAMS
from rummykit.games.core import MeldError, ParamValue, Refusal


def refusal(code: str, message: str, **params: ParamValue) -> Refusal:
    return Refusal(code, params, message)


def is_wild_in_hand(card: Card) -> bool:
    """In the hand every 2 may be a wild, and the joker always is."""
    return card == JOKER or RANK_OF[card] == 2


def _is_card(value: object) -> bool:
    return type(value) is int and 0 <= value < CARD_COUNT


def _card_tuple(value: object) -> tuple[Card, ...] | None:
    if isinstance(value, tuple | list) and all(_is_card(c) for c in value):
        return tuple(value)
    return None


def _missing_card(hand: list[Card], cards: Sequence[Card]) -> tuple[Card, int, int] | None:
    """A card of ``cards`` (as a multiset) that the hand holds too few of, with how many
    copies the hand holds and how many ``cards`` names; ``None`` if it holds them all."""
    if len(cards) == 1:
        return None if cards[0] in hand else (cards[0], 0, 1)
    for card in dict.fromkeys(cards):
        held = hand.count(card)
        named = cards.count(card)
        if held < named:
            return card, held, named
    return None


# ---------------------------------------------------------------------------------------
# The end of the turn must stay reachable


def ending_refusal(
    table: Table,
    *,
    used: Sequence[Card],
    makes_burraco: bool,
    result: Callable[[], melds.Meld],
    replaces: int | None = None,
) -> Refusal | None:
    """Refuse a meld or extension using ``used`` if the player would then have no legal
    move at all (RULES.md 1.6: the test looks at the whole rest of the turn).

    With two or more cards left a discard is always possible.  With none, the player
    must be able to take a pozzetto.  With one, it must be a legal discard (not the
    restricted pile card; if it would close the hand, no wild and a burraco), or else
    a card the player can add to one of their melds as they stand after the move,
    which empties the hand and so needs a pozzetto to take.  ``result`` gives the meld
    the move lays (``replaces`` is ``None``) or the meld ``replaces`` becomes; it is
    called only in that last case, so listing legal moves stays cheap.
    """
    player = table.player
    hand = table.hands[player]
    remaining = len(hand) - len(used)
    if remaining >= 2:
        return None
    can_refill = table.can_refill(player)
    if remaining <= 0:
        if can_refill:
            return None
        return refusal(
            "no_way_to_end_turn",
            "this would leave you no card to discard, and you cannot take a pozzetto",
            reason="empty_hand",
        )
    rest = list(hand)
    for card in used:
        rest.remove(card)
    last = rest[0]
    still_restricted = table.restricted and table.restricted_card not in used
    if still_restricted and last == table.restricted_card:
        if can_refill and _fits_a_meld_after(table, last, result(), replaces):
            return None
        also = ", nor add to any of your melds" if can_refill else ""
        return refusal(
            "no_way_to_end_turn",
            f"this would leave only {format_card(last)}, which you took alone from the"
            f" pile and may not discard this turn{also}",
            reason="restricted_left",
            card=format_card(last),
        )
    if can_refill:
        return None
    if is_wild_in_hand(last):
        return refusal(
            "no_way_to_end_turn",
            f"this would leave only {format_card(last)}, and a wild may not be the closing discard",
            reason="wild_left",
            card=format_card(last),
        )
    if not (makes_burraco or table.has_burraco[player % TEAMS]):
        return refusal(
            "no_way_to_end_turn",
            f"this would leave only {format_card(last)}, and you may not close without a burraco",
            reason="no_burraco",
            card=format_card(last),
        )
    return None


def _fits_a_meld_after(table: Table, card: Card, meld: melds.Meld, replaces: int | None) -> bool:
    """Could ``card`` be added to one of the current player's team's melds once
    ``meld`` is laid (``replaces`` is ``None``) or has replaced meld ``replaces``?"""
    single = (card,)
    if any(melds.extending_cards(meld, single)):
        return True
    team = table.player % TEAMS
    return any(
        owner == team
        and meld_id != replaces
        and any(melds.extending_cards(table.melds[meld_id], single))
        for meld_id, owner in enumerate(table.owners)
    )


def discard_refusal(table: Table, card: Card) -> Refusal | None:
    """Why the current player may not discard ``card`` (held in the hand), or ``None``."""
    player = table.player
    hand = table.hands[player]
    if table.restricted and card == table.restricted_card and hand.count(card) <= table.restricted:
        return refusal(
            "discard_taken_card",
            f"you took {format_card(card)} alone from the pile and may not discard it this turn",
            card=format_card(card),
        )
    if len(hand) == 1 and not table.can_refill(player):
        if is_wild_in_hand(card):
            return refusal(
                "closing_with_wild",
                f"{format_card(card)} would be the closing discard, and a wild (a joker or"
                " any 2) may not close",
                card=format_card(card),
            )
        if not table.has_burraco[player % TEAMS]:
            return refusal(
                "closing_without_burraco",
                "discarding your last card would close the hand, which needs a burraco"
                " (a meld of 7 or more cards)"
                + (" of your team" if len(table.hands) > TEAMS else ""),
                card=format_card(card),
            )
    return None


def second_set_refusal(rules: Rules, table: Table, rank: int) -> Refusal | None:
    if rules.one_set_per_rank and table.set_ranks[table.player % TEAMS] >> rank & 1:
        name = RANKS[rank - 1]
        who = "your team already has" if len(table.hands) > TEAMS else "you already have"
        return refusal(
            "second_set_of_rank",
            f"{who} a set of {name}; add the cards to it instead",
            rank=name,
        )
    return None


# ---------------------------------------------------------------------------------------
# Any action


Verdict = tuple[Refusal | None, melds.Meld | None]


def examine(rules: Rules, table: Table | None, action: object) -> Verdict:
    """Why ``action`` is illegal now (``table`` is ``None`` when the game is over), or
    ``(None, meld)`` with the arranged meld of a legal ``Meld`` or ``Extend``."""
    if table is None:
        return refusal("game_over", "the game is over"), None
    phase = table.phase
    if isinstance(action, DrawStock | TakePile):
        if phase != "draw":
            return refusal(
                "wrong_phase",
                "you have already drawn; meld, add to your melds or discard",
                phase=phase,
            ), None
        if isinstance(action, DrawStock):
            if not table.stock:
                return refusal("stock_empty", "the stock is empty"), None
        elif not table.discard_pile:
            return refusal("discard_pile_empty", "the discard pile is empty"), None
        return None, None
    if not isinstance(action, Meld | Extend | Discard):
        return refusal(
            "not_an_action", f"{action!r} is not a Burraco action", what=type(action).__name__
        ), None
    if phase != "play":
        return refusal(
            "wrong_phase",
            "first draw from the stock or take the discard pile",
            phase=phase,
        ), None
    hand = table.hands[table.player]
    if isinstance(action, Discard):
        card = action.card
        if not _is_card(card):
            return refusal("malformed_action", f"{card!r} is not a card code"), None
        if card not in hand:
            return _not_in_hand(card), None
        return discard_refusal(table, card), None
    cards = _card_tuple(action.cards)
    if cards is None:
        return refusal("malformed_action", f"{action.cards!r} is not a list of cards"), None
    if not cards:
        return refusal("no_cards", "name the cards to play"), None
    missing = _missing_card(hand, cards)
    if missing is not None:
        return _not_in_hand(*missing), None
    if isinstance(action, Meld):
        return _examine_meld(rules, table, cards)
    return _examine_extend(table, action.meld_id, cards)


_COUNT_WORDS: Final = ("no", "one", "two", "three", "four")


def _count_words(count: int) -> str:
    return _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)


def _not_in_hand(card: Card, held: int = 0, named: int = 1) -> Refusal:
    """``card_not_in_hand`` when the hand has no ``card``; ``too_few_copies`` when the
    action names ``card`` more often (``named``) than the hand holds it (``held``)."""
    name = format_card(card)
    if held == 0:
        return refusal("card_not_in_hand", f"you do not hold {name}", card=name)
    times = {1: "once", 2: "twice"}.get(named, f"{_count_words(named)} times")
    return refusal(
        "too_few_copies",
        f"you hold only {_count_words(held)} {name}, and the move names it {times}",
        card=name,
        held=held,
        named=named,
    )


def _examine_meld(rules: Rules, table: Table, cards: tuple[Card, ...]) -> Verdict:
    try:
        meld = melds.arrange(cards)
    except MeldError as error:
        return refusal(
            "illegal_meld",
            f"{format_cards(cards)} is not a meld: {error}",
            cards=tuple(format_card(c) for c in cards),
            reason=str(error),
            why=error.why,
            detail=error.detail,
        ), None
    if meld.kind == "set":
        second = second_set_refusal(rules, table, meld.rank)
        if second is not None:
            return second, None
    return ending_refusal(
        table, used=cards, makes_burraco=meld.is_burraco, result=lambda: meld
    ), meld


def _examine_extend(table: Table, meld_id: object, cards: tuple[Card, ...]) -> Verdict:
    if type(meld_id) is not int or not 0 <= meld_id < len(table.melds):
        return refusal(
            "no_such_meld", f"there is no meld {meld_id!r} on the table", meld_id=str(meld_id)
        ), None
    if table.owners[meld_id] != table.player % TEAMS:
        if len(table.hands) > TEAMS:
            message = (
                f"meld {meld_id} belongs to the other team; you may add only to your team's melds"
            )
        else:
            message = f"meld {meld_id} belongs to your opponent; you may add only to your own melds"
        return refusal("not_your_meld", message, meld_id=meld_id), None
    meld = melds.extended(table.melds[meld_id], cards)
    if meld is None:
        return _illegal_extension(table, meld_id, cards), None
    return ending_refusal(
        table, used=cards, makes_burraco=meld.is_burraco, result=lambda: meld, replaces=meld_id
    ), meld


def _illegal_extension(table: Table, meld_id: int, cards: tuple[Card, ...]) -> Refusal:
    """The refusal of adding ``cards`` to meld ``meld_id``, which ``melds.extended``
    refuses: ``melds.extend`` says why."""
    try:
        melds.extend(table.melds[meld_id], cards)
    except MeldError as error:
        return refusal(
            "illegal_extension",
            f"{format_cards(cards)} cannot be added to meld {meld_id}: {error}",
            meld_id=meld_id,
            cards=tuple(format_card(c) for c in cards),
            reason=str(error),
            why=error.why,
            detail=error.detail,
        )
    raise AssertionError("melds.extend accepts what melds.extended refuses")  # pragma: no cover


def legal_extension(table: Table, meld_id: int, cards: tuple[Card, ...]) -> melds.Meld | None:
    """The meld that ``Extend(meld_id, cards)`` leaves when :func:`examine` accepts it,
    else ``None``, without building a refusal (for masks).  ``meld_id`` is an int and
    ``cards`` card codes."""
    if table.phase != "play" or not 0 <= meld_id < len(table.melds):
        return None
    if table.owners[meld_id] != table.player % TEAMS or not cards:
        return None
    if _missing_card(table.hands[table.player], cards) is not None:
        return None
    meld = melds.extended(table.melds[meld_id], cards)
    if meld is None:
        return None
    ending = ending_refusal(
        table,
        used=cards,
        makes_burraco=meld.is_burraco,
        result=functools.partial(_given, meld),
        replaces=meld_id,
    )
    return meld if ending is None else None


# ---------------------------------------------------------------------------------------
# Listing


class LegalOptions(NamedTuple):
    """The legal actions of a position as plain values: what ``legal_actions`` lists, in
    the same order, without an action object for each (for hot loops).

    ``draws``: in the ``draw`` phase, ``DrawStock()`` if the stock has a card, then
    ``TakePile()`` if the pile has one.  In the ``play`` phase, ``discards``: each
    distinct card of the hand that may be discarded, in hand order; ``melds``: the legal
    new melds, in the order of ``melds.candidate_melds``; ``additions``: ``(meld id,
    card)`` for each card that may be added alone to one of the player's melds, by meld
    id, then in hand order.  The sequences are not to be changed (those of the ``draw``
    phase are shared).
    """

    draws: tuple[DrawStock | TakePile, ...]
    discards: Sequence[Card]
    melds: Sequence[melds.Candidate]
    additions: Sequence[tuple[int, Card]]


_new_options: Final = functools.partial(tuple.__new__, LegalOptions)
"""``LegalOptions`` from a tuple of its fields (quicker than its keywords)."""


def _draw_options(stock: bool, pile: bool) -> LegalOptions:
    draws = ((DrawStock(),) if stock else ()) + ((TakePile(),) if pile else ())
    return LegalOptions(draws, (), (), ())


_DRAW_OPTIONS: Final = {
    (stock, pile): _draw_options(stock, pile) for stock in (True, False) for pile in (True, False)
}
"""The options of the ``draw`` phase by whether the stock and the pile have cards."""
NO_OPTIONS: Final = LegalOptions((), (), (), ())


_FITS_BY_MELD_ID: dict[int, tuple[melds.Meld, frozenset[Card]]] = {}
"""The last meld listed under each meld id with its ``melds.fitting_cards``: a cache
that is right whatever the game, since an entry is used only for that very meld object
(and cheaper than ``fitting_cards``' own cache, which hashes the meld)."""


_FIT_BITS_BY_MELD_ID: dict[int, tuple[melds.Meld, int]] = {}
"""The same as :data:`_FITS_BY_MELD_ID` with the fitting cards as a bit set (bit ``c``
for card ``c``), for :func:`single_additions`."""


def _given(meld: melds.Meld) -> melds.Meld:
    return meld


def legal_options(
    rules: Rules,
    table: Table,
    candidates: Iterable[melds.Candidate],
    additions: list[tuple[int, Card]] | None = None,
) -> LegalOptions:
    """Each legal action once, as :class:`LegalOptions`: in ``play``, every allowed
    distinct discard, every new meld among ``candidates`` (the hand's
    ``melds.candidates_of``) that the table allows, and every single-card extension of
    the player's own melds (``additions`` when the caller has them from
    :func:`single_additions` of this table as it stands)."""
    if table.phase == "draw":
        return _DRAW_OPTIONS[bool(table.stock), bool(table.discard_pile)]
    player = table.player
    hand = table.hands[player]
    size = len(hand)
    distinct = list(dict.fromkeys(hand))
    if size == 1:
        discards = [card for card in distinct if discard_refusal(table, card) is None]
    elif table.restricted and table.restricted_card is not None:
        # No discard closes the hand: only the card taken alone may be refused.
        taken = table.restricted_card
        if discard_refusal(table, taken) is None:
            discards = distinct
        else:
            discards = [card for card in distinct if card != taken]
    else:
        discards = distinct
    team = player % TEAMS
    set_ranks = table.set_ranks[team] if rules.one_set_per_rank else 0
    legal_melds: list[melds.Candidate] = []
    most = size - 2  # the most cards a meld may use and still leave a card to discard
    for candidate in candidates:
        meld = candidate.meld
        if set_ranks and meld.kind == "set" and set_ranks >> meld.rank & 1:
            continue
        cards = meld.cards
        if len(cards) > most and (
            ending_refusal(
                table,
                used=cards,
                makes_burraco=len(cards) >= melds.BURRACO_SIZE,
                result=functools.partial(_given, meld),
            )
            is not None
        ):
            continue
        legal_melds.append(candidate)
    if additions is None:
        additions = _single_additions(table, distinct)
    return _new_options(((), discards, legal_melds, additions))


def single_additions(table: Table) -> list[tuple[int, Card]]:
    """The ``additions`` of :func:`legal_options` alone, in the same order: ``(meld id,
    card)`` for each card of the hand that may be added alone to one of the player's
    team's melds (none outside the ``play`` phase)."""
    if table.phase != "play":
        return []
    return _single_additions(table, list(dict.fromkeys(table.hands[table.player])))


def _single_additions(table: Table, distinct: list[Card]) -> list[tuple[int, Card]]:
    """The single-card additions of the hand whose distinct cards are ``distinct`` (in
    hand order): by meld id, then in hand order.  The hand and each meld's fitting cards
    are bit sets (bit ``c`` for card ``c``) here."""
    additions: list[tuple[int, Card]] = []
    owners = table.owners
    team = table.player % TEAMS
    if team not in owners:
        return additions
    size = len(table.hands[table.player])
    held = 0
    for card in distinct:
        held |= 1 << card
    fits_of = _FIT_BITS_BY_MELD_ID
    for meld_id, meld in enumerate(table.melds):
        if owners[meld_id] != team:
            continue
        known = fits_of.get(meld_id)
        if known is not None and known[0] is meld:
            fits = known[1]
        else:
            fits = sum(1 << card for card in melds.fitting_cards(meld))
            fits_of[meld_id] = (meld, fits)
        common = held & fits
        if not common:
            continue
        if size > 2:  # a card is left to discard whatever is added
            if common & (common - 1):
                additions.extend([(meld_id, card) for card in distinct if common >> card & 1])
            else:
                additions.append((meld_id, common.bit_length() - 1))
            continue
        for card in distinct:
            if common >> card & 1 and (
                ending_refusal(
                    table,
                    used=(card,),
                    makes_burraco=meld.size >= melds.BURRACO_SIZE - 1,
                    result=functools.partial(melds.extend, meld, (card,)),
                    replaces=meld_id,
                )
                is None
            ):
                additions.append((meld_id, card))
    return additions


def legal_additions(table: Table) -> list[tuple[int, tuple[Card, ...]]]:
    """Every ``(meld id, cards)`` for which :func:`examine` accepts ``Extend(meld id,
    cards)`` in the ``play`` phase, the cards in code order, several cards at once
    included: by meld id, then in the order of ``melds.additions``.

    A meld none of the hand's cards fits alone takes no addition at all (its first card
    must join alone); the others ask ``melds.additions``, and an addition that leaves
    fewer than two cards in the hand is also asked :func:`ending_refusal` about the meld
    ``melds.extended`` makes of it.
    """
    if table.phase != "play":
        return []
    if table.player % TEAMS not in table.owners:
        return []
    hand = table.hands[table.player]
    held = set(hand)
    most = len(hand) - 2  # the most cards an addition may use and still leave a discard
    found: list[tuple[int, tuple[Card, ...]]] = []
    kin: tuple[list[list[Card]], list[list[Card]]] | None = None
    for meld_id, meld, fits in _own_melds(table):
        if held.isdisjoint(fits):
            continue
        if kin is None:
            kin = melds.hand_kin(hand)
        if meld.kind == "set":
            cards_in_hand = kin[1][meld.rank]
        else:
            cards_in_hand = hand if meld.suit is None else kin[0][meld.suit]
        for cards in melds.additions(meld, cards_in_hand):
            if len(cards) > most:
                grown = melds.extended(meld, cards)
                assert grown is not None
                ending = ending_refusal(
                    table,
                    used=cards,
                    makes_burraco=grown.is_burraco,
                    result=functools.partial(_given, grown),
                    replaces=meld_id,
                )
                if ending is not None:
                    continue
            found.append((meld_id, cards))
    return found


def addition_openers(table: Table) -> set[Card]:
    """The first cards (in code order) of the legal additions of several cards
    (:func:`legal_additions`), less the cards that may be added alone to some meld:
    what a mask that offers an addition's cards one by one must offer first besides
    the one-card additions and the first cards of new melds.

    With three cards or more in hand a card that fits a meld alone may be added alone
    (a card is left to discard), so ``melds.openers`` answers meld by meld without
    listing every addition.  An opener it finds may still begin only additions that
    leave fewer than two cards and so may end the turn badly (hand ``6c 7c 3h``, run
    ``8c 9c 2d Jc``, no pozzetto to take, no burraco: ``6c`` opens only ``6c 7c``,
    which leaves ``3h`` as a closing discard without a burraco), so then
    :func:`legal_additions` is asked which of them open a legal addition; with two
    cards in hand it is always asked.
    """
    if table.phase != "play" or table.player % TEAMS not in table.owners:
        return set()
    hand = table.hands[table.player]
    if len(hand) <= 2:
        listed = legal_additions(table)
        singles = {cards[0] for _meld_id, cards in listed if len(cards) == 1}
        return {cards[0] for _meld_id, cards in listed if len(cards) > 1} - singles
    held = set(hand)
    found: set[Card] = set()
    alone: set[Card] = set()
    team = table.player % TEAMS
    owners = table.owners
    fits_of = _FITS_BY_MELD_ID
    for meld_id, meld in enumerate(table.melds):
        if owners[meld_id] != team:
            continue
        known = fits_of.get(meld_id)
        if known is not None and known[0] is meld:
            fits = known[1]
        else:
            fits = melds.fitting_cards(meld)
            fits_of[meld_id] = (meld, fits)
        common = held & fits
        if not common:
            continue
        alone |= common
        if meld.kind == "run":  # a set has no openers (melds.openers)
            found.update(melds.openers(meld, hand))
    found -= alone
    if not found:
        return found
    return {cards[0] for _meld_id, cards in legal_additions(table) if cards[0] in found}


def _own_melds(table: Table) -> Iterator[tuple[int, melds.Meld, frozenset[Card]]]:
    """The current player's team's melds: meld id, meld and ``melds.fitting_cards``."""
    team = table.player % TEAMS
    owners = table.owners
    fits_of = _FITS_BY_MELD_ID
    for meld_id, meld in enumerate(table.melds):
        if owners[meld_id] != team:
            continue
        known = fits_of.get(meld_id)
        if known is not None and known[0] is meld:
            fits = known[1]
        else:
            fits = melds.fitting_cards(meld)
            fits_of[meld_id] = (meld, fits)
        yield meld_id, meld, fits


def legal_actions(
    rules: Rules, table: Table, candidates: Iterable[melds.Candidate]
) -> Iterator[DrawStock | TakePile | Meld | Extend | Discard]:
    """Each legal action once, in the order of :func:`legal_options`: draws, discards,
    new melds (their cards as arranged), single-card extensions."""
    options = legal_options(rules, table, candidates)
    yield from options.draws
    discards = DISCARDS
    for card in options.discards:
        yield discards[card]
    for candidate in options.melds:
        yield Meld(candidate.meld.cards)
    for meld_id, card in options.additions:
        yield Extend(meld_id, (card,))
