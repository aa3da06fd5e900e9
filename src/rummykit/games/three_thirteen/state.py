"""The mutable state of a Three-Thirteen game: the single place where legality lives.

``State.new(rules, seed)`` deals the first round (see :mod:`.dealing`); ``apply`` checks
and plays one action and returns its events, ``check`` answers the same question
without raising, ``legal_actions`` lists every legal action once.  Rounds follow one
another inside one state: the action that ends a round scores it and deals the next.

Turn flow (RULES.md 2.2, with the engine's decisions): a turn is ``draw`` then
``discard``.  Going out (``GoOut``) lays every other card down in melds; every other
player then has exactly one more turn, during which going out is refused.  At the end
of each turn, if the stock is empty, the discard pile but its top card is reshuffled into
a new stock once per round; if the stock runs out again (or the pile is too small), the
round ends.

The state is kept in plain lists so that ``apply`` and ``clone`` stay fast (tree search
clones it constantly); it never validates the whole state per action, never does I/O
and never uses the ``random`` module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final, Literal

from rummykit.cards import CARD_COUNT, Card, format_card, sorted_cards
from rummykit.games.core import IllegalAction, Refusal
from rummykit.games.randomness import SeedStream, check_seed
from rummykit.games.three_thirteen import refusals
from rummykit.games.three_thirteen.actions import (
    DISCARDS,
    DRAW_STOCK,
    GO_OUTS,
    TAKE_DISCARD,
    Action,
    Discard,
    DrawStock,
    GoOut,
    TakeDiscard,
)
from rummykit.games.three_thirteen.arrange import arrange, classify_meld, going_out_discards
from rummykit.games.three_thirteen.dealing import deal_round, dealer_of, first_dealer, reshuffle
from rummykit.games.three_thirteen.events import (
    CardDiscarded,
    DiscardTaken,
    Event,
    GameEnded,
    RoundDealt,
    RoundEnded,
    StockDrawn,
    StockReshuffled,
    WentOut,
    event_for,
)
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.parts import check_parts
from rummykit.games.three_thirteen.rules import Rules, wild_rank
from rummykit.games.three_thirteen.scoring import RoundResult, score_round, winners_of
from rummykit.games.three_thirteen.table import PileMove, PileMoveKind, TableMeld

Phase = Literal["draw", "discard", "game_over"]
OBSERVATION_VERSION: Final = 1


class State:
    """A Three-Thirteen game in progress (``core.GameState``); build it with :meth:`new`.

    >>> state = State.new(Rules(), seed=3)
    >>> state.round_number, state.wild_rank, [len(state.hand(p)) for p in range(2)]
    (1, 3, [3, 3])
    >>> [type(action).__name__ for action in state.legal_actions()]
    ['DrawStock', 'TakeDiscard']
    >>> events = state.apply(DrawStock())
    >>> state.phase, len(state.hand(state.current_player))
    ('discard', 4)
    """

    __slots__ = (
        "_ace_high",
        "_actions",
        "_current",
        "_dealer",
        "_discard_pile",
        "_events",
        "_first_dealer",
        "_going_out_cache",
        "_hand_number",
        "_hand_over",
        "_hands",
        "_history",
        "_last_turns",
        "_phase",
        "_players",
        "_reshuffled",
        "_results",
        "_round",
        "_rules",
        "_seed",
        "_stock",
        "_table_melds",
        "_taken",
        "_totals",
        "_turn",
        "_went_out",
        "_wild_only_melds",
        "_wild_rank",
    )

    _rules: Rules
    _seed: int
    _players: int
    _ace_high: bool
    _wild_only_melds: bool
    _first_dealer: int
    _round: int
    _hand_number: int
    _wild_rank: int
    _dealer: int
    _hands: list[list[Card]]
    _stock: list[Card]
    _discard_pile: list[Card]
    _table_melds: list[TableMeld]
    _current: int
    _phase: Phase
    _went_out: int | None
    _last_turns: int
    _reshuffled: bool
    _taken: list[list[Card]]
    _history: list[tuple[int, PileMoveKind, Card]]
    _turn: int
    _totals: list[int]
    _results: list[RoundResult]
    _actions: list[Action]
    _events: list[Event]
    _hand_over: bool
    _going_out_cache: tuple[Card, ...] | None

    def __init__(self) -> None:
        raise TypeError("build a State with State.new(rules, seed) or State.from_parts(...)")

    @classmethod
    def _blank(cls, rules: Rules, seed: int) -> State:
        if not isinstance(rules, Rules):
            raise ValueError(f"expected Three-Thirteen Rules, not {type(rules).__name__}")
        state = object.__new__(cls)
        state._rules = rules
        state._seed = check_seed(seed)
        state._players = rules.players
        state._ace_high = rules.ace_high
        state._wild_only_melds = rules.wild_only_melds
        state._totals = [0] * rules.players
        state._results = []
        state._actions = []
        state._events = []
        state._hand_over = False
        state._going_out_cache = None
        return state

    @classmethod
    def new(cls, rules: Rules, seed: int, *, deck: Sequence[Card] | None = None) -> State:
        """Deal the first round from ``seed``; ``deck`` (in dealing order: the last card
        is dealt first) replaces the first round's shuffle, for stacked-deck tests."""
        state = cls._blank(rules, seed)
        if deck is not None and Counter(deck) != Counter(rules.deck()):
            raise ValueError("a stacked deck must hold exactly the cards of the rules' deck")
        state._first_dealer = first_dealer(seed, rules.players)
        state._events.append(state._start_round(rules.first_round, deck))
        return state

    @classmethod
    def from_parts(
        cls,
        *,
        rules: Rules,
        seed: int,
        round_number: int,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        discard_pile: Sequence[Card],
        current_player: int | None,
        phase: Phase,
        table_melds: Sequence[TableMeld] = (),
        went_out: int | None = None,
        last_turns_remaining: int = 0,
        reshuffled: bool = False,
        taken_cards: Sequence[Sequence[Card]] | None = None,
        discard_history: Sequence[PileMove] = (),
        turn_number: int = 0,
        round_results: Sequence[RoundResult] = (),
    ) -> State:
        """A state in the middle of a game, from its parts (tests, determinization).

        The stock's top is the end of ``stock``.  The first dealer is inferred from
        ``dealer`` and the number of rounds already played; totals are the sums of
        ``round_results``.  Raises ``ValueError`` if the parts do not fit together.
        """
        state = cls._blank(rules, seed)
        taken = [[] for _ in hands] if taken_cards is None else taken_cards
        check_parts(
            rules=rules,
            round_number=round_number,
            dealer=dealer,
            hands=hands,
            stock=stock,
            discard_pile=discard_pile,
            current_player=current_player,
            phase=phase,
            table_melds=table_melds,
            went_out=went_out,
            last_turns_remaining=last_turns_remaining,
            taken_cards=taken,
            turn_number=turn_number,
            round_results=round_results,
        )
        state._round = round_number
        state._hand_number = round_number - rules.first_round
        state._first_dealer = (dealer - state._hand_number) % rules.players
        state._wild_rank = wild_rank(round_number)
        state._dealer = dealer
        state._hands = [list(hand) for hand in hands]
        state._stock = list(stock)
        state._discard_pile = list(discard_pile)
        state._table_melds = list(table_melds)
        state._current = -1 if current_player is None else current_player
        state._phase = phase
        state._went_out = went_out
        state._last_turns = last_turns_remaining
        state._reshuffled = reshuffled
        state._taken = [list(cards) for cards in taken]
        state._history = [(move.player, move.kind, move.card) for move in discard_history]
        state._turn = turn_number
        state._results = list(round_results)
        for result in round_results:
            for player, score in enumerate(result.scores):
                state._totals[player] += score
        return state

    # -----------------------------------------------------------------------------------
    # What everyone may read

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def current_player(self) -> int | None:
        return None if self._phase == "game_over" else self._current

    @property
    def phase(self) -> Phase:
        """``"draw"``, ``"discard"`` or ``"game_over"``."""
        return self._phase

    @property
    def hand_over(self) -> bool:
        """True right after the action that ended a round (the next is already dealt)."""
        return self._hand_over

    @property
    def game_over(self) -> bool:
        return self._phase == "game_over"

    @property
    def hand_number(self) -> int:
        """How many rounds were played before this one (0 for the first round)."""
        return self._hand_number

    @property
    def round_number(self) -> int:
        """The rule book's round number (1..11): round ``r`` deals ``r + 2`` cards."""
        return self._round

    @property
    def wild_rank(self) -> int:
        return self._wild_rank

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the lowest total once the game is over; ``()`` before."""
        return winners_of(self._totals) if self._phase == "game_over" else ()

    @property
    def hand_results(self) -> list[RoundResult]:
        return list(self._results)

    @property
    def actions(self) -> list[Action]:
        return list(self._actions)

    @property
    def events(self) -> list[Event]:
        return list(self._events)

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile from bottom to top."""
        return tuple(self._discard_pile)

    @property
    def table_melds(self) -> tuple[TableMeld, ...]:
        return tuple(self._table_melds)

    @property
    def went_out(self) -> int | None:
        return self._went_out

    @property
    def last_turns_remaining(self) -> int:
        """How many last turns are still to be played after someone went out."""
        return self._last_turns

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` holds, sorted (not for players: see :meth:`observation`)."""
        return tuple(sorted_cards(self._hands[self._check_player(player)]))

    def locations(self) -> dict[str, list[Card]]:
        """Where every card is: ``hand/<p>``, ``stock``, ``discard_pile``, ``meld/<id>``."""
        places = {f"hand/{p}": list(hand) for p, hand in enumerate(self._hands)}
        places["stock"] = list(self._stock)
        places["discard_pile"] = list(self._discard_pile)
        for meld in self._table_melds:
            places[f"meld/{meld.id}"] = list(meld.cards)
        return places

    def _check_player(self, player: object) -> int:
        if isinstance(player, bool) or not isinstance(player, int):
            raise ValueError(f"a player is a seat number, not {player!r}")
        if not 0 <= player < self._players:
            raise ValueError(f"there is no player {player} at a table of {self._players}")
        return player

    # -----------------------------------------------------------------------------------
    # Legality

    def _going_out(self) -> tuple[Card, ...]:
        """The cards the current player may discard to go out (cached for the phase)."""
        cache = self._going_out_cache
        if cache is None:
            cache = going_out_discards(
                self._hands[self._current],
                wild_rank=self._wild_rank,
                ace_high=self._ace_high,
                wild_only_melds=self._wild_only_melds,
            )
            self._going_out_cache = cache
        return cache

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action exactly once (draws; discards by card, then going out)."""
        phase = self._phase
        if phase == "draw":
            if self._stock:
                yield DRAW_STOCK
            if self._discard_pile:
                yield TAKE_DISCARD
        elif phase == "discard":
            for card in sorted(set(self._hands[self._current])):
                yield DISCARDS[card]
            if self._went_out is None:
                for card in self._going_out():
                    yield GO_OUTS[card]

    def check(self, action: object) -> Refusal | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal.  Never raises."""
        kind = type(action)
        if kind is DrawStock or kind is TakeDiscard:
            if self._phase != "draw":
                if self._phase == "game_over":
                    return refusals.game_over()
                return refusals.wrong_phase(
                    phase=self._phase, action="draw" if kind is DrawStock else "take"
                )
            if kind is DrawStock:
                return None if self._stock else refusals.stock_empty()
            return None if self._discard_pile else refusals.discard_pile_empty()
        if kind is Discard or kind is GoOut:
            card = action.card  # type: ignore[attr-defined]
            if type(card) is not int or not 0 <= card < CARD_COUNT:
                return refusals.bad_card(card)
            if self._phase != "discard":
                if self._phase == "game_over":
                    return refusals.game_over()
                return refusals.wrong_phase(
                    phase=self._phase, action="discard" if kind is Discard else "out"
                )
            if card not in self._hands[self._current]:
                return refusals.card_not_in_hand(card)
            if kind is GoOut:
                if self._went_out is not None:
                    return refusals.last_turn_discard_only(went_out=self._went_out)
                if card not in self._going_out():
                    return refusals.cannot_go_out(card)
            return None
        return refusals.not_an_action(action)

    # -----------------------------------------------------------------------------------
    # Playing

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` for the current player and return its events.

        Raises :class:`~rummykit.games.core.IllegalAction` (state unchanged) if illegal.
        """
        refusal = self.check(action)
        if refusal is not None:
            raise IllegalAction(refusal)
        self._hand_over = False
        player = self._current
        kind = type(action)
        events: list[Event]
        if kind is DrawStock:
            card = self._stock.pop()
            self._hands[player].append(card)
            self._phase = "discard"
            self._going_out_cache = None
            events = [StockDrawn(player, card)]
        elif kind is TakeDiscard:
            card = self._discard_pile.pop()
            self._hands[player].append(card)
            self._taken[player].append(card)
            self._history.append((player, "take", card))
            self._phase = "discard"
            self._going_out_cache = None
            events = [DiscardTaken(player, card)]
        elif kind is Discard:
            card = action.card  # type: ignore[union-attr]
            self._hands[player].remove(card)
            taken = self._taken[player]
            if card in taken:
                taken.remove(card)
            self._discard_pile.append(card)
            self._history.append((player, "discard", card))
            if self._went_out is not None:
                self._last_turns -= 1
            events = [CardDiscarded(player, card)]
            self._end_turn(events)
        else:
            events = [self._go_out(player, action.card)]  # type: ignore[union-attr]
            self._end_turn(events)
        self._actions.append(action)
        self._events.extend(events)
        return events

    def _go_out(self, player: int, card: Card) -> WentOut:
        hand = self._hands[player]
        hand.remove(card)
        wild = self._wild_rank
        ace_high = self._ace_high
        wild_only = self._wild_only_melds
        arrangement = arrange(hand, wild_rank=wild, ace_high=ace_high, wild_only_melds=wild_only)
        first_id = len(self._table_melds)
        melds = tuple(
            TableMeld(
                id=first_id + index,
                owner=player,
                kind=classify_meld(
                    cards, wild_rank=wild, ace_high=ace_high, wild_only_melds=wild_only
                ),
                cards=tuple(cards),
            )
            for index, cards in enumerate(arrangement.melds)
        )
        self._table_melds.extend(melds)
        hand.clear()
        self._taken[player].clear()
        self._discard_pile.append(card)
        self._history.append((player, "out", card))
        self._went_out = player
        self._last_turns = self._players - 1
        return WentOut(player=player, melds=melds, discard=card)

    def _end_turn(self, events: list[Event]) -> None:
        self._turn += 1
        if self._went_out is not None and self._last_turns == 0:
            self._end_round(events)
            return
        if not self._stock:
            if self._reshuffled or len(self._discard_pile) < 2:
                self._end_round(events)
                return
            self._stock = reshuffle(
                seed=self._seed, round_number=self._round, discard_pile=self._discard_pile
            )
            self._reshuffled = True
            events.append(StockReshuffled(round_number=self._round, stock_count=len(self._stock)))
        self._current = (self._current + 1) % self._players
        self._phase = "draw"
        self._going_out_cache = None

    def _end_round(self, events: list[Event]) -> None:
        went_out = self._went_out
        result = score_round(
            rules=self._rules,
            round_number=self._round,
            dealer=self._dealer,
            hands=self._hands,
            went_out=went_out,
            went_out_melds=[meld.cards for meld in self._table_melds if meld.owner == went_out],
        )
        self._results.append(result)
        for player, score in enumerate(result.scores):
            self._totals[player] += score
        events.append(RoundEnded(result=result, totals=tuple(self._totals)))
        self._hand_over = True
        self._going_out_cache = None
        if self._round >= self._rules.last_round:
            self._phase = "game_over"
            events.append(GameEnded(totals=tuple(self._totals), winners=self.winners))
        else:
            events.append(self._start_round(self._round + 1, None))

    def _start_round(self, round_number: int, deck: Sequence[Card] | None) -> RoundDealt:
        self._round = round_number
        self._hand_number = round_number - self._rules.first_round
        self._wild_rank = wild_rank(round_number)
        self._dealer = dealer_of(self._first_dealer, self._hand_number, self._players)
        deal = deal_round(
            rules=self._rules,
            seed=self._seed,
            round_number=round_number,
            dealer=self._dealer,
            deck=deck,
        )
        self._hands = deal.hands
        self._stock = deal.stock
        self._discard_pile = deal.discard_pile
        self._table_melds = []
        self._current = (self._dealer + 1) % self._players
        self._phase = "draw"
        self._went_out = None
        self._last_turns = 0
        self._reshuffled = False
        self._taken = [[] for _ in range(self._players)]
        self._history = []
        self._turn = 0
        self._going_out_cache = None
        return RoundDealt(
            round_number=round_number,
            wild_rank=self._wild_rank,
            dealer=self._dealer,
            hands=tuple(tuple(sorted_cards(hand)) for hand in self._hands),
            discard_top=self._discard_pile[-1],
            stock_count=len(self._stock),
        )

    # -----------------------------------------------------------------------------------
    # Copies and views

    def clone(self) -> State:
        """A fully independent copy (cheap: immutable values are shared, lists copied)."""
        other = object.__new__(State)
        other._rules = self._rules
        other._seed = self._seed
        other._players = self._players
        other._ace_high = self._ace_high
        other._wild_only_melds = self._wild_only_melds
        other._first_dealer = self._first_dealer
        other._round = self._round
        other._hand_number = self._hand_number
        other._wild_rank = self._wild_rank
        other._dealer = self._dealer
        other._hands = [hand[:] for hand in self._hands]
        other._stock = self._stock[:]
        other._discard_pile = self._discard_pile[:]
        other._table_melds = self._table_melds[:]
        other._current = self._current
        other._phase = self._phase
        other._went_out = self._went_out
        other._last_turns = self._last_turns
        other._reshuffled = self._reshuffled
        other._taken = [cards[:] for cards in self._taken]
        other._history = self._history[:]
        other._turn = self._turn
        other._totals = self._totals[:]
        other._results = self._results[:]
        other._actions = self._actions[:]
        other._events = self._events[:]
        other._hand_over = self._hand_over
        other._going_out_cache = self._going_out_cache
        return other

    def observation(self, player: int) -> Observation:
        """What ``player`` sees: own hand, the table, counts and public history only."""
        self._check_player(player)
        game_over = self._phase == "game_over"
        return Observation(
            version=OBSERVATION_VERSION,
            player=player,
            rules=self._rules,
            round_number=self._round,
            hand_number=self._hand_number,
            wild_rank=self._wild_rank,
            dealer=self._dealer,
            current_player=None if game_over else self._current,
            phase=self._phase,
            turn_number=self._turn,
            hand=tuple(sorted_cards(self._hands[player])),
            hand_sizes=tuple(len(hand) for hand in self._hands),
            stock_count=len(self._stock),
            discard_pile=tuple(self._discard_pile),
            discard_history=tuple(
                PileMove(player=who, kind=kind, card=card) for who, kind, card in self._history
            ),
            reshuffled=self._reshuffled,
            taken_cards=tuple(tuple(sorted_cards(cards)) for cards in self._taken),
            table_melds=tuple(self._table_melds),
            went_out=self._went_out,
            last_turns_remaining=self._last_turns,
            round_results=tuple(self._results),
            totals=tuple(self._totals),
            winners=self.winners,
        )

    def events_for(self, player: int) -> list[Event]:
        """The event log as ``player`` may see it (hidden cards replaced by ``None``)."""
        self._check_player(player)
        return [event_for(event, player) for event in self._events]

    def shuffle_hidden(self, player: int, seed: int) -> None:
        """Permute every card ``player`` cannot see among the places holding them.

        Hidden are the stock and the opponents' cards other than those ``player`` saw
        them take from the discard pile (once the game is over every hand has been laid
        down, so only the stock stays hidden).  Uses ``SeedStream(seed, "shuffle-hidden")``.
        """
        self._check_player(player)
        opponents = (
            [] if self._phase == "game_over" else [p for p in range(self._players) if p != player]
        )
        pool = list(self._stock)
        slots: list[tuple[int, int]] = []
        for opponent in opponents:
            hidden = list(self._hands[opponent])
            for card in self._taken[opponent]:
                hidden.remove(card)
            slots.append((opponent, len(hidden)))
            pool.extend(hidden)
        SeedStream(seed, "shuffle-hidden").shuffle(pool)
        for opponent, count in slots:
            self._hands[opponent] = list(self._taken[opponent]) + pool[len(pool) - count :]
            del pool[len(pool) - count :]
        self._stock = pool
        self._going_out_cache = None

    def __repr__(self) -> str:
        where = "over" if self.game_over else f"player {self._current} to {self._phase}"
        top = format_card(self._discard_pile[-1]) if self._discard_pile else "-"
        return (
            f"<three_thirteen.State round {self._round} (wild {self._wild_rank}), {where},"
            f" discard top {top}, stock {len(self._stock)}, totals {self._totals}>"
        )
