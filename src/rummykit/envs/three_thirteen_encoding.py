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
"""

from __future__ import annotations

import functools

import numpy as np

from rummykit.cards import CARD_COUNT
from rummykit.envs.layout import FloatArray, Layout
from rummykit.games.three_thirteen import Observation
from rummykit.games.three_thirteen.player_view import PlayerView
from rummykit.games.three_thirteen.rules import MAX_ROUND

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
    sizes = observation.hand_sizes
    totals = observation.totals
    rotated = at.rotated
    scalars = [sizes[seat] / MAX_HAND for seat in rotated]
    scalars += [min(max(totals[seat] / TOTAL_SCALE, 0.0), MAX_TOTAL) for seat in rotated]
    scalars += (
        observation.stock_count / observation.rules.deck_size,
        1.0 if observation.reshuffled else 0.0,
        observation.last_turns_remaining / (players - 1),
        min(observation.turn / getattr(observation.rules, "stalemate_turns", STALEMATE_TURNS), 1.0),
    )
    vector[at.scalars :] = scalars
    return vector
