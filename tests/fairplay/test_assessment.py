"""The fair-play assessment of a seat: a seat that plays the search's moves matches every
telling decision, a plain player none, and the verdicts and account reports follow the
thresholds."""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import replace
from typing import Any

import pytest

from rummykit.bots.base import Bot
from rummykit.bots.by_game import bots_for
from rummykit.bots.ismcts import ISMCTSBot
from rummykit.bots.levels import make_bot
from rummykit.fairplay.account import (
    MIN_GAMES,
    REPORT_EVIDENCE,
    SUSPICIOUS_SHARE,
    assess_account,
)
from rummykit.fairplay.decisions import DecisionFigures, PartnerFigures, assessment_seed
from rummykit.fairplay.seat import (
    PARTNER_HONEST_RATE,
    PARTNER_SEEING_RATE,
    AssessmentError,
    SeatAssessment,
    SeatPoints,
    assess_seat,
    summarize,
    summarize_seat,
    verdict_of,
)
from rummykit.games.record import GameRecord, record_of
from rummykit.games.registry import game_named

ITERATIONS = 60


class SearchFollower:
    """A player who plays exactly what the assessment's own search plays."""

    name = "follower"

    def __init__(self, game: str) -> None:
        self.game = game

    def decide(self, observation: Any, legal: Any, rng: random.Random) -> Any:
        bot = ISMCTSBot(bots_for(self.game).search(), iterations=ITERATIONS)
        seed = assessment_seed(observation.to_json())
        return bot.decide(observation, legal, random.Random(seed))


def played(game: str, rules: Any, seed: int, bots: list[Bot]) -> GameRecord:
    info = game_named(game)
    state = info.new_state(rules, seed)
    rng = random.Random(seed)
    while state.current_player is not None:
        seat = state.current_player
        legal = list(state.legal_actions())
        state.apply(bots[seat].decide(state.observation(seat), legal, rng).action)
    return record_of(info, state, players=[bot.name for bot in bots])


def short_three_thirteen() -> Any:
    return game_named("three-thirteen").rules_type(first_round=3, last_round=4)


def test_a_seat_that_follows_the_search_matches_every_real_and_telling_choice() -> None:
    game = "three-thirteen"
    record = played(
        game, short_three_thirteen(), 11, [SearchFollower(game), make_bot(game, "random")]
    )
    follower = assess_seat(record, 0, iterations=ITERATIONS)
    assert follower.real_choices > 5 and follower.telling >= 1
    assert follower.matched == follower.real_choices
    assert follower.telling_matched == follower.telling
    assert follower.mean_loss == 0.0
    other = assess_seat(record, 1, iterations=ITERATIONS)
    assert other.matched < other.real_choices
    assert other.mean_loss > 0


def test_the_plain_player_the_search_starts_from_never_matches_a_telling_choice() -> None:
    game = "burraco"
    info = game_named(game)
    record = played(game, info.rules_type(), 3, [make_bot(game, "greedy"), make_bot(game, "easy")])
    greedy = assess_seat(record, 0, iterations=ITERATIONS)
    assert greedy.real_choices > 10 and greedy.telling > 3
    assert greedy.telling_matched == 0
    assert greedy.evidence <= 0
    assert greedy.verdict == "nothing"


def test_only_the_seats_own_chosen_decisions_are_assessed_and_times_must_fit_them() -> None:
    game = "three-thirteen"
    record = played(
        game, short_three_thirteen(), 5, [make_bot(game, "greedy"), make_bot(game, "random")]
    )
    state = game_named(game).new_state(record.rules, record.seed)
    mine = []
    for number, text in enumerate(record.actions):
        if state.current_player == 0:
            mine.append(number)
        state.apply(game_named(game).parse_action(text))
    chosen = mine[::2]
    assessed = assess_seat(record, 0, iterations=20, chosen=chosen, times=[1.0] * len(chosen))
    assert assessed.decisions == len(chosen)
    with pytest.raises(AssessmentError, match="decision times"):
        assess_seat(record, 0, iterations=20, chosen=chosen, times=[1.0])
    with pytest.raises(AssessmentError, match="not seat 1's"):
        assess_seat(record, 1, iterations=20, chosen=chosen[:1])
    with pytest.raises(AssessmentError, match="no seat 2"):
        assess_seat(record, 2, iterations=20)


def figure(
    *, telling: bool, matched: bool, spread: float = 10.0, choices: int = 5
) -> DecisionFigures:
    return DecisionFigures(
        real=True,
        matched=matched,
        telling=telling,
        loss=0.0 if matched else 5.0,
        spread=spread,
        choices=choices,
    )


def test_time_figures_follow_the_decisions_difficulty() -> None:
    figures = [figure(telling=False, matched=True, spread=s) for s in (1.0, 5.0, 9.0, 20.0)]
    thoughtful = summarize(
        figures,
        game="burraco",
        seat=0,
        player="p",
        outcome="won",
        iterations=1,
        times=[2.0, 6.0, 11.0, 25.0],
        focus_losses=2,
    )
    assert thoughtful.time_difficulty is not None and thoughtful.time_difficulty > 0.95
    assert thoughtful.focus_losses_per_turn == 0.5
    steady = summarize(
        figures,
        game="burraco",
        seat=0,
        player="p",
        outcome="won",
        iterations=1,
        times=[4.0, 4.0, 4.0, 4.0],
    )
    assert steady.time_cv == 0.0
    assert steady.time_difficulty is None  # constant times have no correlation


def test_a_lost_game_weighs_half_and_the_verdict_follows_the_evidence() -> None:
    figures = [figure(telling=True, matched=True)] * 6 + [figure(telling=True, matched=False)] * 2
    won = summarize(figures, game="burraco", seat=0, player="p", outcome="won", iterations=1)
    lost = summarize(figures, game="burraco", seat=0, player="p", outcome="lost", iterations=1)
    assert lost.evidence == pytest.approx(won.evidence / 2)
    assert won.verdict == verdict_of(won.evidence) != "nothing"
    honest = summarize(
        [figure(telling=True, matched=False)] * 8,
        game="burraco",
        seat=0,
        player="p",
        outcome="won",
        iterations=1,
    )
    assert honest.evidence < 0 and honest.verdict == "nothing"
    # a match where the choice was between two moves is what chance gives one time in two
    coin = [figure(telling=True, matched=True, choices=2)] * 6
    coin += [figure(telling=True, matched=False, choices=2)] * 2
    lucky = summarize(coin, game="burraco", seat=0, player="p", outcome="won", iterations=1)
    assert 0 < lucky.evidence < won.evidence / 2


def assessed(evidence: float, verdict: str, telling: int = 10) -> SeatAssessment:
    return SeatAssessment(
        game="burraco",
        seat=0,
        player="p",
        outcome="won",
        iterations=1,
        decisions=40,
        real_choices=30,
        matched=20,
        telling=telling,
        telling_matched=5,
        mean_loss=1.0,
        evidence=evidence,
        verdict=verdict,  # type: ignore[arg-type]
    )


def test_an_account_is_reported_only_past_every_threshold() -> None:
    strong = assessed(2.5, "suspicious")
    enough = [strong] * MIN_GAMES
    assert sum(g.evidence for g in enough) >= REPORT_EVIDENCE
    assert assess_account("p", enough).reported
    assert not assess_account("p", enough[:-1]).reported  # too few games
    clean = [replace(strong, verdict="unclear", evidence=1.5)] * MIN_GAMES
    assert sum(g.evidence for g in clean) >= REPORT_EVIDENCE
    assert not assess_account("p", clean).reported  # no flagged game
    one_flagged = [strong] + [replace(strong, verdict="unclear", evidence=1.5)] * 9
    account = assess_account("p", one_flagged)
    assert account.evidence >= REPORT_EVIDENCE and account.flagged_share < SUSPICIOUS_SHARE
    assert not account.reported  # the evidence is spread thin over mostly unclear games
    weak = [strong] * 3 + [replace(strong, verdict="nothing", evidence=0.0)] * 7
    assert assess_account("p", weak).flagged_share >= SUSPICIOUS_SHARE
    assert not assess_account("p", weak).reported  # too little evidence pooled


def at_four(plain: list[DecisionFigures], partners: list[PartnerFigures], outcome: Any) -> Any:
    """Seat 0 of a game for four, summarized from its decisions' figures."""
    found = SeatPoints(game="burraco", seat=0, player="p", outcome=outcome, partner=2, points=[])
    return summarize_seat(found, list(zip(plain, partners, strict=True)), 1)


def test_at_four_the_partner_evidence_weighs_the_moves_that_seeing_the_partner_changes() -> None:
    plain = [figure(telling=False, matched=True)] * 10
    seeing = [PartnerFigures(telling=True, matched=True, gain=3.0)] * 7
    seeing += [PartnerFigures(telling=True, matched=False, gain=0.0)] * 2
    seeing += [PartnerFigures(telling=False, matched=True, gain=0.0)]  # changes nothing
    won = at_four(plain, seeing, "won")
    per_match = math.log(PARTNER_SEEING_RATE / PARTNER_HONEST_RATE)
    per_miss = math.log((1 - PARTNER_SEEING_RATE) / (1 - PARTNER_HONEST_RATE))
    assert won.partner_evidence == pytest.approx(7 * per_match + 2 * per_miss)
    assert won.evidence == 0.0  # no telling decision of the plain search
    assert won.verdict == verdict_of(won.partner_evidence) != "nothing"
    assert won.to_json()["partner_evidence"] == round(won.partner_evidence, 2)
    lost = at_four(plain, seeing, "lost")
    assert lost.partner_evidence == pytest.approx(won.partner_evidence / 2)
    honest = [PartnerFigures(telling=True, matched=m, gain=0.0) for m in [True] * 4 + [False] * 6]
    plain_help = [figure(telling=True, matched=True)] * 10
    engine = at_four(plain_help, honest, "won")
    assert engine.partner_evidence is not None and engine.partner_evidence < 0
    assert engine.verdict == verdict_of(engine.evidence) != "nothing"  # either evidence flags
    two = summarize(plain, game="burraco", seat=0, player="p", outcome="won", iterations=1)
    assert two.partner_evidence is None and two.to_json()["partner_evidence"] is None


def test_an_account_at_four_is_reported_on_its_pooled_partner_evidence() -> None:
    # no game is flagged: a game for four has too few decisions the partner's hand changes
    seeing = replace(assessed(0.0, "unclear", telling=2), partner_telling=3, partner_evidence=1.0)
    enough = [seeing] * MIN_GAMES
    account = assess_account("p", enough)
    assert account.evidence < REPORT_EVIDENCE == account.partner_evidence
    assert account.reported and account.partner_telling == 3 * MIN_GAMES
    assert not assess_account("p", enough[:-1]).reported  # too few games
    short = [replace(seeing, partner_evidence=0.9)] * (MIN_GAMES + 1)
    assert not assess_account("p", short).reported  # 9.9 pooled
    honest = [replace(seeing, verdict="nothing", partner_evidence=-2.0)] * MIN_GAMES
    assert not assess_account("p", honest).reported
    assert assess_account("p", [assessed(2.5, "suspicious")] * MIN_GAMES).partner_evidence is None


def test_at_four_each_decision_is_searched_again_with_the_partners_hand_known() -> None:
    game = "burraco"
    info = game_named(game)
    rules = info.rules_type(players=4)
    record = played(game, rules, 9, [make_bot(game, "greedy") for _ in range(4)])
    seat = assess_seat(record, 0, iterations=120)
    assert seat.partner_telling is not None and seat.partner_matched is not None
    assert 0 <= seat.partner_matched <= seat.partner_telling <= seat.decisions
    assert seat.partner_telling > 0  # knowing the partner's hand changes some moves
    assert seat.partner_gain is not None and math.isfinite(seat.partner_gain)
    two = played(game, info.rules_type(), 7, [make_bot(game, "greedy")] * 2)
    assert assess_seat(two, 0, iterations=12).partner_telling is None


def test_the_partners_hand_is_in_every_deal_the_second_search_simulates() -> None:
    game = "burraco"
    info = game_named(game)
    state = info.new_state(info.rules_type(players=4), 3)
    seat, partner = state.current_player, state.partner_of(state.current_player)
    seen = state.observation(seat)
    held = tuple(state.hand_of(partner))
    assert sorted(held) != sorted(info.determinize(seen, 1).hand_of(partner))
    with_partner = dataclasses.replace(
        seen,
        known_cards=tuple(held if s == partner else c for s, c in enumerate(seen.known_cards)),
    )
    for world in range(5):
        assert sorted(info.determinize(with_partner, world).hand_of(partner)) == sorted(held)
