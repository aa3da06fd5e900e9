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

1,361 slots.

**Four players** (two partnerships, ``Rules(players=4)``): "yours" is your team's and
"theirs" the other team's: the melds (``your_melded``, the meld slots), the pozzetto,
the totals; ``their_known`` and ``their_discards`` hold both opponents' cards, and
``hand_sizes`` your hand and that of the opponent who plays after you.  Three blocks
follow the others (1,470 slots):

==================  =====  ===========================================================
``partner_known``   53     cards your partner took with the pile and still holds
``partner_discards`` 53    1 for each face your partner discarded this hand
``seat_sizes``      3      cards in the hands of the player after you, your partner
                           and the player before you / 20
==================  =====  ===========================================================

Your partner's unseen cards are never in the vector.

Runs' ``meld_low``/``meld_high`` and sets' ``meld_rank`` say what a meld can take; the
mask says exactly which cards fit.

:func:`encode` builds a vector from scratch; an :class:`Encoder` keeps one observer's
vector and rewrites only the slots that changed since its last call (what the
environments use after every step), giving exactly the same vector.  The environments
hand it ``State.table_parts(player)`` (:meth:`Encoder.encode_parts`): the table's own
lists and pile history, read in place, with no view built and no hand sorted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

from rummykit.cards import CARD_COUNT, Card
from rummykit.envs.delta import cells_of, follow_counts, move_counts, move_hot
from rummykit.envs.layout import FloatArray, Layout
from rummykit.games.burraco import Observation, Rules
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.player_view import PlayerView, TableParts
from rummykit.games.burraco.table import PileEntry
from rummykit.games.history import History

MELD_SLOTS: Final = 36  # 108 cards make at most 36 melds of three
MAX_COPIES: Final = 4
HAND_SCALE: Final = 20.0
MAX_HAND_SLOT: Final = 108 / HAND_SCALE
TOTAL_SCALE: Final = 1000.0
MAX_TOTAL: Final = 20.0
PLACE_SCALE: Final = 14.0


def _layout(players: int = 2) -> Layout:
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
    if players == 4:
        grid.add(
            "partner_known",
            CARD_COUNT,
            high=MAX_COPIES,
            meaning="cards your partner took with the pile and still holds",
        )
        grid.add("partner_discards", CARD_COUNT, high=1, meaning="faces your partner discarded")
        grid.add(
            "seat_sizes",
            3,
            high=MAX_HAND_SLOT,
            meaning="cards in the hands after you, of your partner, before you / 20",
        )
    return grid


LAYOUT: Final = _layout()
LAYOUT_FOUR: Final = _layout(4)
"""The vector of a table of four: :data:`LAYOUT` and the partner's blocks after it."""


def layout_for(players: int) -> Layout:
    """The layout of a table of ``players`` (2 or 4)."""
    return LAYOUT_FOUR if players == 4 else LAYOUT


_F = LAYOUT_FOUR.blocks
_PARTNER_KNOWN = _F["partner_known"].offset
_PARTNER_DISCARDS = _F["partner_discards"].offset
_SEAT_SIZES = _F["seat_sizes"].offset
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
    """The faces the other side (player or team) discarded this hand, read from the
    pile history.

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
            who = entry.player
            if entry.kind == "discard" and who is not None and who % 2 != me % 2:
                plane[entry.cards[0]] = 1.0
        self._length = len(history)
        self._last = history[-1] if history else None
        return plane


class _MeldSlots:
    """What the melds on the table put in the vector, seen by one player."""

    __slots__ = ("flags", "tail", "their_cards", "their_counts", "your_cards")

    def __init__(self, melds: Iterable[tuple[Meld, int]], me: int) -> None:
        """``me``: the observer's team (the meld owners are teams)."""
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
    team = me % 2
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
    if took[team]:
        flags.append(_TOOK)
    if took[1 - team]:
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
    them = (me + 1) % len(sizes)
    return (
        sizes[me] / HAND_SCALE,
        sizes[them] / HAND_SCALE,
        observation.stock_count / (104 + rules.jokers),
        _clamp(observation.turn / rules.stalemate_turns, 0.0, 1.0),
        _clamp(observation.hand_number / 50, 0.0, 1.0),
        _clamp(totals[me] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL),
        _clamp(totals[them] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL),
        _clamp(rules.target / TOTAL_SCALE, 0.0, MAX_TOTAL) if rules.mode == "target" else 0.0,
    )


def _opponents_known(known: Sequence[Sequence[Card]], me: int) -> list[Card]:
    """The cards the other side was seen to take and still holds (both opponents'
    with four)."""
    players = len(known)
    if players == 2:
        return list(known[1 - me])
    return [*known[(me + 1) % players], *known[(me + 3) % players]]


_SCALARS: Final = _TAIL + 3 * MELD_SLOTS


def encode(
    observation: Observation | PlayerView,
    chosen: Sequence[Card] = (),
    memory: PileMemory | None = None,
) -> FloatArray:
    """The vector of ``observation`` (or of the engine's cheaper ``State.player_view``,
    which gives the same vector); ``chosen`` are the observer's own pending cards."""
    me = observation.player
    players = observation.rules.players
    layout = layout_for(players)
    counts: list[int] = []
    add = counts.extend
    add(map(_HAND.__add__, observation.hand))
    add(map(_CHOSEN.__add__, chosen))
    pile = observation.discard_pile
    add(map(_PILE.__add__, pile))
    add(map(_KNOWN.__add__, _opponents_known(observation.known_cards, me)))
    if players == 4:
        add(map(_PARTNER_KNOWN.__add__, observation.known_cards[(me + 2) % 4]))
        add(
            _PARTNER_DISCARDS + entry.cards[0]
            for entry in observation.discard_history
            if entry.kind == "discard" and entry.player == (me + 2) % 4
        )
    melds = _MeldSlots(_melds_of(observation), me % 2)
    add(map(_THEIRS.__add__, melds.their_cards))
    add(map(_YOURS.__add__, melds.your_cards))
    add(melds.flags)
    add(_flags(observation))
    vector = np.bincount(counts, minlength=layout.size).astype(np.float32)
    if players == 4:  # a face discarded twice is still one
        partner = vector[_PARTNER_DISCARDS : _PARTNER_DISCARDS + CARD_COUNT]
        np.minimum(partner, 1.0, out=partner)
    vector[_THEIR_MELDS : _THEIR_MELDS + 4] = [count / 4 for count in melds.their_counts]
    plane = (PileMemory() if memory is None else memory).read(observation)
    vector[_THEIR_DISCARDS : _THEIR_DISCARDS + CARD_COUNT] = plane
    tail = [0.0] * (3 * MELD_SLOTS)
    for slot, value in melds.tail.items():
        tail[slot] = value
    tail += _scalars(observation)
    vector[_TAIL : _TAIL + len(tail)] = tail
    if players == 4:
        sizes = observation.hand_sizes
        vector[_SEAT_SIZES : _SEAT_SIZES + 3] = [
            sizes[(me + step) % 4] / HAND_SCALE for step in (1, 2, 3)
        ]
    return vector


_HOT_PLACES: Final = (
    "discard_top",
    "forbidden",
    "phase",
    "to_move",
    "dealer",
    "pozzetto 0",
    "pozzetto 1",
    "you took a pozzetto",
    "they took one",
)
"""The places of the one-hot slots outside the melds' that the encoder keeps (what
:func:`_flags` sets), each with at most one slot set."""

_Fields = tuple[
    int,
    Rules,
    Sequence[Card],
    Sequence[Card],
    Sequence[Sequence[Card]],
    Sequence[Meld],
    Sequence[int],
    Sequence[PileEntry] | History[PileEntry],
    Sequence[int],
    int,
    Sequence[int],
    Sequence[bool],
    Card | None,
    Card | None,
    Sequence[int],
    int,
    int,
    int | None,
    str,
    int,
]
"""The fields of :class:`.TableParts` (from a table, or the same from a view)."""


def _category(meld: Meld) -> int:
    """The ``their_melds`` slot a meld of theirs counts in (-1: none)."""
    size = len(meld.cards)
    if size >= 7:
        return 0 if meld.wild_index is None else 1
    return size - 3 if size >= 5 else -1


def _meld_row(meld: Meld, slot: int) -> tuple[tuple[int, ...], tuple[tuple[int, float], ...]]:
    """The one-hot slots and the fractional ``(slot, value)`` pairs of your meld in slot
    ``slot`` (what :class:`_MeldSlots` gives it)."""
    size = len(meld.cards)
    flags = [_PRESENT + slot]
    if meld.wild_index is not None:
        flags.append(_DIRTY + slot)
    if size >= 7:
        flags.append(_BURRACO + slot)
    tail = [(_TAIL + slot, size / PLACE_SCALE)]
    if meld.kind == "set":
        flags.append(_SET + slot)
        flags.append(_RANK + 13 * slot + meld.rank - 1)
    else:
        flags.append(_SUIT + 4 * slot + (meld.suit or 0))
        tail.append((_TAIL + MELD_SLOTS + slot, meld.rank / PLACE_SCALE))
        tail.append((_TAIL + 2 * MELD_SLOTS + slot, (meld.rank + size - 1) / PLACE_SCALE))
    return tuple(flags), tuple(tail)


def _since(history: Sequence[PileEntry] | History[PileEntry], start: int) -> Sequence[PileEntry]:
    """The entries of a view's or a table's pile history from index ``start`` on."""
    if isinstance(history, History):
        return history.since(start)
    return history[start:]


_NO_ROW: Final[tuple[tuple[int, ...], tuple[tuple[int, float], ...]]] = ((), ())


class Encoder:
    """One observer's vector, kept from call to call: :meth:`encode` rewrites only the
    slots whose fields changed since its previous call (:mod:`.delta`) and returns a
    copy, exactly :func:`encode` of the same observation or view and chosen cards;
    :meth:`encode_parts` does the same from the table's own parts.

    It compares fields by value, so any sequence of positions may be encoded (another
    game, an earlier position): the kept fields are only a cache of the vector.  Melds
    are immutable values, so a meld that is the same object as the one kept in its
    place adds nothing to rewrite.
    """

    __slots__ = (
        "_categories",
        "_cells",
        "_chosen",
        "_hand",
        "_hand_number",
        "_history",
        "_hot",
        "_hot_rest",
        "_known",
        "_last_entry",
        "_log",
        "_meld_slots",
        "_melds",
        "_mine",
        "_owners",
        "_partner_known",
        "_pile",
        "_players",
        "_rows",
        "_rules",
        "_scales",
        "_seen",
        "_team",
        "_their_counts",
        "_totals",
        "_vector",
        "player",
    )

    def __init__(self, player: int, players: int = 2) -> None:
        self.player = player
        self._players = players
        self._team = player % 2
        self._vector = np.zeros(layout_for(players).size, dtype=np.float32)
        self._cells = cells_of(self._vector)
        self._seen: object = None
        # Copies of the cards read, kept equal to them (:func:`.follow_counts`).
        self._hand: list[Card] = []
        self._pile: list[Card] = []
        self._known: list[Card] = []
        self._partner_known: list[Card] = []
        self._chosen: Sequence[Card] = ()
        # The melds as read, and per meld: its slot (-1: theirs), its row of slots
        # (yours) and its ``their_melds`` category (theirs; -1: none).
        self._melds: list[Meld] = []
        self._owners: list[int] = []
        self._meld_slots: list[int] = []
        self._rows: list[tuple[tuple[int, ...], tuple[tuple[int, float], ...]]] = []
        self._categories: list[int] = []
        self._mine = 0
        self._their_counts = [0, 0, 0, 0]
        self._hot = [-1] * len(_HOT_PLACES)
        self._hot_rest: tuple[int, ...] = ()
        # The pile history read: its length, its last entry, the table's log itself.
        self._history = 0
        self._last_entry: object = None
        self._log: History[PileEntry] | None = None
        self._rules: object = None
        self._scales = (1.0, 1.0)
        self._hand_number = -1
        self._totals: Sequence[int] = ()

    def __reduce__(self) -> tuple[type[Encoder], tuple[int, int]]:
        """A copy or a pickle starts empty (the kept vector is only a cache)."""
        return Encoder, (self.player, self._players)

    def encode(
        self, observation: Observation | PlayerView, chosen: Sequence[Card] = ()
    ) -> FloatArray:
        """The vector of ``observation`` (this encoder's player's) with ``chosen``."""
        if observation.player != self.player:
            raise ValueError("an encoder encodes one player's view")
        if observation.rules.players != self._players:
            raise ValueError(f"this encoder encodes a table of {self._players}")
        if chosen != self._chosen:
            move_counts(self._cells, _CHOSEN, self._chosen, chosen)
            self._chosen = tuple(chosen)
        if observation is not self._seen:  # the same view again: only the choice moved
            if isinstance(observation, PlayerView):
                melds: Sequence[Meld] = observation.table_melds
                owners: Sequence[int] = observation.owners
            else:
                melds = [table_meld.meld for table_meld in observation.melds]
                owners = [table_meld.owner for table_meld in observation.melds]
            self._read(
                (
                    observation.player,
                    observation.rules,
                    list(observation.hand),  # lists, compared with the kept ones
                    list(observation.discard_pile),
                    [list(cards) for cards in observation.known_cards],
                    melds,
                    owners,
                    observation.discard_history,
                    observation.hand_sizes,
                    observation.stock_count,
                    observation.pozzetti_left,
                    observation.took_pozzetto,
                    observation.restricted_card,
                    observation.forbidden_discard,
                    observation.totals,
                    observation.hand_number,
                    observation.dealer,
                    observation.current_player,
                    observation.phase,
                    observation.turn,
                )
            )
            self._seen = observation
        return self._vector.copy()

    def encode_parts(self, parts: TableParts, chosen: Sequence[Card] = ()) -> FloatArray:
        """The vector of ``State.table_parts(player)`` with ``chosen``: what
        :meth:`encode` gives for the view of the same position, read from the table's
        own lists without a view.

        It keeps copies of the lists and compares them, so this too may be handed any
        sequence of positions, mixed with views.  The same parts object again (parts
        are valid until the next move, so it is the same position) rewrites only the
        ``chosen`` slots.
        """
        if parts.player != self.player:
            raise ValueError("an encoder encodes one player's view")
        if parts.rules.players != self._players:
            raise ValueError(f"this encoder encodes a table of {self._players}")
        if chosen != self._chosen:
            move_counts(self._cells, _CHOSEN, self._chosen, chosen)
            self._chosen = tuple(chosen)
        if parts is not self._seen:
            self._read(parts)
            self._seen = parts
        return self._vector.copy()

    def _read(self, fields: _Fields) -> None:
        """Rewrite the slots whose fields changed (``fields``: those of
        :class:`.TableParts`, from a table, or a view's with its cards in lists)."""
        (
            me,
            rules,
            hand,
            pile,
            known,
            melds,
            owners,
            history,
            sizes,
            stock_count,
            pozzetti_left,
            took,
            _restricted,
            forbidden,
            totals,
            hand_number,
            dealer,
            current,
            phase,
            turn,
        ) = fields
        cells = self._cells
        if hand != self._hand:
            follow_counts(cells, _HAND, self._hand, hand)
        if pile != self._pile:
            follow_counts(cells, _PILE, self._pile, pile)
        four = self._players == 4
        theirs = _opponents_known(known, me) if four else known[1 - me]
        if theirs != self._known:
            follow_counts(cells, _KNOWN, self._known, theirs)
        team = self._team
        them = (me + 1) % self._players
        if four:
            partner = known[(me + 2) % 4]
            if partner != self._partner_known:
                follow_counts(cells, _PARTNER_KNOWN, self._partner_known, partner)
            for step in (1, 2, 3):
                cells[_SEAT_SIZES + step - 1] = sizes[(me + step) % 4] / HAND_SCALE
        if melds != self._melds or owners != self._owners:
            self._read_melds(melds, owners)
        # The one-hot slots (``_HOT_PLACES``): those that move within a turn each
        # compared with its own, the others together.
        hot = self._hot
        slot = _TOP + pile[-1] if pile else -1
        if slot != hot[0]:
            move_hot(self._cells, self._hot, 0, slot)
        slot = -1 if forbidden is None else _FORBIDDEN + forbidden
        if slot != hot[1]:
            move_hot(self._cells, self._hot, 1, slot)
        slot = -1 if phase == "over" else _PHASE + (phase == "play")
        if slot != hot[2]:
            move_hot(self._cells, self._hot, 2, slot)
        rest = (
            _TO_MOVE if current == me else -1,
            _DEALER if dealer == me else -1,
            _POZZETTI if 0 in pozzetti_left else -1,
            _POZZETTI + 1 if 1 in pozzetti_left else -1,
            _TOOK if took[team] else -1,
            _TOOK + 1 if took[1 - team] else -1,
        )
        if rest != self._hot_rest:
            for place, slot in enumerate(rest, 3):
                if slot != hot[place]:
                    move_hot(self._cells, self._hot, place, slot)
            self._hot_rest = rest
        if history is not self._log or len(history) != self._history:
            self._read_history(history)
        if rules is not self._rules:
            self._set_rules(rules)
        deck, stalemate = self._scales
        cells[_SCALARS] = sizes[me] / HAND_SCALE
        cells[_SCALARS + 1] = sizes[them] / HAND_SCALE
        cells[_SCALARS + 2] = stock_count / deck
        scaled = turn / stalemate
        cells[_SCALARS + 3] = scaled if scaled < 1.0 else 1.0
        if hand_number != self._hand_number or totals != self._totals:
            cells[_SCALARS + 4] = _clamp(hand_number / 50, 0.0, 1.0)
            cells[_SCALARS + 5] = _clamp(totals[me] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL)
            cells[_SCALARS + 6] = _clamp(totals[them] / TOTAL_SCALE, -MAX_TOTAL, MAX_TOTAL)
            self._hand_number = hand_number
            self._totals = totals[:]

    def _set_rules(self, rules: Rules) -> None:
        """The scales of the last slots, and the ``target`` slot, for ``rules``."""
        self._scales = (float(104 + rules.jokers), float(rules.stalemate_turns))
        target = rules.mode == "target"
        self._cells[_SCALARS + 7] = (
            _clamp(rules.target / TOTAL_SCALE, 0.0, MAX_TOTAL) if target else 0.0
        )
        self._rules = rules

    def _read_melds(self, melds: Sequence[Meld], owners: Sequence[int]) -> None:
        """Rewrite the slots of the melds that are not the ones kept in their place
        (melds are immutable values: the same object is the same meld).

        Melds are only added at the end or replaced by grown ones during a hand; any
        other change (a new hand, another position) clears the melds' slots first.
        """
        kept = self._melds
        count = len(kept)
        if len(melds) < count or list(owners[:count]) != self._owners:
            self._clear_melds()
            kept = self._melds
            count = 0
        me = self._team  # the melds' owners are teams
        cells = self._cells
        meld_slots = self._meld_slots
        rows = self._rows
        categories = self._categories
        their_counts = self._their_counts
        counted = False
        # Melds only laid since: the kept ones are equal (so are their slots).
        start = count if len(melds) > count and melds[:count] == kept else 0
        for index in range(start, len(melds)):
            meld = melds[index]
            if index < count:
                old = kept[index]
                if meld is old:
                    continue
                slot = meld_slots[index]
                offset = _THEIRS if slot < 0 else _YOURS
                for card in old.cards:
                    cells[offset + card] -= 1.0
            else:
                if owners[index] == me:
                    slot = self._mine
                    self._mine = slot + 1
                else:
                    slot = -1
                meld_slots.append(slot)
                rows.append(_NO_ROW)
                categories.append(-1)
                offset = _THEIRS if slot < 0 else _YOURS
            for card in meld.cards:
                cells[offset + card] += 1.0
            if slot < 0:
                category = _category(meld)
                if category != categories[index]:
                    if categories[index] >= 0:
                        their_counts[categories[index]] -= 1
                    if category >= 0:
                        their_counts[category] += 1
                    categories[index] = category
                    counted = True
            else:
                flags, tail = rows[index]
                for place in flags:
                    cells[place] = 0.0
                for place, _value in tail:
                    cells[place] = 0.0
                row = rows[index] = _meld_row(meld, slot)
                flags, tail = row
                for place in flags:
                    cells[place] = 1.0
                for place, value in tail:
                    cells[place] = value
        if counted:
            for place, number in enumerate(their_counts, _THEIR_MELDS):
                cells[place] = number / 4
        self._melds = list(melds)
        self._owners = list(owners)

    def _clear_melds(self) -> None:
        vector = self._vector
        vector[_YOURS : _YOURS + CARD_COUNT] = 0.0
        vector[_THEIRS : _THEIRS + CARD_COUNT] = 0.0
        vector[_PRESENT:_PHASE] = 0.0
        vector[_THEIR_MELDS : _THEIR_MELDS + 4] = 0.0
        vector[_TAIL:_SCALARS] = 0.0
        self._melds = []
        self._owners = []
        self._meld_slots = []
        self._rows = []
        self._categories = []
        self._mine = 0
        self._their_counts = [0, 0, 0, 0]

    def _read_history(self, history: Sequence[PileEntry] | History[PileEntry]) -> None:
        """Set the ``their_discards`` slots of the entries not read yet (all of them,
        after clearing the plane, when the history is not the one read so far
        extended).  The same table :class:`.History` again has only grown (it is
        append-only) and is read from where it was left."""
        length = self._history
        if history is self._log:
            entries = _since(history, length)
        elif length:
            entries = _since(history, length - 1)
            if entries and entries[0] is self._last_entry:
                entries = entries[1:]
            else:
                self._vector[_THEIR_DISCARDS : _THEIR_DISCARDS + CARD_COUNT] = 0.0
                if self._players == 4:
                    self._vector[_PARTNER_DISCARDS : _PARTNER_DISCARDS + CARD_COUNT] = 0.0
                entries = _since(history, 0)
                length = 0
        else:
            entries = _since(history, 0)
        cells = self._cells
        me = self.player
        team = self._team
        partner = (me + 2) % self._players if self._players == 4 else -1
        for entry in entries:
            who = entry.player
            if entry.kind == "discard" and who is not None:
                if who % 2 != team:
                    cells[_THEIR_DISCARDS + entry.cards[0]] = 1.0
                elif who == partner:
                    cells[_PARTNER_DISCARDS + entry.cards[0]] = 1.0
        self._history = length + len(entries)
        if entries:
            self._last_entry = entries[-1]
        self._log = history if isinstance(history, History) else None
