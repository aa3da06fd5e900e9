"""Burraco's integer action space (145 ids): melds are built one card at a time.

=============  ==========================================================================
id             step
=============  ==========================================================================
0              ``draw``: the top card of the stock
1              ``take``: the whole discard pile
2 + c          ``discard c``: discard the card of code ``c`` (0..52); ends the turn
55 + c         *choose* a card of code ``c`` for the meld being built
108            *lay* the chosen cards as a new meld (``meld ...``)
109 + k        *add* the chosen cards to your k-th meld (k = 0..35, your melds in the
               order they were laid; with four players your team's, your partner's
               included; ``extend <meld id> ...``)
=============  ==========================================================================

Card codes are those of :mod:`rummykit.cards` (``suit * 13 + rank - 1``; the joker 52).

A meld or an addition takes several steps: choose its cards in increasing card code
(a card of the same code again for a second copy), then lay them or add them to a meld.
While cards are chosen only the next choices, ``lay`` and ``add`` can be allowed.  The
mask is exact at every step:

- *choose c* is allowed when the cards chosen so far and ``c`` begin (in code order) a
  legal meld of the engine's ``legal_actions()`` or a legal addition of any number of
  cards to one of the player's melds (``State.legal_additions()``);
- *lay* is allowed when the chosen cards are a legal meld of ``legal_actions()``;
- *add to k* is allowed when the engine accepts ``Extend(meld id of k, chosen cards)``.

So every masked-in step leads on to a legal action, and every legal ``Meld`` or
``Extend`` is reachable by choosing its cards in code order and then laying or adding
them.  Choosing in code order means each meld has one path of steps, so no two step
sequences end in the same engine action (an addition of several cards may also be
played as several additions, which are other engine actions).

>>> describe(DISCARD + 52), describe(CHOOSE + 11)
('discard Jk', 'choose Qc')
>>> describe(LAY), describe(ADD + 3)
('lay the chosen cards as a new meld', 'add the chosen cards to your meld 3')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit.cards import CARD_COUNT, Card, format_card, format_cards
from rummykit.envs import burraco_encoding as encoding
from rummykit.envs.layout import FloatArray, Layout
from rummykit.envs.steps import IllegalStep, Mask, action_index, mask_of
from rummykit.games.burraco import (
    Action,
    Discard,
    DrawStock,
    Event,
    Extend,
    Meld,
    Observation,
    Rules,
    State,
    TakePile,
)
from rummykit.games.burraco.actions import DISCARDS
from rummykit.games.burraco.melds import Meld as ArrangedMeld
from rummykit.games.burraco.player_view import PlayerView, TableParts
from rummykit.games.core import Refusal

DRAW: Final = 0
TAKE: Final = 1
DISCARD: Final = 2
CHOOSE: Final = DISCARD + CARD_COUNT
LAY: Final = CHOOSE + CARD_COUNT
ADD: Final = LAY + 1
MELD_SLOTS: Final = encoding.MELD_SLOTS
ACTION_COUNT: Final = ADD + MELD_SLOTS

_DRAW_STOCK: Final = DrawStock()
_TAKE_PILE: Final = TakePile()


def describe(action_id: int) -> str:
    """What an id does, in words and the card notation."""
    index = action_index(action_id, ACTION_COUNT)
    if index == DRAW:
        return "draw"
    if index == TAKE:
        return "take"
    if index < CHOOSE:
        return f"discard {format_card(index - DISCARD)}"
    if index < LAY:
        return f"choose {format_card(index - CHOOSE)}"
    if index == LAY:
        return "lay the chosen cards as a new meld"
    return f"add the chosen cards to your meld {index - ADD}"


def _refusal(code: str, message: str) -> Refusal:
    return Refusal(code, {}, message)


class TurnPlan:
    """The legal engine actions of one position, indexed for the step-by-step mask.

    Built from the engine's state: ``State.legal_options()`` at once, the rest when
    first asked (most positions end with a draw or a discard before any card is
    chosen).  ``melds`` maps the cards of each legal new meld, in code order, to its
    arranged meld; ``singles`` each card that may be added alone to the meld ids that
    take it; ``additions`` the cards of each legal addition of several cards
    (``State.legal_additions()``), in code order, to the meld ids that take them.  The
    first cards need only ``State.addition_openers()``, not every addition.
    """

    __slots__ = (
        "_additions",
        "_melds",
        "_next",
        "_singles",
        "discards",
        "draws",
        "options",
        "state",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.options = options = state.legal_options()
        self.draws = [DRAW if type(draw) is DrawStock else TAKE for draw in options.draws]
        self.discards = options.discards
        self._melds: dict[tuple[Card, ...], ArrangedMeld] | None = None
        self._singles: dict[Card, list[int]] | None = None
        self._additions: dict[tuple[Card, ...], list[int]] | None = None
        self._next: dict[tuple[Card, ...], list[Card]] = {}

    @property
    def melds(self) -> dict[tuple[Card, ...], ArrangedMeld]:
        if self._melds is None:
            self._melds = {
                candidate.sorted_cards: candidate.meld for candidate in self.options.melds
            }
        return self._melds

    @property
    def singles(self) -> dict[Card, list[int]]:
        if self._singles is None:
            singles: dict[Card, list[int]] = {}
            for meld_id, card in self.options.additions:
                takers = singles.get(card)
                if takers is None:
                    singles[card] = [meld_id]
                else:
                    takers.append(meld_id)
            self._singles = singles
        return self._singles

    @property
    def additions(self) -> dict[tuple[Card, ...], list[int]]:
        if self._additions is None:
            additions: dict[tuple[Card, ...], list[int]] = {}
            for meld_id, cards in self.state.legal_additions():
                if len(cards) > 1:
                    takers = additions.get(cards)
                    if takers is None:
                        additions[cards] = [meld_id]
                    else:
                        takers.append(meld_id)
            self._additions = additions
        return self._additions

    def first_cards(self) -> list[Card]:
        """The cards that may be chosen first, in code order."""
        options = self.options
        found = {candidate.sorted_cards[0] for candidate in options.melds}
        found.update([card for _meld_id, card in options.additions])
        found.update(self.state.addition_openers())
        return sorted(found)

    def next_cards(self, chosen: tuple[Card, ...]) -> list[Card]:
        """The cards that may be chosen after ``chosen`` (which is in code order), in
        code order (remembered per ``chosen``)."""
        cards = self._next.get(chosen)
        if cards is None:
            depth = len(chosen)
            if depth:
                found = {
                    target[depth]
                    for targets in (self.melds, self.additions)
                    for target in targets
                    if len(target) > depth and target[:depth] == chosen
                }
                cards = sorted(found)
            else:
                cards = self.first_cards()
            self._next[chosen] = cards
        return cards


class BurracoSteps:
    """A Burraco game played through the 145 ids (see the module docstring)."""

    game = "burraco"
    action_count = ACTION_COUNT
    layout: Layout = encoding.LAYOUT

    def __init__(self, state: State) -> None:
        self.state = state
        players = state.num_players
        self.layout = encoding.layout_for(players)
        self._chosen: list[Card] = []
        self._plan: TurnPlan | None = None
        self._legal: list[int] | None = None
        self._views: dict[int, Observation] = {}
        self._player_views: dict[int, PlayerView] = {}
        self._parts: dict[int, TableParts] = {}
        self._encoders = [encoding.Encoder(seat, players) for seat in range(players)]

    @classmethod
    def new(cls, rules: Rules, seed: int) -> BurracoSteps:
        return cls(State.new(rules, seed))

    def clone(self) -> BurracoSteps:
        """An independent copy (the engine state cloned, the chosen cards copied)."""
        twin = BurracoSteps(self.state.clone())
        twin._chosen = list(self._chosen)
        return twin

    @property
    def num_players(self) -> int:
        return int(self.state.num_players)

    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    @property
    def pending(self) -> tuple[Card, ...]:
        return tuple(self._chosen)

    # -----------------------------------------------------------------------------------
    # What is legal

    def observation(self, player: int) -> Observation:
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = self.state.observation(player)
        return view

    def view(self, player: int) -> PlayerView:
        """The engine's cheaper view of ``player`` (cached until the next action)."""
        view = self._player_views.get(player)
        if view is None:
            view = self._player_views[player] = self.state.player_view(player)
        return view

    def parts(self, player: int) -> TableParts:
        """The engine's table parts of ``player``, read in place: the same object until
        the next action (its lists change with the engine's)."""
        parts = self._parts.get(player)
        if parts is None:
            parts = self._parts[player] = self.state.table_parts(player)
        return parts

    def slots(self) -> list[int]:
        """The meld ids of the player to move's melds (with four, the team's), in the
        order laid (slot k)."""
        player = self.state.current_player or 0
        owners = self.parts(player).owners
        team = self.state.team_of(player)
        return [meld_id for meld_id, owner in enumerate(owners) if owner == team]

    def plan(self) -> TurnPlan:
        if self._plan is None:
            self._plan = TurnPlan(self.state)
        return self._plan

    def legal_ids(self) -> Sequence[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        if self.state.current_player is None:
            return []
        plan = self.plan()
        if not self._chosen:
            if plan.draws:
                return list(plan.draws)  # the draw phase: nothing else
            ids = [DISCARD + card for card in plan.discards]
            ids.extend([CHOOSE + card for card in plan.first_cards()])
            return ids
        chosen = tuple(self._chosen)
        ids = [CHOOSE + card for card in plan.next_cards(chosen)]
        if chosen in plan.melds:
            ids.append(LAY)
        ids.extend(ADD + slot for slot in self._add_slots(plan, chosen))
        return ids

    def _add_slots(self, plan: TurnPlan, chosen: tuple[Card, ...]) -> list[int]:
        if len(chosen) == 1:
            meld_ids = plan.singles.get(chosen[0], ())
        else:
            meld_ids = plan.additions.get(chosen, ())
        if not meld_ids:
            return []
        slots = self.slots()[:MELD_SLOTS]
        return [slot for slot, meld_id in enumerate(slots) if meld_id in meld_ids]

    def mask(self) -> Mask:
        return mask_of(self.legal_ids(), ACTION_COUNT)

    def engine_action(self, action_id: int) -> Action | None:
        """The engine action an id completes now (``None`` for *choose*, or an *add* to
        a slot the player does not have)."""
        index = action_index(action_id, ACTION_COUNT)
        if index == DRAW:
            return _DRAW_STOCK
        if index == TAKE:
            return _TAKE_PILE
        if index < CHOOSE:
            return DISCARDS[index - DISCARD]
        if index < LAY:
            return None
        chosen = tuple(self._chosen)
        if index == LAY:
            return Meld(chosen)
        slots = self.slots()
        slot = index - ADD
        return Extend(slots[slot], chosen) if slot < len(slots) else None

    def refusal(self, action_id: int) -> Refusal | None:
        """Why an id is not allowed now (``None`` when the mask allows it)."""
        index = action_index(action_id, ACTION_COUNT)
        if index in self.legal_ids():
            return None
        action = self.engine_action(index)
        chosen = self._chosen
        if action is not None and not chosen:
            engine = self.state.check(action)
            if engine is not None:
                return engine
        if self.state.current_player is None:
            return _refusal("game_over", "the game is over")
        if chosen and (index < CHOOSE):
            return _refusal(
                "meld_in_progress",
                f"you have chosen {format_cards(chosen)} for a meld: choose more cards,"
                " lay them as a meld or add them to one of your melds",
            )
        if CHOOSE <= index < LAY:
            cards = format_cards([*chosen, index - CHOOSE])
            return _refusal(
                "no_meld_with_cards",
                f"no legal meld or addition is made of {cards} and cards after them in card order",
            )
        if not chosen:
            return _refusal("no_cards_chosen", "choose the cards of the meld first")
        if action is None:
            return _refusal("no_such_meld", f"you have no meld number {index - ADD}")
        engine = self.state.check(action)
        if engine is not None:
            return engine
        return _refusal(
            "not_a_listed_meld",
            f"{format_cards(chosen)} is not one of the legal new melds",
        )

    # -----------------------------------------------------------------------------------
    # Playing

    def step(self, action_id: int) -> list[Event]:
        """Play one step; ``IllegalStep`` (nothing changed) if the mask excludes it.

        Returns the engine's events, or ``[]`` when a card was only chosen.
        """
        index = action_index(action_id, ACTION_COUNT)
        if index not in self.legal_ids():
            refusal = self.refusal(index)
            assert refusal is not None
            raise IllegalStep(refusal)
        if index < CHOOSE:
            # The mask is exact (the module docstring), so the engine need not check again.
            if index == DRAW:
                play: Action = _DRAW_STOCK
            elif index == TAKE:
                play = _TAKE_PILE
            else:
                play = DISCARDS[index - DISCARD]
            return self._played(self.state._play(play))
        if index < LAY:
            self._chosen.append(index - CHOOSE)
            self._legal = None
            return []
        if index == LAY:
            chosen = tuple(self._chosen)
            assert self._plan is not None
            return self._played(self.state._play(Meld(chosen), self._plan.melds[chosen]))
        action = self.engine_action(index)
        assert action is not None
        return self.apply(action)

    def apply(self, action: Action) -> list[Event]:
        """Apply an engine action (a bot's choice, or the end of a meld's steps)."""
        return self._played(self.state.apply(action))

    def _played(self, events: list[Event]) -> list[Event]:
        """Forget what the engine action just played made stale."""
        self._chosen.clear()
        self._plan = None
        self._legal = None
        self._views.clear()
        self._player_views.clear()
        self._parts.clear()
        return events

    def encode(self, player: int) -> FloatArray:
        mine = self._chosen and player == self.state.current_player
        chosen = tuple(self._chosen) if mine else ()
        return self._encoders[player].encode_parts(self.parts(player), chosen)

    def describe(self, action_id: int) -> str:
        return describe(action_id)

    def action_id(self, action: Action) -> int:
        """The id of a one-step engine action (draw, take, discard)."""
        if isinstance(action, DrawStock):
            return DRAW
        if isinstance(action, TakePile):
            return TAKE
        if isinstance(action, Discard):
            return DISCARD + action.card
        raise ValueError(f"{action!r} takes several steps (choose its cards, then lay or add)")

    def steps_for(self, action: Action) -> list[int]:
        """The ids that play an engine action from an empty choice (a bot's move)."""
        if isinstance(action, Meld | Extend):
            ids = [CHOOSE + card for card in sorted(action.cards)]
            if isinstance(action, Meld):
                return [*ids, LAY]
            return [*ids, ADD + self.slots().index(action.meld_id)]
        return [self.action_id(action)]
