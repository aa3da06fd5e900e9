"""The mutable state of a Three-Thirteen game: the single place where legality lives.

``State.new(rules, seed)`` deals the first round (see :mod:`.dealing`); ``apply`` checks
and plays one action and returns its events, ``check`` answers the same question
without raising, ``legal_actions`` lists every legal action once.  Rounds follow one
another inside one state: the action that ends a round scores it (:mod:`.scoring`) and
deals the next.  The cards and turn of the round in play live in a :class:`.Round`.

Turn flow (RULES.md 2.2, with the engine's decisions): a turn is ``draw`` then
``discard``.  Going out (``GoOut``) lays every other card down in melds; every other
player then has exactly one more turn, during which going out is refused.  At the end
of each turn, if the stock is empty, the discard pile but its top card is reshuffled into
a new stock once per round; if the stock runs out again, the round ends, unless someone
has gone out: the last turns are always played, taking the top discard.  A round in
which no one goes out ends after ``Rules.stalemate_turns`` turns.

The hot paths (``legal_actions``, ``check``, ``apply``, ``clone``) touch plain lists and
never validate the whole state; nothing here does I/O or uses the ``random`` module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Literal

from rummykit.cards import CARD_COUNT, Card, format_card
from rummykit.games.core import IllegalAction, Refusal, actor_refusal
from rummykit.games.history import History
from rummykit.games.randomness import check_seed
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
    LegalOptions,
    TakeDiscard,
)
from rummykit.games.three_thirteen.dealing import dealer_of, first_dealer
from rummykit.games.three_thirteen.events import Event, GameEnded, HandEnded, seen_by
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.parts import check_parts
from rummykit.games.three_thirteen.player_view import (
    PlayerView,
    TableParts,
    player_view,
    table_parts,
)
from rummykit.games.three_thirteen.rounds import Round
from rummykit.games.three_thirteen.rules import Rules
from rummykit.games.three_thirteen.scoring import RoundResult, score_round, winners_of
from rummykit.games.three_thirteen.table import PileMove, TableMeld
from rummykit.games.visibility import VERSION, check_player, events_seen_by

Phase = Literal["draw", "discard", "over"]

_new_options = tuple.__new__  # a named tuple without its constructor's keyword handling


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
        "_events",
        "_first_dealer",
        "_game_over",
        "_hand_over",
        "_results",
        "_round",
        "_rules",
        "_seed",
        "_totals",
        "_wild_only_melds",
    )

    _rules: Rules
    _seed: int
    _ace_high: bool
    _wild_only_melds: bool
    _first_dealer: int
    _round: Round
    _game_over: bool
    _totals: list[int]
    _results: tuple[RoundResult, ...]
    _actions: History[Action]
    _events: History[Event]
    """The log, shared by clones (a clone costs the position, not the history)."""
    _hand_over: bool

    def __init__(self) -> None:
        raise TypeError("build a State with State.new(rules, seed) or State.from_parts(...)")

    @classmethod
    def _blank(cls, rules: Rules, seed: int) -> State:
        if not isinstance(rules, Rules):
            raise ValueError(f"expected Three-Thirteen Rules, not {type(rules).__name__}")
        state = object.__new__(cls)
        state._rules = rules
        state._seed = check_seed(seed)
        state._ace_high = rules.ace_high
        state._wild_only_melds = rules.wild_only_melds
        state._game_over = False
        state._totals = [0] * rules.players
        state._results = ()
        state._actions = History()
        state._events = History()
        state._hand_over = False
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
        melds: Sequence[TableMeld] = (),
        went_out: int | None = None,
        last_turns_remaining: int = 0,
        reshuffled: bool = False,
        stock_may_hold: Sequence[Sequence[Card]] | None = None,
        known_cards: Sequence[Sequence[Card]] | None = None,
        discard_history: Sequence[PileMove] = (),
        turn: int = 0,
        hand_results: Sequence[RoundResult] = (),
        hand_over: bool = False,
        check: bool = True,
    ) -> State:
        """A state in the middle of a game, from its parts (tests, determinization).

        The keywords are named as the observation's fields.  The stock's top is the end
        of ``stock``, the pile's top the end of ``discard_pile``.  ``known_cards`` are,
        per player, the cards seen taken from the discard pile and still held.
        ``stock_may_hold`` is, once ``reshuffled``, per player, the cards the stock may
        hold as far as that player knows (it must include the stock; by default every
        player knows exactly what it holds).  The first dealer is inferred from
        ``dealer`` and the rounds already played; totals are the sums of
        ``hand_results``; a game over has ``hand_over`` true whatever is given.  Raises
        ``ValueError`` if the parts do not fit together (see :mod:`.parts`); with
        ``check=False`` they are not looked at (for a caller that builds them to fit,
        such as determinization from a checked observation).
        """
        state = cls._blank(rules, seed)
        taken = [[] for _ in hands] if known_cards is None else known_cards
        if reshuffled and stock_may_hold is None:
            stock_may_hold = [sorted(stock)] * rules.players
        if check:
            check_parts(
                rules=rules,
                round_number=round_number,
                dealer=dealer,
                hands=hands,
                stock=stock,
                discard_pile=discard_pile,
                current_player=current_player,
                phase=phase,
                melds=melds,
                went_out=went_out,
                last_turns_remaining=last_turns_remaining,
                reshuffled=reshuffled,
                stock_may_hold=stock_may_hold,
                known_cards=taken,
                turn=turn,
                hand_results=hand_results,
            )
        hand_number = round_number - rules.first_round
        state._first_dealer = (dealer - hand_number) % rules.players
        state._game_over = phase == "over"
        state._hand_over = hand_over or state._game_over
        state._round = Round(
            number=round_number,
            dealer=dealer,
            hands=hands,
            stock=stock,
            discard_pile=discard_pile,
            # A finished game keeps its last round as it ended.
            current=0 if current_player is None else current_player,
            phase="discard" if phase == "discard" else "draw",
            table_melds=melds,
            went_out=went_out,
            last_turns=last_turns_remaining,
            reshuffled=reshuffled,
            stock_may_hold=stock_may_hold,
            taken=taken,
            history=discard_history,
            turn=turn,
        )
        state._results = tuple(hand_results)
        for result in hand_results:
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
        return self._rules.players

    @property
    def current_player(self) -> int | None:
        return None if self._game_over else self._round.current

    @property
    def phase(self) -> Phase:
        """``"draw"``, ``"discard"`` or ``"over"``."""
        return "over" if self._game_over else self._round.phase

    @property
    def hand_over(self) -> bool:
        """True right after the action that ended a round (the next is already dealt)."""
        return self._hand_over

    @property
    def game_over(self) -> bool:
        return self._game_over

    @property
    def hand_number(self) -> int:
        """How many rounds were played before this one (0 for the first round)."""
        return self._round.number - self._rules.first_round

    @property
    def round_number(self) -> int:
        """The rule book's round number (1..11): round ``r`` deals ``r + 2`` cards."""
        return self._round.number

    @property
    def wild_rank(self) -> int:
        return self._round.wild_rank

    @property
    def dealer(self) -> int:
        return self._round.dealer

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the lowest total once the game is over; ``()`` before."""
        return winners_of(self._totals) if self._game_over else ()

    @property
    def hand_results(self) -> list[RoundResult]:
        return list(self._results)

    @property
    def actions(self) -> list[Action]:
        return self._actions.to_list()

    @property
    def events(self) -> list[Event]:
        return self._events.to_list()

    @property
    def stock_count(self) -> int:
        return len(self._round.stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile from bottom to top."""
        return tuple(self._round.discard_pile)

    @property
    def table_melds(self) -> tuple[TableMeld, ...]:
        return tuple(self._round.table_melds)

    @property
    def went_out(self) -> int | None:
        return self._round.went_out

    @property
    def last_turns_remaining(self) -> int:
        """How many last turns are still to be played after someone went out."""
        return self._round.last_turns

    def discard_ends_round(self) -> bool:
        """Would a discard by the player to move (not a going out) end the round now?
        The round is then scored at once; no one moves after it."""
        if self._game_over:
            return False
        return self._round.discard_ends_round(stalemate_turns=self._rules.stalemate_turns)

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` holds, sorted by code, which is the order of
        ``cards.sorted_cards`` (not for players: see :meth:`observation`)."""
        return tuple(sorted(self._round.hands[check_player(player, self._rules.players)]))

    def locations(self) -> dict[str, list[Card]]:
        """Where every card is: ``hand/<p>``, ``stock``, ``discard_pile``, ``meld/<id>``."""
        return self._round.locations()

    # -----------------------------------------------------------------------------------
    # Legality

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action exactly once (draws; discards by card, then going out)."""
        stock, take, discards, going_out = self.legal_options()
        if stock:
            yield DRAW_STOCK
        if take:
            yield TAKE_DISCARD
        for card in discards:
            yield DISCARDS[card]
        for card in going_out:
            yield GO_OUTS[card]

    def legal_options(self) -> LegalOptions:
        """The actions of :meth:`legal_actions` as plain values, without an action
        object each (what the environments' masks are built from)."""
        if self._game_over:
            return LegalOptions(False, False, [], ())
        table = self._round
        if table.phase == "draw":
            return _new_options(LegalOptions, (bool(table.stock), bool(table.discard_pile), [], ()))
        discards = sorted(set(table.hands[table.current]))
        if table.went_out is not None:
            return _new_options(LegalOptions, (False, False, discards, ()))
        going_out = table.going_out_discards(
            ace_high=self._ace_high, wild_only_melds=self._wild_only_melds
        )
        return _new_options(LegalOptions, (False, False, discards, going_out))

    def check(self, action: object, *, player: object = None) -> Refusal | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal.  Never raises.

        With ``player``, anyone but the player to move is refused ``not_your_turn``
        (``core.actor_refusal``) before the action is looked at.
        """
        if player is not None:
            refusal = actor_refusal(player, self.current_player, self._rules.players)
            if refusal is not None:
                return refusal
        kind = type(action)
        table = self._round
        if kind is DrawStock or kind is TakeDiscard:
            if self._game_over:
                return refusals.game_over()
            if table.phase != "draw":
                verb = "draw" if kind is DrawStock else "take"
                return refusals.wrong_phase(phase=table.phase, action=verb)
            if kind is DrawStock:
                return None if table.stock else refusals.stock_empty()
            return None if table.discard_pile else refusals.discard_pile_empty()
        if kind is Discard or kind is GoOut:
            card = action.card  # type: ignore[attr-defined]
            if type(card) is not int or not 0 <= card < CARD_COUNT:
                return refusals.bad_card(card)
            if self._game_over:
                return refusals.game_over()
            if table.phase != "discard":
                verb = "discard" if kind is Discard else "out"
                return refusals.wrong_phase(phase=table.phase, action=verb)
            if card not in table.hands[table.current]:
                return refusals.card_not_in_hand(card)
            if kind is GoOut:
                if table.went_out is not None:
                    return refusals.last_turn_discard_only(went_out=table.went_out)
                going_out = table.going_out_discards(
                    ace_high=self._ace_high, wild_only_melds=self._wild_only_melds
                )
                if card not in going_out:
                    return refusals.cannot_go_out(card)
            return None
        return refusals.not_an_action(action)

    # -----------------------------------------------------------------------------------
    # Playing

    def apply(self, action: Action, *, player: object = None) -> list[Event]:
        """Play ``action`` for the current player and return its events.

        Raises :class:`~rummykit.games.core.IllegalAction` (state unchanged) if illegal,
        or if ``player`` is given and is not the player to move (see :meth:`check`).
        """
        refusal = self.check(action, player=player)
        if refusal is not None:
            raise IllegalAction(refusal)
        return self._play(action)

    def apply_legal(self, action: Action) -> list[Event]:
        """Play ``action`` without checking it: only for an action known to be legal
        now, one of :meth:`legal_actions` of this very position (a search's rollouts
        choose among those)."""
        return self._play(action)

    def _play(self, action: Action) -> list[Event]:
        """Play ``action`` with no check: only for an action :meth:`check` accepts now
        (the step model calls it for an id its exact mask proved legal)."""
        self._hand_over = False
        table = self._round
        kind = type(action)
        events: list[Event]
        if kind is DrawStock:
            events = [table.draw_stock()]
        elif kind is TakeDiscard:
            events = [table.take_discard()]
        else:
            card: Card = action.card  # type: ignore[union-attr]
            if kind is Discard:
                events = [table.discard(card)]
            else:
                events = [
                    table.go_out(
                        card, ace_high=self._ace_high, wild_only_melds=self._wild_only_melds
                    )
                ]
            if table.end_turn(
                seed=self._seed, stalemate_turns=self._rules.stalemate_turns, events=events
            ):
                self._end_round(events)
        self._actions.append(action)
        self._events.extend(events)
        return events

    def _end_round(self, events: list[Event]) -> None:
        table = self._round
        went_out = table.went_out
        result = score_round(
            rules=self._rules,
            round_number=table.number,
            dealer=table.dealer,
            hands=table.hands,
            went_out=went_out,
            went_out_melds=[meld.cards for meld in table.table_melds if meld.owner == went_out],
        )
        self._results += (result,)
        for player, score in enumerate(result.scores):
            self._totals[player] += score
        events.append(
            HandEnded(hand_number=self.hand_number, result=result, totals=tuple(self._totals))
        )
        self._hand_over = True
        if table.number >= self._rules.last_round:
            self._game_over = True
            events.append(GameEnded(totals=tuple(self._totals), winners=self.winners))
        else:
            events.append(self._start_round(table.number + 1, None))

    def _start_round(self, round_number: int, deck: Sequence[Card] | None) -> Event:
        hand_number = round_number - self._rules.first_round
        self._round = Round.deal(
            rules=self._rules,
            seed=self._seed,
            number=round_number,
            dealer=dealer_of(self._first_dealer, hand_number, self._rules.players),
            deck=deck,
        )
        return self._round.dealt_event(hand_number=hand_number)

    # -----------------------------------------------------------------------------------
    # Copies and views

    def clone(self) -> State:
        """A fully independent copy (cheap: immutable values are shared, lists copied)."""
        other = object.__new__(State)
        other._rules = self._rules
        other._seed = self._seed
        other._ace_high = self._ace_high
        other._wild_only_melds = self._wild_only_melds
        other._first_dealer = self._first_dealer
        other._round = self._round.copy()
        other._game_over = self._game_over
        other._totals = self._totals[:]
        other._results = self._results
        other._actions = self._actions.copy()
        other._events = self._events.copy()
        other._hand_over = self._hand_over
        return other

    def observation(self, player: int) -> Observation:
        """What ``player`` sees: own hand, the table, counts and public history only."""
        check_player(player, self._rules.players)
        table = self._round
        return Observation(
            version=VERSION,
            player=player,
            rules=self._rules,
            hand_number=self.hand_number,
            round_number=table.number,
            wild_rank=table.wild_rank,
            dealer=table.dealer,
            current_player=self.current_player,
            phase=self.phase,
            turn=table.turn,
            hand=tuple(sorted(table.hands[player])),
            hand_sizes=tuple(len(hand) for hand in table.hands),
            stock_count=len(table.stock),
            discard_pile=tuple(table.discard_pile),
            discard_history=table.discard_history(),
            known_cards=tuple(tuple(sorted(cards)) for cards in table.taken),
            melds=tuple(table.table_melds),
            reshuffled=table.reshuffled,
            stock_may_hold=(None if table.stock_may_hold is None else table.stock_may_hold[player]),
            went_out=table.went_out,
            last_turns_remaining=table.last_turns,
            hand_results=self._results,
            totals=tuple(self._totals),
            hand_over=self._hand_over,
            game_over=self._game_over,
            winners=self.winners,
        )

    def player_view(self, player: int) -> PlayerView:
        """The table fields of :meth:`observation`, built cheaply (:mod:`.player_view`)."""
        return player_view(
            self._round,
            player=check_player(player, self._rules.players),
            rules=self._rules,
            totals=self._totals,
            game_over=self._game_over,
        )

    def table_parts(self, player: int) -> TableParts:
        """The same fields as :meth:`player_view`, read in place without copies (for a
        reader that compares them with its own copies; see :class:`.TableParts`)."""
        return table_parts(
            self._round,
            player=check_player(player, self._rules.players),
            rules=self._rules,
            totals=self._totals,
            game_over=self._game_over,
        )

    def events_for(self, player: int, start: int = 0) -> list[Event]:
        """The event log (from index ``start`` on) as ``player`` may see it (hidden cards
        replaced by ``None``)."""
        player = check_player(player, self._rules.players)
        return events_seen_by(self._events.since(start), player, seen_by)

    def shuffle_hidden(self, player: int, seed: int) -> None:
        """Permute every card ``player`` cannot see among the places holding them.

        Hidden are the stock and the opponents' cards other than those ``player`` saw
        them take from the discard pile (once the game is over every hand has been laid
        down, so only the stock stays hidden).  Uses ``SeedStream(seed, "shuffle-hidden")``.
        """
        check_player(player, self._rules.players)
        self._round.shuffle_hidden(player, check_seed(seed), hands_shown=self._game_over)

    def __repr__(self) -> str:
        table = self._round
        where = "over" if self._game_over else f"player {table.current} to {table.phase}"
        top = format_card(table.discard_pile[-1]) if table.discard_pile else "-"
        return (
            f"<three_thirteen.State round {table.number} (wild {table.wild_rank}), {where},"
            f" discard top {top}, stock {len(table.stock)}, totals {self._totals}>"
        )
