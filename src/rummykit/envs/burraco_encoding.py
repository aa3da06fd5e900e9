"""The Burraco observation vector: what one player sees, as ``float32`` slots.

Built from ``State.observation(player)`` (or the same fields of the cheaper
``State.player_view``) and, for the player to move, the cards already
chosen for the meld being built (the player's own pending choice); nothing else, so it
cannot show a hidden card.  Card blocks have one slot per face in card-code order
(``Ac 2c ... Kc Ad ... Ks Jk``: ``suit * 13 + rank - 1``, the joker 52).  "Yours" is
the observer's, "theirs" the other player's.

==================  =====  ===========================================================
block               slots  meaning
==================  =====  ===========================================================
``hand``            53     copies of each face in your hand
``chosen``          53     cards chosen so far for the meld being built (your turn)
``discard_pile``    53     copies of each face in the discard pile
``discard_top``     53     the top card of the discard pile (one-hot)
``their_known``     53     cards they took with the pile and still hold
``their_discards``  53     1 for each face they discarded this hand
``your_melded``     53     copies of each face in your melds
``their_melded``    53     copies of each face in their melds
``forbidden``       53     the card you may not discard this turn (the one card you
                           took alone from the pile)
``meld_present``    36     slot k: you have a k-th meld (your melds in the order laid;
                           slot k is the one action ``109 + k`` adds to)
``meld_set``        36     slot k is a set
``meld_dirty``      36     slot k holds a wild
``meld_burraco``    36     slot k has 7 cards or more
``meld_suit``       144    4 per slot: the run's suit, one-hot (c d h s)
``meld_rank``       468    13 per slot: the set's rank, one-hot (A..K)
``phase``           2      draw, play (one-hot; both 0 once the game is over)
``to_move``         1      1 when it is your turn
``dealer``          1      1 when you dealt this hand
``pozzetti_left``   2      pozzetto 0, pozzetto 1 still set aside
``took_pozzetto``   2      you, they have taken a pozzetto
``their_melds``     4      their burracos: clean, dirty; their melds of 5 and of 6
                           cards (one short of a burraco), counts / 4
``meld_size``       36     slot k: cards in the meld / 14
``meld_low``        36     slot k: a run's lowest place / 14 (ace low 1, high 14)
``meld_high``       36     slot k: a run's highest place / 14
``hand_sizes``      2      cards in your, their hand / 20
``stock``           1      cards in the stock / deck size
``turn``            1      turns played this hand / the stalemate limit
``hand_number``     1      hands played before this one / 50 (at most 1)
``totals``          2      your, their running total / 1000 (between -20 and 20)
``target``          1      the target / 1000 in a target game (at most 20), else 0
==================  =====  ===========================================================

1,361 slots.  Runs' ``meld_low``/``meld_high`` and sets' ``meld_rank`` say what a meld
can take; the mask says exactly which cards fit.

:func:`encode` builds a vector from scratch; an :class:`Encoder` keeps one observer's
vector and rewrites only the slots that changed since its last call (what the
environments use after every step), giving exactly the same vector.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

from rummykit.cards import CARD_COUNT, Card
from rummykit.envs.delta import cells_of, move_counts
from rummykit.envs.layout import FloatArray, Layout
from rummykit.games.burraco import Observation
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.player_view import PlayerView

MELD_SLOTS: Final = 36  # 108 cards make at most 36 melds of three
MAX_COPIES: Final = 4
HAND_SCALE: Final = 20.0
MAX_HAND_SLOT: Final = 108 / HAND_SCALE
TOTAL_SCALE: Final = 1000.0
MAX_TOTAL: Final = 20.0
PLACE_SCALE: Final = 14.0


def _layout() -> Layout:
    grid = Layout()
    cards = (
        ("hand", MAX_COPIES, "copies of each face in your hand"),
        ("chosen", MAX_COPIES, "cards chosen so far for the meld being built"),
        ("discard_pile", MAX_COPIES, "copies of each face in the discard pile"),
        ("discard_top", 1, "the top card of the discard pile"),
        ("their_known", MAX_COPIES, "cards they took with the pile and still hold"),
        ("their_discards", 1, "faces they discarded this hand"),
        ("your_melded", MAX_COPIES, "copies of each face in your melds"),
        ("their_melded", MAX_COPIES, "copies of each face in their melds"),
        ("forbidden", 1, "the card you may not discard this turn"),
    )
    for name, high, meaning in cards:
        grid.add(name, CARD_COUNT, high=high, meaning=meaning)
    grid.add("meld_present", MELD_SLOTS, high=1, meaning="you have a k-th meld")
    grid.add("meld_set", MELD_SLOTS, high=1, meaning="your k-th meld is a set")
    grid.add("meld_dirty", MELD_SLOTS, high=1, meaning="your k-th meld holds a wild")
    grid.add("meld_burraco", MELD_SLOTS, high=1, meaning="your k-th meld has 7+ cards")
    grid.add("meld_suit", 4 * MELD_SLOTS, high=1, meaning="4 per slot: the run's suit")
    grid.add("meld_rank", 13 * MELD_SLOTS, high=1, meaning="13 per slot: the set's rank")
    grid.add("phase", 2, high=1, meaning="draw, play (one-hot)")
    grid.add("to_move", 1, high=1, meaning="it is your turn")
    grid.add("dealer", 1, high=1, meaning="you dealt this hand")
    grid.add("pozzetti_left", 2, high=1, meaning="pozzetto 0, 1 still set aside")
    grid.add("took_pozzetto", 2, high=1, meaning="you, they took a pozzetto")
    grid.add("their_melds", 4, high=4, meaning="their clean, dirty burracos; melds of 5, 6 / 4")
    grid.add("meld_size", MELD_SLOTS, high=1, meaning="your k-th meld's size / 14")
    grid.add("meld_low", MELD_SLOTS, high=1, meaning="your k-th run's lowest place / 14")
    grid.add("meld_high", MELD_SLOTS, high=1, meaning="your k-th run's highest place / 14")
    grid.add("hand_sizes", 2, high=MAX_HAND_SLOT, meaning="cards in your, their hand / 20")
    grid.add("stock", 1, high=1, meaning="cards in the stock / deck size")
    grid.add("turn", 1, high=1, meaning="turns this hand / stalemate limit")
    grid.add("hand_number", 1, high=1, meaning="hands played before / 50")
    grid.add("totals", 2, low=-MAX_TOTAL, high=MAX_TOTAL, meaning="your, their total / 1000")
    grid.add("target", 1, high=MAX_TOTAL, meaning="the target / 1000 (target games)")
    return grid


LAYOUT: Final = _layout()
_B = LAYOUT.blocks
_HAND = _B["hand"].offset
_CHOSEN = _B["chosen"].offset
_PILE = _B["discard_pile"].offset
_TOP = _B["discard_top"].offset
_KNOWN = _B["their_known"].offset
_THEIR_DISCARDS = _B["their_discards"].offset
_YOURS = _B["your_melded"].offset
_THEIRS = _B["their_melded"].offset
_FORBIDDEN = _B["forbidden"].offset
_PRESENT = _B["meld_present"].offset
_SET = _B["meld_set"].offset
_DIRTY = _B["meld_dirty"].offset
_BURRACO = _B["meld_burraco"].offset
_SUIT = _B["meld_suit"].offset
_RANK = _B["meld_rank"].offset
_PHASE = _B["phase"].offset
_TO_MOVE = _B["to_move"].offset
_DEALER = _B["dealer"].offset
_POZZETTI = _B["pozzetti_left"].offset
_TOOK = _B["took_pozzetto"].offset
_THEIR_MELDS = _B["their_melds"].offset
_TAIL = _B["meld_size"].offset
assert LAYOUT.size - _TAIL == 3 * MELD_SLOTS + 8, "the fractional slots end the vector"


class PileMemory:
    """The faces the other player discarded this hand, read from the pile history.

    The history grows by appending, so the plane is extended with the new entries
    only; any other history is read from the start.  A cache of a pure function of
    ``discard_history`` seen from one observer.
    """

    __slots__ = ("_last", "_length", "_me", "plane")

    def __init__(self) -> None:
        self._length = 0
        self._last: object = None
        self._me = -1
        self.plane = np.zeros(CARD_COUNT, dtype=np.float32)

    def read(self, observation: Observation | PlayerView) -> FloatArray:
        history = observation.discard_history
        me = observation.player
        length = self._length
        if (
            me != self._me
            or len(history) < length
            or (length and history[length - 1] is not self._last)
        ):
            self.plane = np.zeros(CARD_COUNT, dtype=np.float32)
            self._me = me
            length = 0
        plane = self.plane
        for entry in history[length:]:
            if entry.kind == "discard" and entry.player != me:
                plane[entry.cards[0]] = 1.0
        self._length = len(history)
        self._last = history[-1] if history else None
        return plane


class _MeldSlots:
    """What the melds on the table put in the vector, seen by one player."""

    __slots__ = ("flags", "tail", "their_cards", "their_counts", "your_cards")

    def __init__(self, melds: Iterable[tuple[Meld, int]], me: int) -> None:
        self.your_cards: list[Card] = []
        self.their_cards: list[Card] = []
        self.flags: list[int] = []  # slots that are 1
        self.tail: dict[int, float] = {}  # slot (from the tail's start) -> value
        self.their_counts = [0, 0, 0, 0]
        flags = self.flags
        slot = 0
        for meld, owner in melds:
            cards = meld.cards
            size = len(cards)
            if owner != me:
                self.their_cards += cards
                if size >= 7:
                    self.their_counts[0 if meld.wild_index is None else 1] += 1
                elif size >= 5:
                    self.their_counts[size - 3] += 1
                continue
            self.your_cards += cards
            flags.append(_PRESENT + slot)
            if meld.wild_index is not None:
                flags.append(_DIRTY + slot)
            if size >= 7:
                flags.append(_BURRACO + slot)
            self.tail[slot] = size / PLACE_SCALE
            if meld.kind == "set":
                flags.append(_SET + slot)
                flags.append(_RANK + 13 * slot + meld.rank - 1)
            else:
                flags.append(_SUIT + 4 * slot + (meld.suit or 0))
                self.tail[MELD_SLOTS + slot] = meld.rank / PLACE_SCALE
                self.tail[2 * MELD_SLOTS + slot] = (meld.rank + size - 1) / PLACE_SCALE
            slot += 1


def _melds_of(observation: Observation | PlayerView) -> Iterable[tuple[Meld, int]]:
    if isinstance(observation, PlayerView):
        return zip(observation.table_melds, observation.owners, strict=True)
    return ((table_meld.meld, table_meld.owner) for table_meld in observation.melds)


def _flags(observation: Observation | PlayerView) -> list[int]:
    """The one-hot slots outside the melds' (``discard_top`` to ``took_pozzetto``)."""
    me = observation.player
    flags = []
    pile = observation.discard_pile
    if pile:
        flags.append(_TOP + pile[-1])
    if observation.forbidden_discard is not None:
        flags.append(_FORBIDDEN + observation.forbidden_discard)
    phase = observation.phase
    if phase != "over":
        flags.append(_PHASE + (phase == "play"))
    if observation.current_player == me:
        flags.append(_TO_MOVE)
    if observation.dealer == me:
        flags.append(_DEALER)
    flags += map(_POZZETTI.__add__, observation.pozzetti_left)
    took = observation.took_pozzetto
    if took[me]:
        flags.append(_TOOK)
    if took[1 - me]:
        flags.append(_TOOK + 1)
    return flags


def _clamp(value: float, low: float, high: float) -> float:
    return low if value < low else high if value > high else value


def _scalars(observation: Observation | PlayerView) -> tuple[float, ...]:
    """The last eight slots, from ``hand_sizes`` to ``target``."""
    me = observation.player
    rules = observation.rules
    sizes = observation.hand_sizes
    totals = observation.totals
    return (
        sizes[me] / HAND_SCALE,
        sizes[1 - me] / HAND_SCALE,
        observation.stock_count / (104 + rules.jokers),
        _clamp(observation.turn / rules.stalemate_turns, 0.0, 1.0),
        _clamp(observation.hand_number / 50, 0.0, 1.0),
        _clamp(totals[me] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL),
        _clamp(totals[1 - me] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL),
        _clamp(rules.target / TOTAL_SCALE, 0.0, MAX_TOTAL) if rules.mode == "target" else 0.0,
    )


_SCALARS: Final = _TAIL + 3 * MELD_SLOTS


def encode(
    observation: Observation | PlayerView,
    chosen: Sequence[Card] = (),
    memory: PileMemory | None = None,
) -> FloatArray:
    """The vector of ``observation`` (or of the engine's cheaper ``State.player_view``,
    which gives the same vector); ``chosen`` are the observer's own pending cards."""
    me = observation.player
    counts: list[int] = []
    add = counts.extend
    add(map(_HAND.__add__, observation.hand))
    add(map(_CHOSEN.__add__, chosen))
    pile = observation.discard_pile
    add(map(_PILE.__add__, pile))
    add(map(_KNOWN.__add__, observation.known_cards[1 - me]))
    melds = _MeldSlots(_melds_of(observation), me)
    add(map(_THEIRS.__add__, melds.their_cards))
    add(map(_YOURS.__add__, melds.your_cards))
    add(melds.flags)
    add(_flags(observation))
    vector = np.bincount(counts, minlength=LAYOUT.size).astype(np.float32)
    vector[_THEIR_MELDS : _THEIR_MELDS + 4] = [count / 4 for count in melds.their_counts]
    plane = (PileMemory() if memory is None else memory).read(observation)
    vector[_THEIR_DISCARDS : _THEIR_DISCARDS + CARD_COUNT] = plane
    tail = [0.0] * (3 * MELD_SLOTS)
    for slot, value in melds.tail.items():
        tail[slot] = value
    tail += _scalars(observation)
    vector[_TAIL:] = tail
    return vector


class Encoder:
    """One observer's vector, kept from call to call: :meth:`encode` rewrites only the
    slots whose fields changed since its previous call (:mod:`.delta`) and returns a
    copy, exactly :func:`encode` of the same observation or view and chosen cards.

    It compares fields by value, so any sequence of positions may be encoded (another
    game, an earlier position): the kept fields are only a cache of the vector.
    """

    __slots__ = (
        "_cells",
        "_chosen",
        "_flags",
        "_hand",
        "_history",
        "_known",
        "_last_entry",
        "_melds",
        "_owners",
        "_pile",
        "_slots",
        "_vector",
        "_view",
        "player",
    )

    def __init__(self, player: int) -> None:
        self.player = player
        self._vector = np.zeros(LAYOUT.size, dtype=np.float32)
        self._cells = cells_of(self._vector)
        self._view: object = None
        self._hand: Sequence[Card] = ()
        self._chosen: Sequence[Card] = ()
        self._pile: Sequence[Card] = ()
        self._known: Sequence[Card] = ()
        self._melds: Sequence[object] = ()
        self._owners: Sequence[int] = ()
        self._slots = _MeldSlots((), player)
        self._flags: list[int] = []
        self._history = 0
        self._last_entry: object = None

    def __reduce__(self) -> tuple[type[Encoder], tuple[int]]:
        """A copy or a pickle starts empty (the kept vector is only a cache)."""
        return Encoder, (self.player,)

    def encode(
        self, observation: Observation | PlayerView, chosen: Sequence[Card] = ()
    ) -> FloatArray:
        """The vector of ``observation`` (this encoder's player's) with ``chosen``."""
        if observation.player != self.player:
            raise ValueError("an encoder encodes one player's view")
        cells = self._cells
        if chosen != self._chosen:
            move_counts(cells, _CHOSEN, self._chosen, chosen)
            self._chosen = tuple(chosen)
        if observation is not self._view:  # the same view again: only the choice moved
            self._read(observation)
        return self._vector.copy()

    def _read(self, observation: Observation | PlayerView) -> None:
        cells = self._cells
        me = self.player
        hand = observation.hand
        if hand != self._hand:
            move_counts(cells, _HAND, self._hand, hand)
            self._hand = hand
        pile = observation.discard_pile
        if pile != self._pile:
            move_counts(cells, _PILE, self._pile, pile)
            self._pile = pile
        known = observation.known_cards[1 - me]
        if known != self._known:
            move_counts(cells, _KNOWN, self._known, known)
            self._known = known
        if isinstance(observation, PlayerView):
            melds: Sequence[object] = observation.table_melds
            owners: Sequence[int] = observation.owners
        else:
            melds = observation.melds
            owners = ()
        if melds != self._melds or owners != self._owners:
            self._place_melds(_MeldSlots(_melds_of(observation), me))
            self._melds = melds
            self._owners = owners
        flags = _flags(observation)
        if flags != self._flags:
            move_counts(cells, 0, self._flags, flags)
            self._flags = flags
        self._read_history(observation)
        for slot, value in enumerate(_scalars(observation), _SCALARS):
            cells[slot] = value
        self._view = observation

    def _place_melds(self, slots: _MeldSlots) -> None:
        cells = self._cells
        old = self._slots
        move_counts(cells, _YOURS, old.your_cards, slots.your_cards)
        move_counts(cells, _THEIRS, old.their_cards, slots.their_cards)
        move_counts(cells, 0, old.flags, slots.flags)
        for slot in old.tail:
            cells[_TAIL + slot] = 0.0
        for slot, value in slots.tail.items():
            cells[_TAIL + slot] = value
        for slot, count in enumerate(slots.their_counts, _THEIR_MELDS):
            cells[slot] = count / 4
        self._slots = slots

    def _read_history(self, observation: Observation | PlayerView) -> None:
        """Set the ``their_discards`` slots of the entries not read yet (all of them,
        after clearing the plane, when the history is not the one read so far
        extended)."""
        history = observation.discard_history
        length = self._history
        if len(history) < length or (length and history[length - 1] is not self._last_entry):
            self._vector[_THEIR_DISCARDS : _THEIR_DISCARDS + CARD_COUNT] = 0.0
            length = 0
        cells = self._cells
        me = self.player
        for entry in history[length:]:
            if entry.kind == "discard" and entry.player != me:
                cells[_THEIR_DISCARDS + entry.cards[0]] = 1.0
        self._history = len(history)
        self._last_entry = history[-1] if history else None
