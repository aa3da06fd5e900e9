"""The review never contradicts the hint: at positions of recorded games of both games,
a hint is the same on every call, and the review of that decision, searched with the
hint's budget and seed, suggests the hint's move (so it never calls the hint's move a
mistake, and suggests exactly it where another move was played)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots.hints import hint_iterations, hint_seed
from rummykit.games.registry import game_named
from rummykit.server.bots.service import hint
from rummykit.server.competition.review import decision_points, review_decision

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RECORDS = (
    "burraco-quick",
    "burraco-target-1005-4-jokers",
    "three-thirteen-2",
    "three-thirteen-4-variants",
)
COMMITMENT = "5f" * 32  # a table's seed commitment (64 hex digits)


def positions(name: str, every: int, limit: int) -> list[tuple[str, dict[str, Any]]]:
    """Up to ``limit`` decisions of seat 0 and 1 in the recorded game ``name`` with more
    than one legal move, every ``every``-th of them (the game and the decision point)."""
    record = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    game = record["game"]
    found = []
    for seat in (0, 1):
        points = decision_points(game, record["rules"], record["seed"], record["actions"], seat)
        found += [(game, point) for point in points if len(point["legal"]) > 1]
    return found[::every][:limit]


def check_agreement(game: str, point: dict[str, Any], iterations: int | None) -> float:
    """The hint at ``point`` twice, then the review of the hint's move and of another
    legal move there, all with the same budget; the seconds the first hint took."""
    started = time.perf_counter()
    suggested, reason = hint(game, point["observation"], point["legal"], iterations, COMMITMENT)
    took = time.perf_counter() - started
    again = hint(game, point["observation"], point["legal"], iterations, COMMITMENT)
    assert again == (suggested, reason)
    assert suggested in point["legal"]

    followed = review_decision(
        game, {**point, "played": suggested}, iterations=iterations, salt=COMMITMENT
    )
    assert followed["suggested"] is None, (point["state_number"], followed)
    assert not followed["mistake"] and followed["points"] == 0.0
    assert followed["reason"] == reason.text

    other = next(action for action in point["legal"] if action != suggested)
    differing = review_decision(
        game, {**point, "played": other}, iterations=iterations, salt=COMMITMENT
    )
    assert differing["suggested"] == suggested  # the hint's move, not another
    assert differing["reason"] == reason.text
    if differing["mistake"]:
        assert differing["points_low"] > 0
        assert differing["points"] >= differing["threshold"] > 0
    return took


@pytest.mark.parametrize("name", RECORDS)
def test_the_review_suggests_the_hints_move_at_recorded_positions(name: str) -> None:
    for game, point in positions(name, every=7, limit=6):
        check_agreement(game, point, iterations=30)


def test_the_hint_with_the_games_own_budget_agrees_with_the_review() -> None:
    """With each game's own hint budget (what the server uses): the same agreement, and
    a hint comes back in about a second on this kind of machine."""
    for name in ("burraco-quick", "three-thirteen-4-variants"):
        for game, point in positions(name, every=41, limit=2):
            seen = game_named(game).observation_from_json(point["observation"])
            assert hint_iterations(game, seen) >= 100
            took = check_agreement(game, point, iterations=None)
            assert took < 10  # about 1 s; generous for a loaded test machine


def test_the_hints_seed_is_made_of_the_observation_and_the_commitment_only() -> None:
    _game, point = positions("three-thirteen-2", every=1, limit=1)[0]
    observation = point["observation"]
    seed = hint_seed(observation, COMMITMENT)
    assert seed == hint_seed(json.loads(json.dumps(observation)), COMMITMENT)
    assert seed != hint_seed(observation, "0" * 64)
    assert 0 <= seed < 2**63
    # another position of the same game gets another seed
    _, later = positions("three-thirteen-2", every=1, limit=2)[1]
    assert hint_seed(later["observation"], COMMITMENT) != seed
