"""``greedy``: rule-based Burraco play that a good club player would recognise.

The bot decides one action at a time from the player's observation and the legal
actions, with a one-line reason:

- **Draw or take the pile** (:func:`pile_value`): the pile is taken when what it brings
  is worth it: cards that go straight into melds (more if they complete a burraco),
  wilds, cards that link up with the hand, weighed against the points it would leave
  in the hand when the hand may end soon.
- **Meld** (:mod:`.planning`): natural cards go down at once, additions to own
  melds and new melds (longest first, runs before sets); a natural card that replaces a
  wild comes first.  Wilds are kept for burracos: one goes down only to make a meld a
  burraco, unless the hand may end soon or the opponent may close (then every point
  that can leave the hand does).  When the whole hand but one card can go down, the bot
  goes for the pozzetto, wilds and all.
- **Close** when the rules allow it and it pays: the bot's hand score with the closing
  bonus beats the opponent's (their unseen cards counted at the mean), or the hand is
  ending anyway, or (in a game to a target, where a lost hand's points still count)
  the opponent is getting close to closing first.  Otherwise it keeps two cards so
  that it never closes by accident.
- **Discard** (:mod:`.discarding`): the card least useful to the bot and to the
  opponent.
- **Keep the hand moving** (:mod:`.progress`): never throw back a face taken alone
  from the pile since anyone last drew from the stock, nor take the pile's one card
  when nothing else would be left to discard, so that two players never hand the same
  cards back and forth until the stalemate rule ends the hand.

Deterministic: the decision depends on the observation and the legal actions alone
(the random generator is not used).  The bot never sees a game state and imports only
the engine and the standard library.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from rummykit.bots.base import Decision
from rummykit.bots.burraco.discarding import choose_discard
from rummykit.bots.burraco.planning import Plan, Step, WildPolicy, plan_melds
from rummykit.bots.burraco.progress import moves_with_progress
from rummykit.bots.burraco.reading import (
    THREAT_NONE,
    TableReading,
    is_wild_face,
    meld_score,
    read_table,
)
from rummykit.bots.reasons import Reason
from rummykit.cards import BURRACO_POINTS, JOKER, RANK_OF, SUIT_OF, Card, format_card
from rummykit.games.burraco import Discard, DrawStock, Observation, TakePile
from rummykit.games.burraco.melds import candidate_arrangements

TAKE_THRESHOLD: Final = 15.0
"""How much the pile must be worth (in plan value) for the bot to take it."""
JOKER_IN_PILE: Final = 35.0
TWO_IN_PILE: Final = 25.0
LINK_IN_PILE: Final = 6.0
LINKS_PER_CARD: Final = 4
RISK_EARLY: Final = 0.2
RISK_LATE: Final = 1.0
HEAVY_HAND: Final = 60
"""Points in hand above which a rising threat makes the bot spend its wilds."""
POZZETTO_WILDS: Final = 2
"""The most wilds the bot spends on small melds to empty its hand for the pozzetto."""
CLOSING_MARGIN: Final = 0.0
"""How far ahead (in estimated hand score) closing must leave the bot."""
CLOSING_BONUS: Final = 100
POZZETTO_PENALTY: Final = 100


@dataclass(frozen=True, slots=True)
class PileValue:
    """What taking the discard pile is worth, and why (see :func:`pile_value`)."""

    value: float
    completes_burraco: bool
    cards_melded: int
    wilds: int
    risk: float


def _policy(reading: TableReading) -> WildPolicy:
    if reading.endgame or (reading.threat > THREAT_NONE and reading.hand_points >= HEAVY_HAND):
        return "spend"
    return "burraco"


def _links(card: Card, others: Counter[Card]) -> int:
    """How many of ``others`` share ``card``'s rank or sit one or two places from it in
    its suit (a wild links to nothing: it is counted apart)."""
    if is_wild_face(card):
        return 0
    rank = RANK_OF[card]
    suit = SUIT_OF[card]
    links = 0
    for other, count in others.items():
        if other == card or is_wild_face(other):
            continue
        other_rank = RANK_OF[other]
        if other_rank == rank or (SUIT_OF[other] == suit and abs(other_rank - rank) <= 2):
            links += count
    return links


def pile_value(reading: TableReading) -> PileValue:
    """What taking the whole discard pile would bring, as plan value.

    The hand's best plan with the pile is compared with its best plan without it; pile
    wilds and pile cards that link up with the hand add to it; pile points that would
    stay in the hand subtract from it, much more when the hand may end soon or the
    opponent is getting close to closing.
    """
    observation = reading.observation
    pile = observation.discard_pile
    policy = _policy(reading)
    own = reading.own_melds
    one_set = observation.rules.one_set_per_rank
    alone = plan_melds(reading.hand, own, policy=policy, one_set_per_rank=one_set)
    together = plan_melds((*reading.hand, *pile), own, policy=policy, one_set_per_rank=one_set)
    value = together.value - alone.value
    left = Counter(together.remaining)
    pile_left = Counter(pile) & left
    melded = len(pile) - sum(pile_left.values())
    wilds = 0
    points_left = 0
    for card, count in pile_left.items():
        points_left += BURRACO_POINTS[card] * count
        if is_wild_face(card):
            wilds += count
            value += (JOKER_IN_PILE if card == JOKER else TWO_IN_PILE) * count
        else:
            value += LINK_IN_PILE * min(_links(card, left), LINKS_PER_CARD) * count
    late = reading.endgame or reading.threat > THREAT_NONE
    risk = points_left * (RISK_LATE if late else RISK_EARLY)
    value -= risk
    return PileValue(
        value=value,
        completes_burraco=together.new_burracos > alone.new_burracos,
        cards_melded=melded,
        wilds=wilds,
        risk=risk,
    )


def _step_text(step: Step) -> Reason:
    cards = [format_card(card) for card in step.cards]
    if step.before is None:
        return Reason.of("meld", cards=cards)
    meld = step.meld_id
    assert meld is not None  # a playable addition names the meld it goes to
    if step.replaces_wild:
        return Reason.of("replace_wild", meld=meld, cards=cards)
    return Reason.of("add_to_meld", cards=cards, meld=meld)


def _step_reason(step: Step, purpose: str) -> Reason:
    text = _step_text(step)
    if purpose:
        return text + Reason.of(purpose)
    if step.makes_burraco:
        return text + Reason.of("makes_burraco")
    if step.spends_wild:
        return text + Reason.of("points_out")
    if step.replaces_wild:
        return text + Reason.of("wild_to_run_end")
    if step.before is None:
        return text + Reason.of("meld_points", points=step.after.points)
    return text + Reason.of("grows_meld", count=len(step.after.cards))


def _first_playable(plan: Plan, legal: set[Any]) -> Step | None:
    for step in plan.steps:
        action = step.action
        if action is not None and action in legal:
            return step
    return None


def _score_after(reading: TableReading, plan: Plan) -> int:
    """The bot's melded score (with burraco bonuses) once ``plan`` is played."""
    score = sum(meld_score(m.meld) for m in reading.own_melds)
    for step in plan.steps:
        score += meld_score(step.after) - (0 if step.before is None else meld_score(step.before))
    return score


def _closing_pays(reading: TableReading, plan: Plan) -> bool:
    took = reading.took_pozzetto
    closing: float = _score_after(reading, plan) + (CLOSING_BONUS if took else -POZZETTO_PENALTY)
    closing -= reading.partner_points_guess()  # with four: the partner's cards count too
    lead = closing - reading.opponent_score_guess()
    if lead > CLOSING_MARGIN or reading.hand_may_end_soon:
        return True
    # Over several hands a hand's points count even when it is lost: close rather than
    # let an opponent who is getting close close first.
    return reading.observation.rules.mode == "target" and reading.threat > THREAT_NONE


class BurracoGreedyBot:
    """Rule-based Burraco play (see the module docstring); ``name`` is ``"greedy"``."""

    name = "greedy"

    def decide(
        self, observation: Any, legal_actions: Sequence[Any], rng: random.Random
    ) -> Decision:
        """One of ``legal_actions`` with a one-line reason.

        Raises ``TypeError`` for an observation of another game and ``ValueError``
        when there is nothing to choose from or it is not the observer's turn.
        """
        if not isinstance(observation, Observation):
            raise TypeError(
                f"the greedy Burraco bot needs a burraco.Observation, not"
                f" {type(observation).__name__}"
            )
        if not legal_actions:
            raise ValueError("there is no legal action to choose from")
        if observation.current_player != observation.player or observation.phase == "over":
            raise ValueError("it is not the observing player's turn")
        legal_actions = moves_with_progress(observation, legal_actions)
        reading = read_table(observation)
        if observation.phase == "draw":
            return self._draw(reading, legal_actions)
        return self._play(reading, legal_actions)

    # -----------------------------------------------------------------------------------

    def _draw(self, reading: TableReading, legal_actions: Sequence[Any]) -> Decision:
        can_draw = DrawStock() in legal_actions
        can_take = TakePile() in legal_actions
        if not can_take:
            pile = reading.observation.discard_pile
            if pile:  # the one card would only go round (moves_with_progress)
                why = Reason.of("draw") + Reason.of("goes_round", card=format_card(pile[0]))
            else:
                why = Reason.of("draw") + Reason.of("pile_empty")
            return Decision(_only(legal_actions, DrawStock), why)
        if not can_draw:
            why = Reason.of("take_pile") + Reason.of("stock_empty")
            return Decision(_only(legal_actions, TakePile), why)
        pile = reading.observation.discard_pile
        worth = pile_value(reading)
        if worth.value >= TAKE_THRESHOLD:
            if worth.completes_burraco:
                why = Reason.of("completes_burraco")
            elif worth.cards_melded == 1:
                why = Reason.of("pile_card_melds")
            elif worth.cards_melded:
                why = Reason.of("pile_cards_meld", count=worth.cards_melded)
            elif worth.wilds:
                why = Reason.of("brings_wild")
            else:
                why = Reason.of("pile_links", count=len(pile))
            return Decision(TakePile(), Reason.of("take_pile") + why)
        if worth.risk >= TAKE_THRESHOLD:
            why = Reason.of("pile_weighs", count=len(pile))
        elif len(pile) == 1:
            why = Reason.of("card_no_help", card=format_card(pile[0]))
        else:
            why = Reason.of("pile_too_little", count=len(pile))
        return Decision(DrawStock(), Reason.of("draw") + why)

    def _play(self, reading: TableReading, legal_actions: Sequence[Any]) -> Decision:
        legal = set(legal_actions)
        discards = [a for a in legal_actions if isinstance(a, Discard)]
        observation = reading.observation
        hand = reading.hand
        own = reading.own_melds
        one_set = observation.rules.one_set_per_rank
        forbidden = reading.forbidden_discard
        refused_last = frozenset(() if forbidden is None else (forbidden,))
        candidates = tuple(candidate_arrangements(hand))
        wilds_held = frozenset(c for c in hand if is_wild_face(c))
        if reading.can_refill:
            down = plan_melds(
                hand,
                own,
                policy="spend",
                bad_last=refused_last | wilds_held,
                one_set_per_rank=one_set,
                candidates=candidates,
            )
            wilds_spent = sum(1 for step in down.steps if step.spends_wild)
            if len(down.remaining) <= 1 and wilds_spent <= POZZETTO_WILDS:
                step = _first_playable(down, legal)
                if step is not None:
                    return Decision(step.action, _step_reason(step, "toward_pozzetto"))
                if down.remaining and Discard(down.remaining[0]) in legal:
                    card = format_card(down.remaining[0])
                    why = Reason.of("discard_take_pozzetto", card=card)
                    return Decision(Discard(down.remaining[0]), why)
            plan = plan_melds(
                hand,
                own,
                policy=_policy(reading),
                bad_last=refused_last,
                one_set_per_rank=one_set,
                candidates=candidates,
            )
        else:
            close = plan_melds(
                hand,
                own,
                policy="spend",
                min_left=1,
                bad_last=refused_last | wilds_held,
                needs_burraco_to_end=True,
                one_set_per_rank=one_set,
                candidates=candidates,
            )
            if len(close.remaining) == 1 and close.has_burraco and _closing_pays(reading, close):
                step = _first_playable(close, legal)
                if step is not None:
                    return Decision(step.action, _step_reason(step, "toward_closing"))
                last = Discard(close.remaining[0])
                if last in legal and len(hand) == 1:
                    why = Reason.of("discard_close", card=format_card(last.card))
                    return Decision(last, why)
            plan = plan_melds(
                hand,
                own,
                policy=_policy(reading),
                min_left=2,
                bad_last=refused_last,
                one_set_per_rank=one_set,
                candidates=candidates,
            )
        step = _first_playable(plan, legal)
        if step is not None:
            return Decision(step.action, _step_reason(step, ""))
        if not discards:
            # Every legal action is a meld or an addition the plan did not want; the
            # rules always leave a discard open, so this does not happen in play.
            action = legal_actions[0]
            return Decision(action, Reason.of("only_kind_left"))
        choice = choose_discard(reading, discards)
        discard = Reason.of("discard", card=format_card(choice.action.card))
        return Decision(choice.action, discard + choice.why)


def _only(legal_actions: Sequence[Any], kind: type[DrawStock] | type[TakePile]) -> Any:
    for action in legal_actions:
        if isinstance(action, kind):
            return action
    return legal_actions[0]


__all__ = ["BurracoGreedyBot", "PileValue", "pile_value"]
