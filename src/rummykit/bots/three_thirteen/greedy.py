"""``greedy``: a rule-based Three-Thirteen player built on the exact arrangement solver.

Each decision follows a fixed rule (RULES.md section 2):

- **Draw**: take the top discard when it is a wild, or when keeping it lowers the
  hand's least deadwood after the best discard (``best_discards(hand + [top])``);
  otherwise draw from the stock.  (Discarding the top card again gives the hand back,
  so the least deadwood of ``hand + [top]`` after a discard is never above the hand's;
  a fully melded hand has nothing to lower.)
- **Go out** whenever the legal actions allow it, discarding the going-out card the
  next player shows the least use for (never a wild if another card will do).
- **Discard** a card among those leaving the least deadwood (``best_discards``' tie
  set).  Ties are broken, in order: keep wilds; give the next player the card they show
  the least use for (:mod:`.card_use`); keep the card with more meld
  partners; shed the higher card.  When the round may end soon (someone went out, the
  hands are small, the reshuffled stock is nearly spent) shedding the higher card comes
  before the other two.
- **Keep the round moving** (:mod:`.progress`): never discard a face taken from the
  discard pile since anyone last drew from the stock (taking the top card and throwing
  it back changes nothing), nor take the top card when nothing else would be left to
  discard.
- On the **last turn** after someone went out the same rules minimise the hand's own
  deadwood, which is all that still counts.

Every decision carries a one-line reason ("take 7h: deadwood 23 -> 12").  The bot is
deterministic: it never draws on ``rng``, and its memo of solver answers (a pure
function of the cards) changes how fast it decides, never what.  It reads only the
observation and the legal actions, and never builds or sees a game state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from rummykit.bots.base import Decision
from rummykit.bots.reasons import Reason
from rummykit.bots.three_thirteen.card_use import (
    OpponentSigns,
    is_wild,
    meld_partners,
    opponent_interest,
    points,
)
from rummykit.bots.three_thirteen.progress import moves_with_progress
from rummykit.bots.three_thirteen.solver_memo import SolverMemo
from rummykit.cards import Card, format_card
from rummykit.games.three_thirteen.actions import (
    DRAW_STOCK,
    TAKE_DISCARD,
    Action,
    Discard,
    DrawStock,
    GoOut,
    TakeDiscard,
)
from rummykit.games.three_thirteen.observation import Observation

SMALL_HAND: Final = 5
"""Rounds dealing this many cards or fewer may end at any moment."""


class ThreeThirteenGreedyBot:
    """The ``greedy`` Three-Thirteen bot (rules in the module docstring).

    >>> from rummykit.games.three_thirteen import GAME, Rules
    >>> state = GAME.new_state(Rules(), 7)
    >>> bot = ThreeThirteenGreedyBot()
    >>> decision = bot.decide(
    ...     state.observation(state.current_player), list(state.legal_actions()),
    ...     random.Random(0))
    >>> decision.action in list(state.legal_actions())
    True
    """

    __slots__ = ("_memos",)

    name: Final = "greedy"

    def __init__(self) -> None:
        self._memos: dict[tuple[bool, bool], SolverMemo] = {}

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        """One of ``legal_actions`` for the player of ``observation``, with its reason.

        Raises ``TypeError`` for an observation of another game and ``ValueError`` when
        there is nothing to choose or the legal actions do not fit the observation.
        """
        if not isinstance(observation, Observation):
            raise TypeError(
                f"the greedy Three-Thirteen bot needs a Three-Thirteen Observation,"
                f" not {type(observation).__name__}"
            )
        legal = list(legal_actions)
        if not legal:
            raise ValueError("there is no legal action to choose from")
        if observation.current_player != observation.player:
            raise ValueError(
                f"the observation is player {observation.player}'s, but it is not their turn"
            )
        legal = moves_with_progress(observation, legal)
        if observation.phase == "draw":
            decision = self._draw(observation, legal)
        else:
            going_out = sorted(a.card for a in legal if type(a) is GoOut)
            if going_out:
                decision = self._go_out(observation, going_out)
            else:
                decision = self._discard(observation, legal)
        if decision.action not in legal:
            raise ValueError(
                f"the legal actions do not fit the observation (no {decision.action!r} among"
                f" {len(legal)} actions in the {observation.phase} phase)"
            )
        return decision

    # -----------------------------------------------------------------------------------
    # The three decisions

    def _draw(self, observation: Observation, legal: list[Action]) -> Decision:
        can_draw = any(type(a) is DrawStock for a in legal)
        can_take = any(type(a) is TakeDiscard for a in legal)
        if not observation.discard_pile:
            return Decision(DRAW_STOCK, Reason.of("draw_stock") + Reason.of("pile_empty"))
        if not can_take:  # the top card would only go round (moves_with_progress)
            why = Reason.of("goes_round", card=format_card(observation.discard_pile[-1]))
            return Decision(DRAW_STOCK, Reason.of("draw_stock") + why)
        top = observation.discard_pile[-1]
        name = format_card(top)
        take = Reason.of("take_card", card=name)
        if not can_draw:
            return Decision(TAKE_DISCARD, take + Reason.of("stock_empty"))
        if is_wild(top, observation.wild_rank):
            return Decision(TAKE_DISCARD, take + Reason.of("wild_worth_taking"))
        memo = self.memo(observation)
        wild_rank = observation.wild_rank
        hand = observation.hand
        before = memo.deadwood(hand, wild_rank=wild_rank)
        if before == 0:
            return Decision(DRAW_STOCK, Reason.of("draw_stock") + Reason.of("fully_melded"))
        after, _ = memo.best_discards((*hand, top), wild_rank=wild_rank)
        if after >= before:
            why = Reason.of("no_lower_deadwood", card=name, deadwood=before)
            return Decision(DRAW_STOCK, Reason.of("draw_stock") + why)
        return Decision(
            TAKE_DISCARD, take + Reason.of("deadwood_change", before=before, after=after)
        )

    def _go_out(self, observation: Observation, going_out: list[Card]) -> Decision:
        next_seat = (observation.player + 1) % observation.rules.players
        signs = OpponentSigns.of(observation, next_seat)
        wild_rank = observation.wild_rank
        card = min(
            going_out,
            key=lambda c: (opponent_interest(c, signs, wild_rank=wild_rank), -points(c), c),
        )
        return Decision(GoOut(card), Reason.of("go_out_discarding", card=format_card(card)))

    def _discard(self, observation: Observation, legal: list[Action]) -> Decision:
        hand = observation.hand
        memo = self.memo(observation)
        least, ties = memo.best_discards(hand, wild_rank=observation.wild_rank)
        allowed = {a.card for a in legal if type(a) is Discard}
        candidates = [c for c in ties if c in allowed]
        if not candidates:  # every least-deadwood discard would go round: the next best
            left = {
                c: memo.deadwood(_without(hand, c), wild_rank=observation.wild_rank)
                for c in allowed
            }
            low = min(left.values())
            candidates = sorted(c for c, value in left.items() if value == low)
        wild_rank = observation.wild_rank
        players = observation.rules.players
        next_seat = (observation.player + 1) % players
        next_plays = observation.went_out is None or (
            observation.last_turns_remaining > 1 and next_seat != observation.went_out
        )
        signs = OpponentSigns.of(observation, next_seat)
        soon = _round_may_end_soon(observation)

        def key(card: Card) -> tuple[int, ...]:
            wild = 1 if is_wild(card, wild_rank) else 0
            interest = opponent_interest(card, signs, wild_rank=wild_rank) if next_plays else 0
            partners = meld_partners(card, hand, wild_rank=wild_rank)
            if soon:
                return (wild, -points(card), interest, partners, card)
            return (wild, interest, partners, -points(card), card)

        card = min(candidates, key=key)
        name = format_card(card)
        memo.remember_kept(hand, card, least, wild_rank=wild_rank)
        if observation.went_out is not None:
            why = Reason.of("last_turn") + Reason.of("discard_leaving", card=name, deadwood=least)
        else:
            why = Reason.of("discard", card=name) + Reason.of("least_deadwood", deadwood=least)
        if len(candidates) > 1:
            why += _tie_note(candidates, key, soon)
        return Decision(Discard(card), why)

    # -----------------------------------------------------------------------------------
    # The solver, memoised by hand (its answers depend on the cards and the rules only)

    def memo(self, observation: Observation) -> SolverMemo:
        """The solver's memo for this observation's rules (shared with the lookahead
        guide, which asks the same hands)."""
        rules = observation.rules
        options = (rules.ace_high, rules.wild_only_melds)
        memo = self._memos.get(options)
        if memo is None:
            memo = SolverMemo(ace_high=rules.ace_high, wild_only_melds=rules.wild_only_melds)
            self._memos[options] = memo
        return memo


def _round_may_end_soon(observation: Observation) -> bool:
    """Someone went out, the round deals few cards, or the last stock is nearly spent."""
    if observation.went_out is not None:
        return True
    if observation.round_number + 2 <= SMALL_HAND:
        return True
    return observation.reshuffled and observation.stock_count <= 2 * observation.rules.players


def _tie_note(candidates: list[Card], key: Callable[[Card], tuple[int, ...]], soon: bool) -> Reason:
    """Which tie-break put the chosen card (first by ``key``) ahead of the runner-up."""
    first, second = sorted(key(card) for card in candidates)[:2]
    step = next(index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    labels = _SOON_STEPS if soon else _USUAL_STEPS
    return Reason.of(labels[step], count=len(candidates))


_USUAL_STEPS: Final = (
    "tie_keeps_wilds",
    "tie_least_use",
    "tie_fewest_partners",
    "tie_highest",
    "tie_card_order",
)
_SOON_STEPS: Final = (
    "tie_keeps_wilds",
    "tie_highest_soon",
    "tie_least_use",
    "tie_fewest_partners",
    "tie_card_order",
)


def _without(hand: tuple[Card, ...] | list[Card], card: Card) -> tuple[Card, ...]:
    """``hand`` less one copy of ``card``."""
    kept = list(hand)
    kept.remove(card)
    return tuple(kept)
