"""The cards of one Burraco hand in play and whose turn it is: the mutable table.

A :class:`Table` holds where every card is (hands, melds, stock, discard pile,
pozzetti), the turn position and the little public memory the rules need (which team took a
pozzetto, the one-card pile restriction, the cards each player was seen to take with
the pile).  Two or four players sit at it (``len(hands)``); the melds, the pozzetto
taken, a burraco and the sets by rank belong to a team (``teams.team_of``: with two
players a team is a player).  It offers plain mutations; it never checks legality (that is
``legality.py``) and never scores.  Melds are immutable values, so a clone shares them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummykit.cards import Card
from rummykit.games.burraco.melds import Meld
from rummykit.games.burraco.teams import TEAMS
from rummykit.games.history import History

Phase = Literal["draw", "play"]
PileEntryKind = Literal["start", "discard", "take"]

HAND_SIZE = 11
POZZETTO_SIZE = 11


@dataclass(frozen=True, slots=True)
class PileEntry:
    """One line of the discard pile's history in this hand.

    ``"start"``: the card turned up at the deal (``player`` is ``None``); ``"discard"``:
    ``player`` discarded ``cards[0]``; ``"take"``: ``player`` took the whole pile.
    """

    kind: PileEntryKind
    player: int | None
    cards: tuple[Card, ...]


class Table:
    """Mutable state of the hand being played (see the module docstring)."""

    __slots__ = (
        "dealer",
        "discard_history",
        "discard_pile",
        "hand_number",
        "hands",
        "has_burraco",
        "known",
        "melds",
        "owners",
        "phase",
        "player",
        "pozzetti",
        "restricted",
        "restricted_card",
        "set_ranks",
        "stock",
        "took_pozzetto",
        "turn",
    )

    def __init__(
        self,
        *,
        hand_number: int,
        dealer: int,
        hands: list[list[Card]],
        pozzetti: list[tuple[Card, ...] | None],
        discard_pile: list[Card],
        stock: list[Card],
    ) -> None:
        self.hand_number = hand_number
        self.dealer = dealer
        self.player = (dealer + 1) % len(hands)
        self.phase: Phase = "draw"
        self.turn = 0
        self.hands = hands
        self.pozzetti = pozzetti
        self.discard_pile = discard_pile
        self.stock = stock
        self.melds: list[Meld] = []
        self.owners: list[int] = []  # the team of each meld
        self.took_pozzetto = [False] * TEAMS
        self.has_burraco = [False] * TEAMS
        self.set_ranks = [0] * TEAMS  # bit r set: the team has a set of rank r
        self.known: list[list[Card]] = [[] for _ in hands]
        self.restricted_card: Card | None = None
        self.restricted = 0
        self.discard_history = History([PileEntry("start", None, tuple(discard_pile))])

    def clone(self) -> Table:
        twin = Table.__new__(Table)
        twin.hand_number = self.hand_number
        twin.dealer = self.dealer
        twin.player = self.player
        twin.phase = self.phase
        twin.turn = self.turn
        twin.hands = [list(hand) for hand in self.hands]
        twin.pozzetti = list(self.pozzetti)
        twin.discard_pile = list(self.discard_pile)
        twin.stock = list(self.stock)
        twin.melds = list(self.melds)
        twin.owners = list(self.owners)
        twin.took_pozzetto = list(self.took_pozzetto)
        twin.has_burraco = list(self.has_burraco)
        twin.set_ranks = list(self.set_ranks)
        twin.known = [list(cards) for cards in self.known]
        twin.restricted_card = self.restricted_card
        twin.restricted = self.restricted
        twin.discard_history = self.discard_history.copy()
        return twin

    # -----------------------------------------------------------------------------------
    # Questions

    def can_refill(self, player: int) -> bool:
        """Would ``player`` take a pozzetto if their hand became empty now?  Not once
        their team has taken one."""
        return not self.took_pozzetto[player % TEAMS] and any(p is not None for p in self.pozzetti)

    def pozzetti_left(self) -> tuple[int, ...]:
        return tuple([i for i, cards in enumerate(self.pozzetti) if cards is not None])

    def locations(self) -> dict[str, list[Card]]:
        places: dict[str, list[Card]] = {}
        for player, hand in enumerate(self.hands):
            places[f"hand/{player}"] = list(hand)
        for meld_id, meld in enumerate(self.melds):
            places[f"meld/{meld_id}"] = list(meld.cards)
        places["stock"] = list(self.stock)
        places["discard_pile"] = list(self.discard_pile)
        for index, cards in enumerate(self.pozzetti):
            if cards is not None:
                places[f"pozzetto/{index}"] = list(cards)
        return places

    # -----------------------------------------------------------------------------------
    # Mutations (no checks: the caller has checked)

    def draw(self) -> Card:
        card = self.stock.pop()
        self.hands[self.player].append(card)
        self.phase = "play"
        return card

    def take_pile(self) -> tuple[Card, ...]:
        player = self.player
        cards = tuple(self.discard_pile)
        self.discard_pile = []
        self.hands[player].extend(cards)
        self.known[player].extend(cards)
        self.discard_history.append(PileEntry("take", player, cards))
        if len(cards) == 1:
            self.restricted_card = cards[0]
            self.restricted = 1
        self.phase = "play"
        return cards

    def _play_from_hand(self, cards: tuple[Card, ...]) -> None:
        player = self.player
        hand = self.hands[player]
        known = self.known[player]
        for card in cards:
            hand.remove(card)
            if card in known:
                known.remove(card)
        if self.restricted and self.restricted_card in cards:
            self.restricted = 0
            self.restricted_card = None

    def add_meld(self, meld: Meld) -> int:
        team = self.player % TEAMS
        self._play_from_hand(meld.cards)
        self.melds.append(meld)
        self.owners.append(team)
        if meld.kind == "set":
            self.set_ranks[team] |= 1 << meld.rank
        if meld.is_burraco:
            self.has_burraco[team] = True
        return len(self.melds) - 1

    def replace_meld(self, meld_id: int, added: tuple[Card, ...], meld: Meld) -> None:
        self._play_from_hand(added)
        self.melds[meld_id] = meld
        if meld.is_burraco:
            self.has_burraco[self.player % TEAMS] = True

    def discard(self, card: Card) -> None:
        player = self.player
        self.hands[player].remove(card)
        known = self.known[player]
        if card in known:
            known.remove(card)
        self.discard_pile.append(card)
        self.discard_history.append(PileEntry("discard", player, (card,)))
        self.restricted_card = None
        self.restricted = 0

    def take_pozzetto(self) -> tuple[int, tuple[Card, ...]]:
        """The current player takes the first pozzetto left into their (empty) hand, for
        their team."""
        index = self.pozzetti_left()[0]
        cards = self.pozzetti[index]
        assert cards is not None
        self.pozzetti[index] = None
        self.hands[self.player].extend(cards)
        self.took_pozzetto[self.player % TEAMS] = True
        return index, cards

    def pozzetto_to_stock(self) -> int:
        """The first pozzetto left becomes the stock (its last card is the top)."""
        index = self.pozzetti_left()[0]
        cards = self.pozzetti[index]
        assert cards is not None
        self.pozzetti[index] = None
        self.stock = list(cards)
        return index

    def pass_turn(self) -> None:
        """The next player's turn begins, clockwise (``turn`` is counted by the caller)."""
        self.player = (self.player + 1) % len(self.hands)
        self.phase = "draw"
