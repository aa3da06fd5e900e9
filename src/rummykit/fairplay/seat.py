"""The assessment of one seat of a played game, and the game's verdict for it.

Every decision of the seat (or only those its player chose, when a substitute played
some) is weighed by :func:`~rummykit.fairplay.decisions.assess_decision`.  The figures:

- ``match_share``: of the real choices, the share where the played move was the
  search's;
- ``telling`` and ``telling_matched``: decisions where the search's move beats its guide,
  and how many of them the seat played;
- ``mean_loss``: the mean loss per real choice, in the game's points;
- with decision times (a server records them): ``time_cv``, their coefficient of
  variation, and ``time_difficulty``, their correlation with the decisions' difficulty
  (a person thinks longer where the choice is hard; a relay of a bot's moves does not);
- with focus losses (the browser reports them): ``focus_losses_per_turn``;
- at four, with partners (:func:`~rummykit.fairplay.decisions.partner_figures`):
  ``partner_telling``, the decisions where knowing the partner's hand changes the
  search's move, ``partner_matched``, how many of them the seat played as that move, and
  ``partner_gain``, the mean gain per decision of the played moves over the plain
  search's once the partner's hand is known, in the game's points.

The **evidence** is the log-likelihood ratio of the telling decisions under an assisted
player against an honest strong one: on a telling decision where the search weighed two
moves, the assisted player plays the search's move at the rate
``ASSISTED_RATES[2]`` and the honest one at ``HONEST_RATES[2]``; where it weighed three
or more, at ``ASSISTED_RATES[3]`` and ``HONEST_RATES[3]``.  The rates were measured on
the benchmark's calibration deals (``benchmarks/fairplay.py --seed 1``): the honest ones
are those of the strongest honest players there (the search at a small budget), the
assisted ones those of players who always follow a search of their own.  A lost game
counts :data:`LOST_WEIGHT` of its evidence.

At four, the **partner evidence** is the same ratio over the decisions that knowing the
partner's hand changes: a seat that sees its partner's hand plays the seeing search's
move on them at the rate :data:`PARTNER_SEEING_RATE`, an honest one at
:data:`PARTNER_HONEST_RATE` (measured on the partners' benchmark's calibration deals,
``benchmarks/fairplay.py --partners --seed 1``).

The verdict is the first of :data:`VERDICTS` whose threshold neither evidence reaches.
Times and focus losses are shown to moderators beside the verdict but do not change it:
no benchmark measures them yet.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from rummykit.fairplay.decisions import (
    DecisionFigures,
    PartnerFigures,
    assess_decision,
    assessment_seed,
    partner_figures,
)
from rummykit.games.record import GameRecord, RecordError, seat_decisions

Verdict = Literal["nothing", "unclear", "suspicious", "very_likely"]
VERDICTS: Final[tuple[tuple[Verdict, float], ...]] = (
    ("nothing", 1.0),
    ("unclear", 2.0),
    ("suspicious", 4.0),
    ("very_likely", math.inf),
)
"""Each verdict with the evidence (natural log) it stays below: ``nothing to see`` below
1, ``unclear`` below 2, ``suspicious`` below 4, ``very likely assisted`` from 4."""
HONEST_RATES: Final = {2: 0.65, 3: 0.2}
"""How often a strong honest player plays the search's move on a telling decision, by
the moves searched (two; three or more)."""
ASSISTED_RATES: Final = {2: 0.8, 3: 0.5}
"""How often a player who follows a search of their own does (another search, with its
own seed and budget, finds the same improvement only this often)."""
LOST_WEIGHT: Final = 0.5
"""A lost game's share of its evidence: help that did not win is less likely."""
PARTNER_HONEST_RATE: Final = 0.3
"""How often an honest seat at four plays the move that knowing its partner's hand
would choose, on a decision that knowledge changes."""
PARTNER_SEEING_RATE: Final = 0.55
"""How often a seat that sees its partner's hand does."""

Outcome = Literal["won", "lost", "draw", "unfinished"]


class AssessmentError(ValueError):
    """A record that cannot be assessed for that seat (a seat out of range, a decision
    chosen by another seat, times that do not fit the decisions)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatAssessment:
    """One seat of one game, assessed."""

    game: str
    seat: int
    player: str
    outcome: Outcome
    iterations: int
    decisions: int
    real_choices: int
    matched: int
    telling: int
    telling_matched: int
    mean_loss: float
    time_cv: float | None = None
    time_difficulty: float | None = None
    focus_losses_per_turn: float | None = None
    partner_telling: int | None = None
    partner_matched: int | None = None
    partner_gain: float | None = None
    partner_evidence: float | None = None
    evidence: float = 0.0
    verdict: Verdict = "nothing"
    figures: tuple[DecisionFigures, ...] = field(default=(), repr=False)

    @property
    def match_share(self) -> float | None:
        return self.matched / self.real_choices if self.real_choices else None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatAssessment:
        """A seat's assessment back from :meth:`to_json` (its decisions' figures, which
        that leaves out, empty)."""
        figures = dict(data)
        figures.pop("match_share", None)
        return cls(**figures)

    def to_json(self) -> dict[str, Any]:
        share = self.match_share
        return {
            "game": self.game,
            "seat": self.seat,
            "player": self.player,
            "outcome": self.outcome,
            "iterations": self.iterations,
            "decisions": self.decisions,
            "real_choices": self.real_choices,
            "matched": self.matched,
            "match_share": None if share is None else round(share, 3),
            "telling": self.telling,
            "telling_matched": self.telling_matched,
            "mean_loss": round(self.mean_loss, 2),
            "time_cv": _rounded(self.time_cv),
            "time_difficulty": _rounded(self.time_difficulty),
            "focus_losses_per_turn": _rounded(self.focus_losses_per_turn),
            "partner_telling": self.partner_telling,
            "partner_matched": self.partner_matched,
            "partner_gain": _rounded(self.partner_gain),
            "partner_evidence": _rounded(self.partner_evidence, 2),
            "evidence": round(self.evidence, 2),
            "verdict": self.verdict,
        }


def _rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def evidence_of(telling: Sequence[DecisionFigures], outcome: Outcome) -> float:
    """The log-likelihood ratio of the ``telling`` decisions' matches (assisted against
    honest), a lost game's weighed by :data:`LOST_WEIGHT`."""
    ratio = 0.0
    for figure in telling:
        kind = 2 if figure.choices <= 2 else 3
        honest, assisted = HONEST_RATES[kind], ASSISTED_RATES[kind]
        if figure.matched:
            ratio += math.log(assisted / honest)
        else:
            ratio += math.log((1 - assisted) / (1 - honest))
    return ratio * (LOST_WEIGHT if outcome == "lost" else 1.0)


def partner_evidence_of(partners: Sequence[PartnerFigures], outcome: Outcome) -> float:
    """The log-likelihood ratio of the matches on the decisions that knowing the
    partner's hand changes (seeing it against honest), a lost game's weighed by
    :data:`LOST_WEIGHT`."""
    matched = math.log(PARTNER_SEEING_RATE / PARTNER_HONEST_RATE)
    missed = math.log((1 - PARTNER_SEEING_RATE) / (1 - PARTNER_HONEST_RATE))
    ratio = sum(matched if figure.matched else missed for figure in partners if figure.telling)
    return ratio * (LOST_WEIGHT if outcome == "lost" else 1.0)


def verdict_of(evidence: float) -> Verdict:
    """The verdict of a game's evidence.

    >>> verdict_of(-3.0), verdict_of(1.5), verdict_of(2.5), verdict_of(7.0)
    ('nothing', 'unclear', 'suspicious', 'very_likely')
    """
    for verdict, below in VERDICTS:
        if evidence < below:
            return verdict
    return VERDICTS[-1][0]  # pragma: no cover - the last threshold is infinite


def _outcome(state: Any, seat: int) -> Outcome:
    if state.current_player is not None:
        return "unfinished"
    winners = tuple(state.winners)
    if seat not in winners:
        return "lost"
    return "draw" if len(winners) == state.num_players else "won"


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    if len(xs) < 3:
        return None
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:  # a constant series
        return None


@dataclass(frozen=True, slots=True)
class Point:
    """One decision of the seat: what it saw, its legal moves, the move played, and the
    partner's real hand at four (empty otherwise)."""

    observation: Any
    legal: list[Any]
    played: Any
    held: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class SeatPoints:
    """A seat's decisions in a record, and what the game's end says of the seat."""

    game: str
    seat: int
    player: str
    outcome: Outcome
    partner: int | None
    points: list[Point]


def seat_points(record: GameRecord, seat: int, chosen: Collection[int] | None = None) -> SeatPoints:
    """Replay ``record`` and list ``seat``'s decisions (only the action numbers in
    ``chosen``, when given: those the seat's player chose)."""
    game = record.info
    state = game.new_state(record.rules, record.seed)
    if not 0 <= seat < state.num_players:
        raise AssessmentError(f"there is no seat {seat} in this game")
    partner_of = getattr(state, "partner_of", None)
    partner = partner_of(seat) if partner_of is not None else None
    points: list[Point] = []
    try:
        for found in seat_decisions(game, state, record.actions, seat, chosen):
            held = tuple(state.hand_of(partner)) if partner is not None else ()
            observation, legal = state.observation(seat), list(state.legal_actions())
            points.append(Point(observation, legal, found.action, held))
    except RecordError as error:
        raise AssessmentError(str(error)) from None
    return SeatPoints(
        game=game.name,
        seat=seat,
        player=record.players[seat] if seat < len(record.players) else f"seat {seat + 1}",
        outcome=_outcome(state, seat),
        partner=partner,
        points=points,
    )


def assess_point(
    game: str, point: Point, partner: int | None, *, iterations: int, salt: str = ""
) -> tuple[DecisionFigures, PartnerFigures | None]:
    """One decision searched (and searched again with the partner's hand, at four)."""
    seed = assessment_seed(point.observation.to_json(), salt)
    plain = assess_decision(
        game, point.observation, point.legal, point.played, iterations=iterations, seed=seed
    )
    if partner is None:
        return plain, None
    seeing = partner_figures(
        game, point.observation, partner, point.held, point.legal, point.played, plain,
        iterations=iterations, seed=seed,
    )  # fmt: skip
    return plain, seeing


def assess_seat(
    record: GameRecord,
    seat: int,
    *,
    iterations: int,
    salt: str = "",
    chosen: Collection[int] | None = None,
    times: Sequence[float] | None = None,
    focus_losses: int | None = None,
) -> SeatAssessment:
    """Assess ``seat`` of ``record`` with ``iterations`` per decision, in this process.

    ``chosen``: the action numbers the seat's player chose (by default every action of
    the seat); ``times``: the seconds each of those decisions took, in order;
    ``focus_losses``: how often the page lost focus during the seat's turns."""
    found = seat_points(record, seat, chosen)
    if times is not None and len(times) != len(found.points):
        raise AssessmentError(f"{len(times)} decision times for {len(found.points)} decisions")
    results = [
        assess_point(found.game, point, found.partner, iterations=iterations, salt=salt)
        for point in found.points
    ]
    return summarize_seat(found, results, iterations, times=times, focus_losses=focus_losses)


def summarize_seat(
    found: SeatPoints,
    results: Sequence[tuple[DecisionFigures, PartnerFigures | None]],
    iterations: int,
    *,
    times: Sequence[float] | None = None,
    focus_losses: int | None = None,
) -> SeatAssessment:
    """The seat's assessment from each of its decisions' (``times`` in the same order)."""
    if times is not None and len(times) != len(results):
        raise AssessmentError(f"{len(times)} decision times for {len(results)} decisions")
    assessed = summarize(
        [plain for plain, _ in results],
        game=found.game,
        seat=found.seat,
        player=found.player,
        outcome=found.outcome,
        iterations=iterations,
        times=times,
        focus_losses=focus_losses,
    )
    if found.partner is None:
        return assessed
    partners = [seeing for _, seeing in results if seeing is not None]
    telling = [figure for figure in partners if figure.telling]
    partner_evidence = partner_evidence_of(partners, found.outcome)
    return replace(
        assessed,
        partner_telling=len(telling),
        partner_matched=sum(figure.matched for figure in telling),
        partner_gain=statistics.fmean([f.gain for f in partners]) if partners else 0.0,
        partner_evidence=partner_evidence,
        verdict=verdict_of(max(assessed.evidence, partner_evidence)),
    )


def summarize(
    figures: Sequence[DecisionFigures],
    *,
    game: str,
    seat: int,
    player: str,
    outcome: Outcome,
    iterations: int,
    times: Sequence[float] | None = None,
    focus_losses: int | None = None,
) -> SeatAssessment:
    """The seat's figures from its decisions' (``times`` in the same order)."""
    real = [index for index, figure in enumerate(figures) if figure.real]
    telling = [figures[index] for index in real if figures[index].telling]
    telling_matched = sum(figure.matched for figure in telling)
    time_cv = time_difficulty = None
    if times is not None and real:
        spent = [float(times[index]) for index in real]
        mean = statistics.fmean(spent)
        if len(spent) >= 2 and mean > 0:
            time_cv = statistics.stdev(spent) / mean
        time_difficulty = _correlation(spent, [figures[index].spread for index in real])
    evidence = evidence_of(telling, outcome)
    return SeatAssessment(
        game=game,
        seat=seat,
        player=player,
        outcome=outcome,
        iterations=iterations,
        decisions=len(figures),
        real_choices=len(real),
        matched=sum(figures[index].matched for index in real),
        telling=len(telling),
        telling_matched=telling_matched,
        mean_loss=statistics.fmean([figures[i].loss for i in real]) if real else 0.0,
        time_cv=time_cv,
        time_difficulty=time_difficulty,
        focus_losses_per_turn=(
            None if focus_losses is None or not figures else focus_losses / len(figures)
        ),
        evidence=evidence,
        verdict=verdict_of(evidence),
        figures=tuple(figures),
    )
