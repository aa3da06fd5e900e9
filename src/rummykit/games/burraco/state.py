"""The Burraco game state: deal, turn flow, hand ends and scoring, views per player.

``State`` is the one mutable object of a game.  ``apply`` checks an action with the
same code as ``check`` and ``legal_actions`` (``legality.py``), changes the table
(``table.py``) and returns the events (``events.py``); what each player sees comes
from ``views.py``.  When a hand ends it is scored (``scoring.score_hand``) and the
next hand is dealt at once, unless the game is over.
A state never reads a clock, does I/O or uses the global ``random``; its only
randomness is the seed's labelled streams (``dealing.py``).

>>> from rummykit.games.burraco.actions import DrawStock
>>> state = State.new(Rules(), seed=1)
>>> [len(state.locations()[f"hand/{p}"]) for p in (0, 1)], state.phase
([11, 11], 'draw')
>>> state.current_player == 1 - state.dealer
True
>>> type(state.apply(DrawStock())[0]).__name__
'StockDrawn'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from rummykit.cards import Card, burraco_deck
from rummykit.games.burraco import melds
from rummykit.games.burraco.actions import Action, DrawStock, Extend, Meld, TakePile
from rummykit.games.burraco.dealing import deal, first_dealer, shuffled_deck
from rummykit.games.burraco.events import (
    Discarded,
    Event,
    Extended,
    GameEnded,
    HandEnded,
    Melded,
    PileTaken,
    PozzettoTaken,
    PozzettoToStock,
    StockDrawn,
    seen_by,
)
from rummykit.games.burraco.legality import (
    NO_OPTIONS,
    LegalOptions,
    addition_openers,
    examine,
    legal_actions,
    legal_additions,
    legal_extension,
    legal_options,
    single_additions,
)
from rummykit.games.burraco.observation import Observation, ObservedPhase
from rummykit.games.burraco.player_view import PlayerView, TableParts, player_view, table_parts
from rummykit.games.burraco.results import EndReason, HandResult, game_winners
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.scoring import score_hand
from rummykit.games.burraco.table import Table
from rummykit.games.burraco.teams import TEAMS, partner_of, seats_of, team_of
from rummykit.games.burraco.views import dealt_event, observe
from rummykit.games.core import IllegalAction, Refusal, actor_refusal
from rummykit.games.history import History
from rummykit.games.randomness import SeedStream, check_seed
from rummykit.games.visibility import check_player, events_seen_by


class State:
    """A Burraco game of two or four players (``Rules.players``) from the first deal to
    the last hand's scoring.

    With four, the partners sit opposite (:mod:`.teams`): the melds, the pozzetto and
    the hand's score are the team's.  ``totals`` and ``winners`` are by seat, as every
    game gives them: ``totals[seat]`` is the running total of the seat's team (partners
    have the same), and the winners are both seats of the winning team."""

    __slots__ = (
        "_actions",
        "_candidate_hand",
        "_candidates",
        "_events",
        "_hand_over",
        "_hand_results",
        "_rules",
        "_seed",
        "_table",
        "_totals",
        "_winners",
    )

    def __init__(
        self,
        *,
        rules: Rules,
        seed: int,
        table: Table,
        totals: Sequence[int] | None = None,
        hand_results: Sequence[HandResult] = (),
        hand_over: bool = False,
        winners: tuple[int, ...] | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be burraco.Rules, not {type(rules).__name__}")
        self._rules = rules
        self._seed = check_seed(seed)
        self._table = table
        self._totals = [0] * rules.players if totals is None else list(totals)
        self._hand_results = tuple(hand_results)
        self._hand_over = hand_over
        self._winners = winners
        self._actions: History[Action] = History()
        self._events: History[Event] = History()
        self._candidate_hand: tuple[Card, ...] | None = None
        self._candidates: list[melds.Candidate] = []

    @classmethod
    def new(cls, rules: Rules, seed: int, *, deck: Sequence[Card] | None = None) -> State:
        """A new game dealt from ``seed`` (docs/engine.md); ``deck`` stacks the first
        hand: the shuffled deck as a list, dealt from its end (later hands come from
        the seed)."""
        check_seed(seed)
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be burraco.Rules, not {type(rules).__name__}")
        if deck is None:
            cards = shuffled_deck(rules, seed, 0)
        else:
            cards = list(deck)
            if Counter(cards) != Counter(burraco_deck(jokers=rules.jokers)):
                raise ValueError(
                    f"a stacked deck must hold exactly the {len(burraco_deck(jokers=rules.jokers))}"
                    " cards of the game's deck"
                )
        players = rules.players
        table = deal(cards, hand_number=0, dealer=first_dealer(seed, players), players=players)
        state = cls(rules=rules, seed=seed, table=table)
        state._events.append(dealt_event(table))
        return state

    @classmethod
    def from_parts(
        cls,
        *,
        rules: Rules,
        seed: int,
        table: Table,
        totals: Sequence[int],
        hand_results: Sequence[HandResult],
        hand_over: bool = False,
        winners: tuple[int, ...] | None = None,
    ) -> State:
        """A state in the middle of a game (used by determinization and tests): the
        table as given, no action or event log; later hands are dealt from ``seed``."""
        return cls(
            rules=rules,
            seed=seed,
            table=table,
            totals=totals,
            hand_results=hand_results,
            hand_over=hand_over,
            winners=winners,
        )

    # -----------------------------------------------------------------------------------
    # What anyone may ask

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def num_players(self) -> int:
        return self._rules.players

    def team_of(self, player: int) -> int:
        """The team of seat ``player`` (0 or 1; the player's own number with two)."""
        return team_of(player)

    def partner_of(self, player: int) -> int | None:
        """The partner of seat ``player``, opposite; ``None`` in the two-player game."""
        return partner_of(player, self._rules.players)

    @property
    def current_player(self) -> int | None:
        return None if self._winners is not None else self._table.player

    @property
    def phase(self) -> ObservedPhase:
        """``"draw"``, ``"play"`` (melds and the discard), or ``"over"``."""
        return "over" if self._winners is not None else self._table.phase

    @property
    def hand_over(self) -> bool:
        return self._hand_over

    @property
    def game_over(self) -> bool:
        return self._winners is not None

    @property
    def hand_number(self) -> int:
        return self._table.hand_number

    @property
    def dealer(self) -> int:
        return self._table.dealer

    @property
    def turn(self) -> int:
        """Turns completed in this hand (every player's turns counted)."""
        return self._table.turn

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners' seats once the game is over (both partners of the winning team;
        every seat on a draw), else ``()``."""
        return self._winners or ()

    @property
    def hand_results(self) -> list[HandResult]:
        return list(self._hand_results)

    @property
    def actions(self) -> list[Action]:
        """The actions applied since the first deal, in a new list."""
        return self._actions.to_list()

    @property
    def events(self) -> list[Event]:
        """The full event log since the first deal, in a new list."""
        return self._events.to_list()

    # -----------------------------------------------------------------------------------
    # Legality and moves

    def _candidate_melds(self) -> list[melds.Candidate]:
        hand = tuple(self._table.hands[self._table.player])
        if hand != self._candidate_hand:
            self._candidates = melds.candidates_of(hand, check=False)
            self._candidate_hand = hand
        return self._candidates

    def legal_actions(self) -> Iterator[Action]:
        """Each legal action once (a single-card ``Extend`` per card; several cards at
        once are accepted by ``apply`` when legal)."""
        if self._winners is not None:
            return iter(())
        table = self._table
        candidates = self._candidate_melds() if table.phase == "play" else ()
        return legal_actions(self._rules, table, candidates)

    def legal_options(self, additions: list[tuple[int, Card]] | None = None) -> LegalOptions:
        """The actions of :meth:`legal_actions`, in the same order, as plain values
        (``legality.LegalOptions``: discards and additions as cards, new melds as
        ``melds.Candidate`` with their arranged meld and their cards in code order);
        nothing listed when the game is over.  ``additions``, when given, are what
        :meth:`single_additions` has just listed in this very position (not listed
        again)."""
        if self._winners is not None:
            return NO_OPTIONS
        table = self._table
        candidates = self._candidate_melds() if table.phase == "play" else ()
        return legal_options(self._rules, table, candidates, additions)

    def single_additions(self) -> list[tuple[int, Card]]:
        """The ``additions`` of :meth:`legal_options` alone, in the same order, without
        listing the new melds (``legality.single_additions``; none outside the ``play``
        phase)."""
        if self._winners is not None:
            return []
        return single_additions(self._table)

    def check(self, action: object, *, player: object = None) -> Refusal | None:
        """Why ``action`` is illegal now, or ``None``; never raises.

        With ``player``, anyone but the player to move is refused ``not_your_turn``
        (``core.actor_refusal``) before the action is looked at.
        """
        if player is not None:
            refusal = actor_refusal(player, self.current_player, self._rules.players)
            if refusal is not None:
                return refusal
        table = None if self._winners is not None else self._table
        return examine(self._rules, table, action)[0]

    def extension(self, meld_id: int, cards: tuple[Card, ...]) -> melds.Meld | None:
        """The meld that ``Extend(meld_id, cards)`` leaves when :meth:`check` accepts
        it, else ``None``; a refusal's words are never built (for masks).  ``meld_id``
        is an int and ``cards`` card codes."""
        if self._winners is not None:
            return None
        return legal_extension(self._table, meld_id, cards)

    def legal_additions(self) -> list[tuple[int, tuple[Card, ...]]]:
        """Every ``(meld id, cards)`` for which :meth:`check` accepts ``Extend(meld id,
        cards)``, several cards at once included, the cards in code order
        (``legality.legal_additions``; none when the game is over)."""
        if self._winners is not None:
            return []
        return legal_additions(self._table)

    def addition_openers(self) -> set[Card]:
        """The first cards (in code order) of the additions of several cards of
        :meth:`legal_additions`, less any card that may be added alone to some meld
        (``legality.addition_openers``: cheaper than listing the additions)."""
        if self._winners is not None:
            return set()
        return addition_openers(self._table)

    def apply(self, action: Action, *, player: object = None) -> list[Event]:
        """Check and apply ``action`` (for ``player``, when given: see :meth:`check`);
        raises ``core.IllegalAction`` (state unchanged)."""
        if player is not None:
            refusal = actor_refusal(player, self.current_player, self._rules.players)
            if refusal is not None:
                raise IllegalAction(refusal)
        table = None if self._winners is not None else self._table
        refusal, meld = examine(self._rules, table, action)
        if refusal is not None:
            raise IllegalAction(refusal)
        return self._play(action, meld)

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply ``action`` without checking it: only for an action known to be legal
        now, one of :meth:`legal_actions` or :meth:`legal_options` of this very position
        (a search's rollouts choose among those); a new meld is arranged and an
        extension made as :meth:`apply` would."""
        if isinstance(action, Meld):
            return self._play(action, melds.arrange(action.cards))
        if isinstance(action, Extend):
            meld = melds.extended(self._table.melds[action.meld_id], tuple(action.cards))
            return self._play(action, meld)
        return self._play(action)

    def _play(self, action: Action, meld: melds.Meld | None = None) -> list[Event]:
        """Apply ``action`` with no check: only for an action :meth:`check` accepts now
        (the step models call it for an action their exact mask proved legal).  ``meld``
        is the arranged meld of a ``Meld`` or ``Extend`` (as ``examine`` gives it)."""
        table = self._table
        self._hand_over = False
        self._actions.append(action)
        events: list[Event] = []
        player = table.player
        if isinstance(action, DrawStock):
            events.append(StockDrawn(player, table.draw()))
        elif isinstance(action, TakePile):
            events.append(PileTaken(player, table.take_pile()))
        elif isinstance(action, Meld):
            assert meld is not None
            meld_id = table.add_meld(meld)
            events.append(Melded(player, meld_id, meld))
            self._refill_after_meld(events)
        elif isinstance(action, Extend):
            assert meld is not None
            cards = tuple(action.cards)
            table.replace_meld(action.meld_id, cards, meld)
            events.append(Extended(player, action.meld_id, cards, meld))
            self._refill_after_meld(events)
        else:
            table.discard(action.card)
            events.append(Discarded(player, action.card))
            self._end_turn(events)
        self._events.extend(events)
        return events

    def _refill_after_meld(self, events: list[Event]) -> None:
        table = self._table
        if not table.hands[table.player]:
            index, cards = table.take_pozzetto()
            events.append(PozzettoTaken(table.player, index, cards))

    def _end_turn(self, events: list[Event]) -> None:
        """After a discard: refill or close, then the reserve, then the stalemate."""
        table = self._table
        player = table.player
        table.turn += 1
        if not table.hands[player]:
            if not table.can_refill(player):
                self._end_hand(events, "closed", closer=player)
                return
            index, cards = table.take_pozzetto()
            events.append(PozzettoTaken(player, index, cards))
        if not table.stock:
            if not table.pozzetti_left():
                self._end_hand(events, "stock_exhausted", closer=None)
                return
            events.append(PozzettoToStock(table.pozzetto_to_stock()))
        if table.turn >= self._rules.stalemate_turns:
            self._end_hand(events, "stalemate", closer=None)
            return
        table.pass_turn()

    def _end_hand(self, events: list[Event], reason: EndReason, *, closer: int | None) -> None:
        """Score the hand by team (RULES.md 1.7, 3.5): a team's cards in hand are both
        partners' hands."""
        table = self._table
        players = self._rules.players
        closing_team = None if closer is None else team_of(closer)
        team_melds = tuple(
            tuple(m for m, owner in zip(table.melds, table.owners, strict=True) if owner == team)
            for team in range(TEAMS)
        )
        breakdown = tuple(
            score_hand(
                melds=team_melds[team],
                hand=[card for seat in seats_of(team, players) for card in table.hands[seat]],
                took_pozzetto=table.took_pozzetto[team],
                closed=team == closing_team,
            )
            for team in range(TEAMS)
        )
        scores = tuple(score.total for score in breakdown)
        self._totals = [total + scores[team_of(seat)] for seat, total in enumerate(self._totals)]
        team_totals = tuple(self._totals[:TEAMS])
        result = HandResult(
            hand_number=table.hand_number,
            dealer=table.dealer,
            reason=reason,
            closer=closer,
            scores=scores,
            breakdown=breakdown,
            totals=team_totals,
            melds=team_melds,
        )
        self._hand_results += (result,)
        events.append(
            HandEnded(hand_number=table.hand_number, reason=reason, closer=closer, result=result)
        )
        self._hand_over = True
        teams = game_winners(self._rules, team_totals, hands_played=table.hand_number + 1)
        if teams is not None:
            winners = tuple(seat for seat in range(players) if team_of(seat) in teams)
            self._winners = winners
            events.append(GameEnded(winners=winners, totals=tuple(self._totals)))
            return
        number = table.hand_number + 1
        self._table = deal(
            shuffled_deck(self._rules, self._seed, number),
            hand_number=number,
            dealer=(table.dealer + 1) % players,
            players=players,
        )
        events.append(dealt_event(self._table))

    def clone(self) -> State:
        """A fully independent copy (melds, which are immutable, are shared)."""
        twin = State.__new__(State)
        twin._rules = self._rules
        twin._seed = self._seed
        twin._table = self._table.clone()
        twin._totals = list(self._totals)
        twin._hand_results = self._hand_results
        twin._hand_over = self._hand_over
        twin._winners = self._winners
        twin._actions = self._actions.copy()
        twin._events = self._events.copy()
        twin._candidate_hand = self._candidate_hand
        twin._candidates = self._candidates
        return twin

    # -----------------------------------------------------------------------------------
    # Views

    def observation(self, player: int) -> Observation:
        """What ``player`` sees now (DESIGN.md section 3), nothing more."""
        return observe(
            self._table,
            player=check_player(player, self._rules.players),
            rules=self._rules,
            totals=self.totals,
            hand_results=self._hand_results,
            hand_over=self._hand_over,
            winners=self._winners,
        )

    def player_view(self, player: int) -> PlayerView:
        """The table fields of :meth:`observation`, built cheaply (:mod:`.player_view`)."""
        return player_view(
            self._table,
            player=check_player(player, self._rules.players),
            rules=self._rules,
            totals=self.totals,
            over=self._winners is not None,
        )

    def table_parts(self, player: int) -> TableParts:
        """The same fields as :meth:`player_view`, read in place without copies (for a
        reader that compares them with its own copies; see :class:`.TableParts`)."""
        return table_parts(
            self._table,
            player=check_player(player, self._rules.players),
            rules=self._rules,
            totals=self._totals,
            over=self._winners is not None,
        )

    def events_for(self, player: int, start: int = 0) -> list[Event]:
        """The event log (from index ``start`` on) with what ``player`` may not see
        replaced by ``None``: every other hand at each deal (a partner's included),
        the other players' drawn cards, every pozzetto's cards unless ``player`` took
        it."""
        player = check_player(player, self._rules.players)
        return events_seen_by(self._events.since(start), player, seen_by)

    # -----------------------------------------------------------------------------------
    # Quick reads (for bots that play many moves, as a search's rollouts do): the
    # table's own sequences, not copies, right until the next move and not to be changed

    def hand_of(self, player: int) -> Sequence[Card]:
        """``player``'s hand, in the order it is held."""
        return self._table.hands[player]

    def meld_size(self, meld_id: int) -> int:
        """How many cards meld ``meld_id`` has."""
        return len(self._table.melds[meld_id].cards)

    def team_melds(self, team: int) -> list[melds.Meld]:
        """The melds of ``team`` (0 or 1), by meld id, in a new list."""
        table = self._table
        owners = table.owners
        return [meld for meld_id, meld in enumerate(table.melds) if owners[meld_id] == team]

    def took_pozzetto(self, team: int) -> bool:
        """Has ``team`` (0 or 1) taken a pozzetto in this hand?"""
        return self._table.took_pozzetto[team]

    def pozzetto_left(self) -> bool:
        """Is a pozzetto still untaken in this hand?"""
        return any(cards is not None for cards in self._table.pozzetti)

    def discard_pile_cards(self) -> Sequence[Card]:
        """The discard pile, bottom to top."""
        return self._table.discard_pile

    def stock_size(self) -> int:
        """How many cards the stock has left."""
        return len(self._table.stock)

    # -----------------------------------------------------------------------------------
    # For the conformance harness

    def locations(self) -> dict[str, list[Card]]:
        """Every card's place: ``hand/<p>``, ``meld/<id>``, ``stock``, ``discard_pile``,
        ``pozzetto/<i>`` (those left)."""
        return self._table.locations()

    def shuffle_hidden(self, player: int, seed: int) -> None:
        """Permute, with ``SeedStream(seed, "shuffle-hidden")``, the cards ``player``
        cannot see: every other hand, the partner's included (except the cards seen
        taken with the pile), the stock and the pozzetti left.  ``player``'s
        observation does not change."""
        player = check_player(player, self._rules.players)
        table = self._table
        others = [seat for seat in range(len(table.hands)) if seat != player]
        unseen: list[Card] = []
        hidden_in_hands: list[int] = []
        for seat in others:
            hidden = list(table.hands[seat])
            for card in table.known[seat]:
                hidden.remove(card)
            hidden_in_hands.append(len(hidden))
            unseen.extend(hidden)
        unseen.extend(table.stock)
        left = table.pozzetti_left()
        for index in left:
            pozzetto = table.pozzetti[index]
            assert pozzetto is not None
            unseen.extend(pozzetto)
        SeedStream(seed, "shuffle-hidden").shuffle(unseen)
        position = 0
        for seat, count in zip(others, hidden_in_hands, strict=True):
            table.hands[seat] = list(table.known[seat]) + unseen[position : position + count]
            position += count
        table.stock = unseen[position : position + len(table.stock)]
        position += len(table.stock)
        for index in left:
            size = len(table.pozzetti[index] or ())
            table.pozzetti[index] = tuple(unseen[position : position + size])
            position += size
        self._candidate_hand = None
