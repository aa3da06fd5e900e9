"""The round being played: where its cards are, whose turn it is and the moves of a turn.

Hands are shown sorted by card code, which is the order of ``cards.sorted_cards`` (suit,
then rank, the joker last).

A :class:`Round` keeps plain lists (hands, stock, discard pile; the stock's top and the
pile's top are the ends of their lists) so that moves and copies stay cheap.  Its move
methods carry out what ``State.check`` has already allowed: they never check legality,
never score a round (:mod:`.scoring` does) and never use the ``random`` module (the one
reshuffle a round allows comes from :mod:`.dealing`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from rummykit.cards import Card
from rummykit.games.randomness import SeedStream
from rummykit.games.three_thirteen.arrange import (
    arrange,
    classify_meld,
    going_out_discards_unchecked,
)
from rummykit.games.three_thirteen.dealing import deal_round, reshuffle
from rummykit.games.three_thirteen.events import (
    Discarded,
    DiscardTaken,
    Event,
    HandDealt,
    StockDrawn,
    StockReshuffled,
    WentOut,
)
from rummykit.games.three_thirteen.rules import Rules, wild_rank
from rummykit.games.three_thirteen.table import PileMove, PileMoveKind, TableMeld

TurnPhase = Literal["draw", "discard"]


class Round:
    """The cards and turn of one round (mutable; owned by a ``State``)."""

    __slots__ = (
        "current",
        "dealer",
        "discard_pile",
        "going_out_cache",
        "hands",
        "history",
        "history_view",
        "last_turns",
        "number",
        "phase",
        "players",
        "reshuffled",
        "stock",
        "stock_may_hold",
        "table_melds",
        "taken",
        "turn",
        "went_out",
        "wild_rank",
    )

    number: int
    wild_rank: int
    dealer: int
    players: int
    hands: list[list[Card]]
    stock: list[Card]
    discard_pile: list[Card]
    table_melds: list[TableMeld]
    taken: list[list[Card]]
    """Per player, the cards seen taken from the discard pile and still held."""
    history: list[tuple[int, PileMoveKind, Card]]
    history_view: tuple[PileMove, ...]
    """``history`` as values, built up as observations ask for it (shared by copies)."""
    current: int
    phase: TurnPhase
    went_out: int | None
    last_turns: int
    reshuffled: bool
    stock_may_hold: tuple[tuple[Card, ...], ...] | None
    """After the reshuffle, per player, the cards the stock may hold as far as that
    player knows: those reshuffled into it (sorted) but the ones they drew since."""
    turn: int
    going_out_cache: tuple[Card, ...] | None
    """The current player's going-out discards, once computed in a discard phase."""

    def __init__(
        self,
        *,
        number: int,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        discard_pile: Sequence[Card],
        current: int,
        phase: TurnPhase = "draw",
        table_melds: Sequence[TableMeld] = (),
        went_out: int | None = None,
        last_turns: int = 0,
        reshuffled: bool = False,
        stock_may_hold: Sequence[Sequence[Card]] | None = None,
        taken: Sequence[Sequence[Card]] | None = None,
        history: Sequence[PileMove] = (),
        turn: int = 0,
    ) -> None:
        self.number = number
        self.wild_rank = wild_rank(number)
        self.dealer = dealer
        self.players = len(hands)
        self.hands = [list(hand) for hand in hands]
        self.stock = list(stock)
        self.discard_pile = list(discard_pile)
        self.table_melds = list(table_melds)
        self.taken = [[] for _ in hands] if taken is None else [list(cards) for cards in taken]
        self.history = [(move.player, move.kind, move.card) for move in history]
        self.history_view = tuple(history)
        self.current = current
        self.phase = phase
        self.went_out = went_out
        self.last_turns = last_turns
        self.reshuffled = reshuffled
        self.stock_may_hold = (
            None if stock_may_hold is None else tuple(tuple(cards) for cards in stock_may_hold)
        )
        self.turn = turn
        self.going_out_cache = None

    @classmethod
    def deal(
        cls, *, rules: Rules, seed: int, number: int, dealer: int, deck: Sequence[Card] | None
    ) -> Round:
        """Deal round ``number`` (see :mod:`.dealing`); play starts left of the dealer."""
        deal = deal_round(rules=rules, seed=seed, round_number=number, dealer=dealer, deck=deck)
        return cls(
            number=number,
            dealer=dealer,
            hands=deal.hands,
            stock=deal.stock,
            discard_pile=deal.discard_pile,
            current=(dealer + 1) % rules.players,
        )

    def dealt_event(self, *, hand_number: int) -> HandDealt:
        return HandDealt(
            hand_number=hand_number,
            round_number=self.number,
            wild_rank=self.wild_rank,
            dealer=self.dealer,
            first_player=self.current,
            hands=tuple(tuple(sorted(hand)) for hand in self.hands),
            discard_pile=tuple(self.discard_pile),
            stock_count=len(self.stock),
        )

    def copy(self) -> Round:
        """An independent copy: every list copied, immutable values shared."""
        other = object.__new__(Round)
        other.number = self.number
        other.wild_rank = self.wild_rank
        other.dealer = self.dealer
        other.players = self.players
        other.hands = [hand[:] for hand in self.hands]
        other.stock = self.stock[:]
        other.discard_pile = self.discard_pile[:]
        other.table_melds = self.table_melds[:]
        other.taken = [cards[:] for cards in self.taken]
        other.history = self.history[:]
        other.history_view = self.history_view
        other.current = self.current
        other.phase = self.phase
        other.went_out = self.went_out
        other.last_turns = self.last_turns
        other.reshuffled = self.reshuffled
        other.stock_may_hold = self.stock_may_hold
        other.turn = self.turn
        other.going_out_cache = self.going_out_cache
        return other

    # -----------------------------------------------------------------------------------
    # Moves (already checked by the state)

    def going_out_discards(self, *, ace_high: bool, wild_only_melds: bool) -> tuple[Card, ...]:
        """The cards the current player may discard to go out (computed once a phase)."""
        cache = self.going_out_cache
        if cache is None:
            cache = going_out_discards_unchecked(
                self.hands[self.current], self.wild_rank, ace_high, wild_only_melds
            )
            self.going_out_cache = cache
        return cache

    def draw_stock(self) -> StockDrawn:
        player = self.current
        card = self.stock.pop()
        self.hands[player].append(card)
        self.phase = "discard"
        self.going_out_cache = None
        may_hold = self.stock_may_hold
        if may_hold is not None and card in may_hold[player]:
            mine = list(may_hold[player])
            mine.remove(card)
            self.stock_may_hold = (*may_hold[:player], tuple(mine), *may_hold[player + 1 :])
        return StockDrawn(player, card)

    def take_discard(self) -> DiscardTaken:
        player = self.current
        card = self.discard_pile.pop()
        self.hands[player].append(card)
        self.taken[player].append(card)
        self.history.append((player, "take", card))
        self.phase = "discard"
        self.going_out_cache = None
        return DiscardTaken(player, card)

    def discard(self, card: Card) -> Discarded:
        player = self.current
        self.hands[player].remove(card)
        taken = self.taken[player]
        if card in taken:
            taken.remove(card)
        self.discard_pile.append(card)
        self.history.append((player, "discard", card))
        if self.went_out is not None:
            self.last_turns -= 1
        return Discarded(player, card)

    def go_out(self, card: Card, *, ace_high: bool, wild_only_melds: bool) -> WentOut:
        """Lay every card but ``card`` down in melds (ids follow those on the table)."""
        player = self.current
        hand = self.hands[player]
        hand.remove(card)
        wild = self.wild_rank
        arrangement = arrange(
            hand, wild_rank=wild, ace_high=ace_high, wild_only_melds=wild_only_melds
        )
        first_id = len(self.table_melds)
        melds = tuple(
            TableMeld(
                meld_id=first_id + index,
                owner=player,
                kind=classify_meld(
                    cards, wild_rank=wild, ace_high=ace_high, wild_only_melds=wild_only_melds
                ),
                cards=tuple(cards),
            )
            for index, cards in enumerate(arrangement.melds)
        )
        self.table_melds.extend(melds)
        hand.clear()
        self.taken[player].clear()
        self.discard_pile.append(card)
        self.history.append((player, "out", card))
        self.went_out = player
        self.last_turns = self.players - 1
        return WentOut(player=player, melds=melds, discard=card)

    def end_turn(self, *, seed: int, stalemate_turns: int, events: list[Event]) -> bool:
        """Close the turn: pass it on, reshuffling an empty stock once per round.

        Returns ``True`` (and passes nothing on) when the round is over: the last turns
        after going out are played; or no one has gone out and either the stock is
        empty and cannot be refilled or ``stalemate_turns`` turns have been played.
        During the last turns an empty stock that cannot be refilled ends nothing: the
        players still to play take the top discard.
        """
        self.turn += 1
        if self._over(self.turn, self.last_turns, len(self.discard_pile), stalemate_turns):
            return True
        if not self.stock and not self.reshuffled and len(self.discard_pile) >= 2:
            self.stock = reshuffle(
                seed=seed, round_number=self.number, discard_pile=self.discard_pile
            )
            self.reshuffled = True
            self.stock_may_hold = (tuple(sorted(self.stock)),) * self.players
            events.append(StockReshuffled(round_number=self.number, stock_count=len(self.stock)))
        self.current = (self.current + 1) % self.players
        self.phase = "draw"
        self.going_out_cache = None
        return False

    def discard_ends_round(self, *, stalemate_turns: int) -> bool:
        """Would a discard now (not a going out) end the round?  The question
        :meth:`end_turn` answers once the card is down."""
        last_turns = self.last_turns - 1 if self.went_out is not None else self.last_turns
        return self._over(self.turn + 1, last_turns, len(self.discard_pile) + 1, stalemate_turns)

    def _over(self, turn: int, last_turns: int, pile: int, stalemate_turns: int) -> bool:
        """Is the round over at the end of turn ``turn``, with ``last_turns`` still to
        play after a going out and ``pile`` cards in the discard pile?  The last turns
        after going out are played; or no one went out and either ``stalemate_turns``
        are played or the stock is empty and cannot be refilled (it was, or the pile
        holds fewer than two cards)."""
        if self.went_out is not None:
            return last_turns == 0
        if turn >= stalemate_turns:
            return True
        return not self.stock and (self.reshuffled or pile < 2)

    # -----------------------------------------------------------------------------------
    # Views and the conformance harness

    def locations(self) -> dict[str, list[Card]]:
        places = {f"hand/{player}": list(hand) for player, hand in enumerate(self.hands)}
        places["stock"] = list(self.stock)
        places["discard_pile"] = list(self.discard_pile)
        for meld in self.table_melds:
            places[f"meld/{meld.meld_id}"] = list(meld.cards)
        return places

    def discard_history(self) -> tuple[PileMove, ...]:
        """Who took and discarded what this round, oldest first."""
        view = self.history_view
        known = len(view)
        if known != len(self.history):
            view += tuple(
                PileMove(player=who, kind=kind, card=card)
                for who, kind, card in self.history[known:]
            )
            self.history_view = view
        return view

    def shuffle_hidden(self, player: int, seed: int, *, hands_shown: bool) -> None:
        """Permute the cards ``player`` cannot see: the stock and, unless the hands have
        been laid down (``hands_shown``), the opponents' cards not seen taken.  After
        the reshuffle the stock is refilled only with cards ``player`` knows it may
        hold, so the result stays consistent with what ``player`` knows."""
        opponents = [] if hands_shown else [p for p in range(self.players) if p != player]
        pool = list(self.stock)
        slots: list[tuple[int, int]] = []
        for opponent in opponents:
            hidden = list(self.hands[opponent])
            for card in self.taken[opponent]:
                hidden.remove(card)
            slots.append((opponent, len(hidden)))
            pool.extend(hidden)
        stream = SeedStream(seed, "shuffle-hidden")
        stock: list[Card] | None = None
        if self.stock_may_hold is not None and slots:
            possible = sorted((Counter(self.stock_may_hold[player]) & Counter(pool)).elements())
            stream.shuffle(possible)
            stock = possible[: len(self.stock)]
            pool = sorted((Counter(pool) - Counter(stock)).elements())
        stream.shuffle(pool)
        for opponent, count in slots:
            self.hands[opponent] = self.taken[opponent] + pool[len(pool) - count :]
            del pool[len(pool) - count :]
        self.stock = pool if stock is None else stock
        self.going_out_cache = None
