"""What a Burraco bot reads off one observation, worked out once per decision.

:func:`read_table` turns a player's :class:`~rummykit.games.burraco.Observation` into a
:class:`TableReading`: the player's own melds and the opponent's, every card face that
would extend an opponent's meld, the cards the opponent is known to hold, how many
copies of each face are in sight, how close the opponent is to closing and whether the
hand may end soon.  The decision modules then look things up instead of scanning the
table again for every candidate card.

With four players (RULES.md section 3) "own" is the team's: the melds both partners
add to, the team's pozzetto, and a hand score that counts the partner's cards too (the
unseen ones at the mean).  "The opponent" is the other team: both opponents' melds,
the cards either is known to hold and what either threw lately; the seat after the
player (``opponent``), who may take the player's discard first, is always one of them.

This module reads the observation only: it never sees a game state, never chooses an
action and never uses randomness.

>>> from rummykit.games.burraco import Rules, State
>>> reading = read_table(State.new(Rules(), seed=3).observation(0))
>>> reading.threat, reading.hand_may_end_soon, len(reading.own_melds)
(0, False, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from rummykit.cards import BURRACO_POINTS, CARD_COUNT, JOKER, RANK_OF, Card
from rummykit.games.burraco import Observation, TableMeld
from rummykit.games.burraco.melds import Meld, extend, extending_cards
from rummykit.games.core import MeldError

ALL_FACES: Final[tuple[Card, ...]] = tuple(range(CARD_COUNT))
MEAN_CARD_POINTS: Final = 1020 / 106
"""The mean points of a card of the 106-card deck: the guess for an unseen card."""

THREAT_NONE: Final = 0
THREAT_RISING: Final = 1
"""The opponent is getting close to closing: past the pozzetto with a meld of five
cards or more, or holding a burraco with five cards or fewer in hand."""
THREAT_IMMINENT: Final = 2
"""The opponent may close on their next turn: past the pozzetto (or none left), with a
burraco and four cards or fewer in hand."""

_SHORT_HAND: Final = 4
_NEAR_BURRACO: Final = 5
_ENDING_STOCK: Final = 4
_ENDING_TURNS: Final = 6


def is_wild_face(card: Card) -> bool:
    """A joker or any 2: a card that may serve as a wild.

    >>> from rummykit.cards import parse_card
    >>> is_wild_face(parse_card("2s")), is_wild_face(parse_card("3s"))
    (True, False)
    """
    return card == JOKER or RANK_OF[card] == 2


@lru_cache(maxsize=16384)
def fitting_faces(meld: Meld) -> frozenset[Card]:
    """Every card face that can be added alone to ``meld`` (remembered per meld).

    >>> from rummykit.cards import parse_cards, format_cards
    >>> from rummykit.games.burraco.melds import arrange
    >>> format_cards(sorted(fitting_faces(arrange(parse_cards("Kc Kd Ks")))))
    '2c Kc 2d Kd 2h Kh 2s Ks Jk'
    """
    return frozenset(extending_cards(meld, ALL_FACES))


@lru_cache(maxsize=65536)
def extended(meld: Meld, card: Card) -> Meld | None:
    """``meld`` with ``card`` added as the table has it, or ``None`` if it does not fit
    (remembered per meld and card)."""
    if card not in fitting_faces(meld):
        return None
    try:
        return extend(meld, (card,))
    except MeldError:  # pragma: no cover - fitting_faces said it fits
        return None


@lru_cache(maxsize=16384)
def meld_score(meld: Meld) -> int:
    """What a meld scores at the end of a hand: its points and any burraco bonus."""
    if len(meld.cards) < 7:
        return meld.points
    return meld.points + (200 if meld.clean else 100)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableReading:
    """One player's view of the table, prepared for quick look-ups (see the module).

    ``visible_counts[face]`` counts the copies the player can see: in the own hand, in
    every meld, in the discard pile and among the opponent's known cards.
    ``opponent_fits`` holds every face that would extend one of the opponent's melds.
    ``threat`` is :data:`THREAT_NONE`, :data:`THREAT_RISING` or :data:`THREAT_IMMINENT`.
    """

    observation: Observation
    player: int
    opponent: int
    """The opponent who plays next (the first who may take the player's discard)."""
    opponents: tuple[int, ...]
    """Every seat of the other team (one with two players, two with four)."""
    partner: int | None
    """The partner's seat with four players, ``None`` with two."""
    team: int
    hand: tuple[Card, ...]
    own_melds: tuple[TableMeld, ...]
    opponent_melds: tuple[TableMeld, ...]
    own_set_ranks: frozenset[int]
    own_fits: frozenset[Card]
    opponent_fits: frozenset[Card]
    opponent_known: tuple[Card, ...]
    opponent_recent_discards: frozenset[Card]
    visible_counts: tuple[int, ...]
    own_has_burraco: bool
    opponent_has_burraco: bool
    can_refill: bool
    opponent_can_refill: bool
    threat: int
    hand_may_end_soon: bool
    forbidden_discard: Card | None

    @property
    def hand_points(self) -> int:
        """The points the own hand would cost if the hand ended now."""
        return sum(BURRACO_POINTS[c] for c in self.hand)

    @property
    def endgame(self) -> bool:
        """Whether to get points out of the hand now: the hand may end before long."""
        return self.threat == THREAT_IMMINENT or self.hand_may_end_soon

    @property
    def took_pozzetto(self) -> bool:
        """Whether the player's team has taken its pozzetto (either partner)."""
        return self.observation.took_pozzetto[self.team]

    def partner_points_guess(self) -> float:
        """The points the partner's hand would cost if the hand ended now (its known
        cards, the unseen ones at the mean); 0 with two players."""
        if self.partner is None:
            return 0.0
        known = self.observation.known_cards[self.partner]
        unseen = self.observation.hand_sizes[self.partner] - len(known)
        return sum(BURRACO_POINTS[c] for c in known) + unseen * MEAN_CARD_POINTS

    def own_score_now(self) -> float:
        """The own (team's) hand score if the hand ended now without closing."""
        melded = sum(meld_score(m.meld) for m in self.own_melds)
        penalty = 0 if self.took_pozzetto else 100
        return melded - self.hand_points - self.partner_points_guess() - penalty

    def opponent_score_guess(self) -> float:
        """The other team's hand score if the hand ended now, unseen cards at mean points."""
        observation = self.observation
        melded = sum(meld_score(m.meld) for m in self.opponent_melds)
        known = sum(BURRACO_POINTS[c] for c in self.opponent_known)
        unseen = sum(observation.hand_sizes[seat] for seat in self.opponents) - len(
            self.opponent_known
        )
        penalty = 0 if observation.took_pozzetto[observation.team_of(self.opponent)] else 100
        return melded - known - unseen * MEAN_CARD_POINTS - penalty


def read_table(observation: Observation) -> TableReading:
    """Prepare ``observation`` for a decision; ``TypeError`` if it is not a Burraco one."""
    if not isinstance(observation, Observation):
        raise TypeError(
            f"a Burraco bot needs a burraco.Observation, not {type(observation).__name__}"
        )
    player = observation.player
    team = observation.team
    seats = observation.num_players
    opponent = (player + 1) % seats
    opponents = tuple(seat for seat in range(seats) if observation.team_of(seat) != team)
    other_team = observation.team_of(opponent)
    partner = observation.partner
    own: list[TableMeld] = []
    theirs: list[TableMeld] = []
    set_ranks: set[int] = set()
    own_fits: set[Card] = set()
    opponent_fits: set[Card] = set()
    counts = [0] * CARD_COUNT
    for table_meld in observation.melds:
        meld = table_meld.meld
        for card in meld.cards:
            counts[card] += 1
        if table_meld.owner == team:
            own.append(table_meld)
            own_fits.update(fitting_faces(meld))
            if meld.kind == "set":
                set_ranks.add(meld.rank)
        else:
            theirs.append(table_meld)
            opponent_fits.update(fitting_faces(meld))
    for card in observation.hand:
        counts[card] += 1
    for card in observation.discard_pile:
        counts[card] += 1
    known = tuple(card for seat in opponents for card in observation.known_cards[seat])
    for card in known:
        counts[card] += 1
    if partner is not None:
        for card in observation.known_cards[partner]:
            counts[card] += 1
    recent: set[Card] = set()
    for entry in reversed(observation.discard_history):
        if entry.kind == "take":
            break
        if entry.kind == "discard" and entry.player in opponents:
            recent.add(entry.cards[0])
            if len(recent) >= 3 * len(opponents):
                break
    pozzetto_left = bool(observation.pozzetti_left)
    can_refill = pozzetto_left and not observation.took_pozzetto[team]
    opponent_can_refill = pozzetto_left and not observation.took_pozzetto[other_team]
    own_has_burraco = any(m.meld.is_burraco for m in own)
    opponent_has_burraco = any(m.meld.is_burraco for m in theirs)
    # either opponent may close: the one with fewer cards is the nearer
    opponent_size = min(observation.hand_sizes[seat] for seat in opponents)
    opponent_near_burraco = any(len(m.meld.cards) >= _NEAR_BURRACO for m in theirs)
    if not opponent_can_refill and opponent_has_burraco and opponent_size <= _SHORT_HAND:
        threat = THREAT_IMMINENT
    elif (not opponent_can_refill and opponent_near_burraco) or (
        opponent_has_burraco and opponent_size <= _SHORT_HAND + 1
    ):
        threat = THREAT_RISING
    else:
        threat = THREAT_NONE
    turns_left = observation.rules.stalemate_turns - observation.turn
    ending = (not pozzetto_left and observation.stock_count <= _ENDING_STOCK) or (
        turns_left <= _ENDING_TURNS
    )
    return TableReading(
        observation=observation,
        player=player,
        opponent=opponent,
        opponents=opponents,
        partner=partner,
        team=team,
        hand=observation.hand,
        own_melds=tuple(own),
        opponent_melds=tuple(theirs),
        own_set_ranks=frozenset(set_ranks),
        own_fits=frozenset(own_fits),
        opponent_fits=frozenset(opponent_fits),
        opponent_known=known,
        opponent_recent_discards=frozenset(recent),
        visible_counts=tuple(counts),
        own_has_burraco=own_has_burraco,
        opponent_has_burraco=opponent_has_burraco,
        can_refill=can_refill,
        opponent_can_refill=opponent_can_refill,
        threat=threat,
        hand_may_end_soon=ending,
        forbidden_discard=observation.forbidden_discard,
    )
