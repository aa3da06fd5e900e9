"""The Three-Thirteen observation vector: what one player sees, as ``float32`` slots.

Built from ``State.observation(player)`` (or the same fields of the cheaper
``State.player_view``) and nothing else, so it cannot show a hidden card. Seats are
*relative*: seat ``r`` is the player ``r`` places to the left of the observer (``0`` is
the observer). Card blocks have one slot per face, in card-code order (``Ac 2c ... Kc Ad
... Ks Jk``: ``suit * 13 + rank - 1``, the joker 52).

For ``P`` players the vector holds, in this order (``layout(P).table()`` prints it with
slot numbers; docs/envs.md shows it for two players):

=================  ======  ==========================================================
block              slots   meaning
=================  ======  ==========================================================
``hand``           53      copies of each face in the observer's hand
``discard_top``    53      the top card of the discard pile (one-hot; empty pile: 0)
``discard_pile``   53      copies of each face in the whole discard pile
``known_r``        53      r = 1..P-1: faces seat r was seen to take from the pile
                           and still holds
``discarded_r``    53      r = 0..P-1: 1 for each face seat r discarded this round
                           (the going-out discard included)
``melds``          53      cards laid down by the player who went out this round
``wild_rank``      13      the round's wild rank (one-hot, ace..king)
``round``          11      the round number (one-hot, 1..11)
``phase``          2       draw, discard (one-hot; both 0 once the game is over)
``current``        P       whose turn it is (one-hot by relative seat)
``dealer``         P       the dealer (one-hot by relative seat)
``went_out``       P       who went out this round, if anyone (one-hot)
``hand_sizes``     P       cards in each seat's hand / 14
``totals``         P       each seat's running total / 100 (fewer is better)
``stock``          1       cards in the stock / deck size
``reshuffled``     1       1 once this round's one reshuffle has happened
``last_turns``     1       last turns still to play after someone went out / (P - 1)
``turn``           1       turns played this round / 200 (the stalemate limit)
=================  ======  ==========================================================

Two players: 411 slots; three: 522; four: 633.

:func:`encode` builds a vector from scratch; an :class:`Encoder` keeps one observer's
vector and rewrites only the slots that changed since its last call (what the
environments use after every step), giving exactly the same vector.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from rummykit.cards import CARD_COUNT, Card
from rummykit.envs.delta import cells_of, follow_counts, move_counts, move_hot
from rummykit.envs.layout import FloatArray, Layout
from rummykit.games.three_thirteen import Observation
from rummykit.games.three_thirteen.player_view import PlayerView, TableParts
from rummykit.games.three_thirteen.rules import MAX_ROUND
from rummykit.games.three_thirteen.table import TableMeld

STALEMATE_TURNS = 200
MAX_COPIES = 4  # two decks with two jokers each: four jokers
MAX_HAND = 14
TOTAL_SCALE = 100.0
MAX_TOTAL = 25.0  # eleven rounds of at most 14 cards at 15 points, over 100


@functools.cache
def layout(players: int) -> Layout:
    """The slots of the vector for a table of ``players``."""
    grid = Layout()
    grid.add("hand", CARD_COUNT, high=MAX_COPIES, meaning="copies of each face in your hand")
    grid.add("discard_top", CARD_COUNT, high=1, meaning="the top card of the discard pile")
    grid.add("discard_pile", CARD_COUNT, high=MAX_COPIES, meaning="copies in the discard pile")
    for seat in range(1, players):
        grid.add(
            f"known_{seat}",
            CARD_COUNT,
            high=MAX_COPIES,
            meaning=f"cards seat {seat} took from the pile and still holds",
        )
    for seat in range(players):
        grid.add(
            f"discarded_{seat}",
            CARD_COUNT,
            high=1,
            meaning=f"faces seat {seat} discarded this round",
        )
    grid.add("melds", CARD_COUNT, high=MAX_COPIES, meaning="cards laid down by who went out")
    grid.add("wild_rank", 13, high=1, meaning="the wild rank, ace..king (one-hot)")
    grid.add("round", MAX_ROUND, high=1, meaning="the round, 1..11 (one-hot)")
    grid.add("phase", 2, high=1, meaning="draw, discard (one-hot)")
    grid.add("current", players, high=1, meaning="whose turn, by relative seat")
    grid.add("dealer", players, high=1, meaning="the dealer, by relative seat")
    grid.add("went_out", players, high=1, meaning="who went out this round")
    grid.add("hand_sizes", players, high=1, meaning="cards held by each seat / 14")
    grid.add("totals", players, high=MAX_TOTAL, meaning="running totals / 100")
    grid.add("stock", 1, high=1, meaning="cards in the stock / deck size")
    grid.add("reshuffled", 1, high=1, meaning="the round's reshuffle has happened")
    grid.add("last_turns", 1, high=1, meaning="last turns left / (players - 1)")
    grid.add("turn", 1, high=1, meaning="turns played this round / 200")
    return grid


class DiscardMemory:
    """Which faces each seat discarded this round, read from the observation's history.

    The engine's history grows by appending the same move objects, so the planes are
    kept and extended with the new moves only; any other history is read from the
    start.  This is a cache of a pure function of ``discard_history`` (seen from one
    observer): it never holds anything the history does not show.
    """

    __slots__ = ("_last", "_length", "_me", "planes")

    def __init__(self) -> None:
        self._length = 0
        self._last: object = None
        self._me = -1
        self.planes = np.zeros((0, CARD_COUNT), dtype=np.float32)

    def read(self, observation: Observation | PlayerView) -> FloatArray:
        """One row of 53 per relative seat: 1 where that seat discarded the face."""
        history = observation.discard_history
        players = observation.rules.players
        me = observation.player
        length = self._length
        if (
            me != self._me
            or len(self.planes) != players
            or len(history) < length
            or (length and history[length - 1] is not self._last)
        ):
            self.planes = np.zeros((players, CARD_COUNT), dtype=np.float32)
            self._me = me
            length = 0
        planes = self.planes
        for move in history[length:]:
            if move.kind != "take":
                planes[(move.player - me) % players, move.card] = 1.0
        self._length = len(history)
        self._last = history[-1] if history else None
        return planes


class _Offsets:
    """Where each seat's slots are, seen from one observer (precomputed per table)."""

    __slots__ = (
        "current",
        "dealer",
        "discard_pile",
        "discard_top",
        "discarded",
        "hand",
        "known",
        "melds",
        "phase",
        "rotated",
        "round",
        "scalars",
        "size",
        "went_out",
        "wild_rank",
    )

    def __init__(self, grid: Layout, players: int, me: int) -> None:
        blocks = grid.blocks
        relative = [(seat - me) % players for seat in range(players)]
        self.size = grid.size
        self.hand = blocks["hand"].offset
        self.discard_top = blocks["discard_top"].offset
        self.discard_pile = blocks["discard_pile"].offset
        self.known = tuple(blocks[f"known_{r}"].offset if r else -1 for r in relative)
        self.discarded = blocks["discarded_0"].offset
        self.melds = blocks["melds"].offset
        self.wild_rank = blocks["wild_rank"].offset - 1
        self.round = blocks["round"].offset - 1
        self.phase = blocks["phase"].offset
        self.current = tuple(blocks["current"].offset + r for r in relative)
        self.dealer = tuple(blocks["dealer"].offset + r for r in relative)
        self.went_out = tuple(blocks["went_out"].offset + r for r in relative)
        self.rotated = tuple((me + r) % players for r in range(players))
        self.scalars = blocks["hand_sizes"].offset
        assert self.scalars + 2 * players + 4 == grid.size, "the scalars end the vector"


@functools.cache
def _offsets(players: int, me: int) -> _Offsets:
    return _Offsets(layout(players), players, me)


def encode(
    observation: Observation | PlayerView, memory: DiscardMemory | None = None
) -> FloatArray:
    """The vector of ``observation`` (see the module docstring for every slot), or of
    the engine's cheaper ``State.player_view``, which gives the same vector."""
    players = observation.rules.players
    me = observation.player
    at = _offsets(players, me)
    counts: list[int] = []
    add = counts.extend
    add(map(at.hand.__add__, observation.hand))
    pile = observation.discard_pile
    if pile:
        counts.append(at.discard_top + pile[-1])
        add(map(at.discard_pile.__add__, pile))
    for seat, cards in enumerate(observation.known_cards):
        if cards and seat != me:
            add(map(at.known[seat].__add__, cards))
    for meld in observation.melds:
        add(map(at.melds.__add__, meld.cards))
    counts.append(at.wild_rank + observation.wild_rank)
    counts.append(at.round + observation.round_number)
    phase = observation.phase
    if phase != "over":
        counts.append(at.phase + (phase != "draw"))
    current = observation.current_player
    if current is not None:
        counts.append(at.current[current])
    counts.append(at.dealer[observation.dealer])
    if observation.went_out is not None:
        counts.append(at.went_out[observation.went_out])
    vector = np.bincount(counts, minlength=at.size).astype(np.float32)
    planes = (DiscardMemory() if memory is None else memory).read(observation)
    vector[at.discarded : at.discarded + planes.size] = planes.ravel()
    vector[at.scalars :] = _scalars(observation, at)
    return vector


def _total(total: int) -> float:
    """A running total's slot."""
    scaled = total / TOTAL_SCALE
    return 0.0 if scaled < 0.0 else MAX_TOTAL if scaled > MAX_TOTAL else scaled


def _tail(observation: Observation | PlayerView) -> tuple[float, float, float, float]:
    """The last four slots: ``stock``, ``reshuffled``, ``last_turns``, ``turn``."""
    rules = observation.rules
    turn = observation.turn / getattr(rules, "stalemate_turns", STALEMATE_TURNS)
    return (
        observation.stock_count / rules.deck_size,
        1.0 if observation.reshuffled else 0.0,
        observation.last_turns_remaining / (rules.players - 1),
        turn if turn < 1.0 else 1.0,
    )


def _scalars(observation: Observation | PlayerView, at: _Offsets) -> list[float]:
    """The slots from ``hand_sizes`` to the end, in order."""
    sizes = observation.hand_sizes
    totals = observation.totals
    scalars = [sizes[seat] / MAX_HAND for seat in at.rotated]
    scalars += [_total(totals[seat]) for seat in at.rotated]
    scalars += _tail(observation)
    return scalars


class Encoder:
    """One observer's vector, kept from call to call: :meth:`encode` rewrites only the
    slots whose fields changed since its previous call (:mod:`.delta`) and returns a
    copy, exactly :func:`encode` of the same observation or view.

    It compares fields by value, so any sequence of positions may be encoded (another
    game, an earlier position): the kept fields are only a cache of the vector.
    """

    __slots__ = (
        "_cells",
        "_hand",
        "_history",
        "_hot",
        "_known",
        "_last_move",
        "_meld_cards",
        "_melds",
        "_offsets",
        "_pile",
        "_rules",
        "_scale",
        "_sizes",
        "_totals",
        "_vector",
        "player",
        "players",
    )

    def __init__(self, players: int, player: int) -> None:
        self.players = players
        self.player = player
        self._offsets = _offsets(players, player)
        self._vector = np.zeros(self._offsets.size, dtype=np.float32)
        self._cells = cells_of(self._vector)
        # Copies of the cards read, kept equal to them (:func:`.follow_counts`).
        self._hand: list[Card] = []
        self._pile: list[Card] = []
        self._known: list[list[Card]] = [[] for _ in range(players)]
        self._melds: list[TableMeld] = []
        self._meld_cards: tuple[int, ...] = ()
        self._sizes: tuple[int, ...] = ()
        self._totals: Sequence[int] = ()
        self._history = 0
        self._last_move: object = None
        self._rules: object = None
        self._hot = [-1] * 7
        self._scale = (1.0, 1.0, 1.0)

    def __reduce__(self) -> tuple[type[Encoder], tuple[int, int]]:
        """A copy or a pickle starts empty (the kept vector is only a cache)."""
        return Encoder, (self.players, self.player)

    def encode(self, observation: Observation | PlayerView) -> FloatArray:
        """The vector of ``observation`` (of this encoder's player and table size):
        :meth:`encode_parts` of its fields, the pile moves read again from the start
        (they are new tuples each call)."""
        return self.encode_parts(
            TableParts(
                observation.player,
                observation.rules,
                list(observation.hand),
                list(observation.discard_pile),
                [list(cards) for cards in observation.known_cards],
                list(observation.melds),
                [(move.player, move.kind, move.card) for move in observation.discard_history],
                observation.hand_sizes,
                list(observation.totals),
                observation.round_number,
                observation.wild_rank,
                observation.dealer,
                observation.current_player,
                observation.phase,
                observation.went_out,
                observation.stock_count,
                observation.reshuffled,
                observation.last_turns_remaining,
                observation.turn,
            )
        )

    def encode_parts(self, parts: TableParts) -> FloatArray:
        """The vector of ``State.table_parts(player)``: what :meth:`encode` gives for the
        view of the same position, read from the round's own lists without a view.

        It keeps copies of the lists and compares them, so this too may be handed any
        sequence of positions; interleaved with :meth:`encode` it rewrites more slots.
        """
        (
            player,
            rules,
            hand,
            pile,
            taken,
            melds,
            history,
            sizes,
            totals,
            round_number,
            wild_rank,
            dealer,
            current,
            phase,
            went_out,
            stock_count,
            reshuffled,
            last_turns,
            turn,
        ) = parts
        if player != self.player or rules.players != self.players:
            raise ValueError("an encoder encodes one player's view of one table size")
        self._read_cards(hand, pile, taken, melds)
        at = self._offsets
        cells = self._cells
        # The one-hot slots (wild rank, round, discard top, phase, current, dealer, went
        # out; -1 where that block has none set), each compared with its own.
        hot = self._hot
        slot = at.wild_rank + wild_rank
        if slot != hot[0]:
            move_hot(cells, hot, 0, slot)
        slot = at.round + round_number
        if slot != hot[1]:
            move_hot(cells, hot, 1, slot)
        slot = at.discard_top + pile[-1] if pile else -1
        if slot != hot[2]:
            move_hot(cells, hot, 2, slot)
        slot = -1 if phase == "over" else at.phase + (phase != "draw")
        if slot != hot[3]:
            move_hot(cells, hot, 3, slot)
        slot = -1 if current is None else at.current[current]
        if slot != hot[4]:
            move_hot(cells, hot, 4, slot)
        slot = at.dealer[dealer]
        if slot != hot[5]:
            move_hot(cells, hot, 5, slot)
        slot = -1 if went_out is None else at.went_out[went_out]
        if slot != hot[6]:
            move_hot(cells, hot, 6, slot)
        if len(history) != self._history or (history and history[-1] is not self._last_move):
            self._read_moves(history)
        if sizes != self._sizes:
            slot = at.scalars
            for seat in at.rotated:
                cells[slot] = sizes[seat] / MAX_HAND
                slot += 1
            self._sizes = sizes
        if totals != self._totals:
            slot = at.scalars + self.players
            for seat in at.rotated:
                cells[slot] = _total(totals[seat])
                slot += 1
            self._totals = totals[:]
        if rules is not self._rules:
            stalemate = getattr(rules, "stalemate_turns", STALEMATE_TURNS)
            self._scale = (rules.deck_size, rules.players - 1, stalemate)
            self._rules = rules
        deck, others, stalemate = self._scale
        slot = at.scalars + 2 * self.players
        cells[slot] = stock_count / deck
        cells[slot + 1] = 1.0 if reshuffled else 0.0
        cells[slot + 2] = last_turns / others
        scaled = turn / stalemate
        cells[slot + 3] = scaled if scaled < 1.0 else 1.0
        return self._vector.copy()

    def _read_cards(
        self, hand: list[Card], pile: list[Card], taken: list[list[Card]], melds: list[TableMeld]
    ) -> None:
        """Follow the card blocks (hand, discard pile, seen cards, melds) from the lists
        given, which are compared with the encoder's own copies and never kept."""
        at = self._offsets
        cells = self._cells
        if hand != self._hand:
            follow_counts(cells, at.hand, self._hand, hand)
        if pile != self._pile:
            follow_counts(cells, at.discard_pile, self._pile, pile)
        known = self._known
        if taken != known:
            for seat, cards in enumerate(taken):
                if cards != known[seat]:
                    if seat == self.player:  # not shown: the hand holds them
                        known[seat][:] = cards
                    else:
                        follow_counts(cells, at.known[seat], known[seat], cards)
        if melds != self._melds:
            laid = tuple(card for meld in melds for card in meld.cards)
            move_counts(cells, at.melds, self._meld_cards, laid)
            self._melds = melds[:]
            self._meld_cards = laid

    def _read_moves(self, history: Sequence[tuple[int, str, int]]) -> None:
        """Set the ``discarded_r`` slots of the round's ``(player, kind, card)`` moves not
        read yet (all of them, after clearing the planes, when the moves are not those read
        so far extended; the caller has seen that they differ)."""
        length = self._history
        size = len(history)
        start = self._offsets.discarded
        if size < length or (length and history[length - 1] is not self._last_move):
            self._vector[start : start + self.players * CARD_COUNT] = 0.0
            length = 0
        cells = self._cells
        players = self.players
        me = self.player
        for player, kind, card in history[length:]:
            if kind != "take":
                cells[start + (player - me) % players * CARD_COUNT + card] = 1.0
        self._history = size
        self._last_move = history[-1] if size else None
