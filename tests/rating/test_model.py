"""Rating updates against OpenSkill's own published examples, and the ladder's scale."""

from __future__ import annotations

import math

import pytest

from rummykit.rating.ladder import TableOutcome, disagreements, ladder_of, rate_outcomes
from rummykit.rating.model import (
    BETA,
    MU,
    POINTS_PER_MU,
    SIGMA,
    Rating,
    RatingError,
    new_model,
    pool_of,
    rate_table,
)


def test_the_model_reproduces_openskills_readme_example() -> None:
    # openskill.py's README: a team of a1 (default) and a2 beats b1 and b2; the figures
    # there were computed before OpenSkill added tau to every update, hence drift=False.
    model = new_model(drift=False)
    a1 = model.rating()
    a2 = model.rating(mu=32.444, sigma=5.123)
    b1 = model.rating(mu=43.381, sigma=2.421)
    b2 = model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    expected = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    for rating, (mu, sigma) in zip([x1, x2, y1, y2], expected, strict=True):
        assert rating.mu == pytest.approx(mu, rel=1e-12)
        assert rating.sigma == pytest.approx(sigma, rel=1e-12)


def test_defaults_are_openskills() -> None:
    model = new_model()
    assert (model.mu, model.sigma, model.beta, model.tau) == (MU, SIGMA, BETA, MU / 300)
    assert new_model(drift=False).tau == 0.0


def test_rate_table_agrees_with_the_library_for_one_player_teams() -> None:
    model = new_model(drift=False)
    before = [Rating(25, 8), Rating(30, 4), Rating(20, 6), Rating(27, 3)]
    places = [2, 1, 4, 2]
    mine = rate_table(model, before, places)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    theirs = model.rate(teams, ranks=[float(p) for p in places])
    assert [(r.mu, r.sigma) for r in mine] == [(t[0].mu, t[0].sigma) for t in theirs]


def test_places_move_ratings_the_right_way_and_a_draw_leaves_equals_equal() -> None:
    model = new_model(drift=False)
    four = rate_table(model, [Rating()] * 4, [1, 2, 3, 4])
    assert four[0].mu > four[1].mu > four[2].mu > four[3].mu
    assert all(r.sigma < SIGMA for r in four)
    drawn = rate_table(model, [Rating(), Rating()], [1, 1])
    assert drawn[0] == drawn[1] and drawn[0].mu == pytest.approx(MU)


def test_partners_are_rated_as_one_side() -> None:
    model = new_model(drift=False)
    strong, weak = Rating(mu=35.0, sigma=3.0), Rating(mu=15.0, sigma=3.0)
    after = rate_table(model, [strong, Rating(), weak, Rating()], [1, 2, 1, 2], sides=[0, 1, 0, 1])
    # both partners gain, the weak one more (the team's win says more of a weak player)
    assert after[0].mu > strong.mu and after[2].mu > weak.mu
    assert after[2].mu - weak.mu != after[0].mu - strong.mu
    assert after[1] == after[3] and after[1].mu < Rating().mu
    # a side of one is the players alone: the same as no sides
    alone = rate_table(model, [Rating(), Rating()], [2, 1])
    assert rate_table(model, [Rating(), Rating()], [2, 1], sides=[1, 0]) == alone
    with pytest.raises(RatingError) as refused:
        rate_table(model, [Rating(), Rating()], [1, 1], sides=[0, 0])
    assert refused.value.code == "bad_sides"


@pytest.mark.parametrize(
    ("ratings", "places"),
    [([Rating()], [1]), ([Rating(), Rating()], [1]), ([Rating(), Rating()], [0, 1])],
)
def test_bad_places_are_refused(ratings: list[Rating], places: list[int]) -> None:
    with pytest.raises(RatingError) as refused:
        rate_table(new_model(), ratings, places)
    assert refused.value.code == "bad_places"


def test_pools_separate_three_thirteen_by_player_count() -> None:
    assert pool_of("burraco", 2, player_counts=(2,)) == "burraco"
    # the two-player pool keeps its name when four come; four are a pool of their own
    assert pool_of("burraco", 2, player_counts=(2, 4), named_size=2) == "burraco"
    assert pool_of("burraco", 4, player_counts=(2, 4), named_size=2) == "burraco/4"
    counts = (2, 3, 4)
    assert pool_of("three-thirteen", 2, player_counts=counts) != pool_of(
        "three-thirteen", 3, player_counts=counts
    )


def test_the_scale_makes_400_points_ten_to_one_for_settled_ratings() -> None:
    gap = 400 / POINTS_PER_MU
    c = math.sqrt(2) * BETA
    # Plackett-Luce's two-player win probability with sigma -> 0
    assert 1 / (1 + math.exp(-gap / c)) == pytest.approx(10 / 11)


def test_ladder_is_anchored_and_ordered() -> None:
    outcomes = [TableOutcome(("greedy", "random"), (1, 2))] * 10
    outcomes += [
        TableOutcome(("ismcts", "greedy"), (1, 2)),
        TableOutcome(("greedy", "ismcts"), (1, 1)),
    ] * 5
    ratings, games = rate_outcomes(outcomes)
    assert games == {"greedy": 20, "random": 10, "ismcts": 10}
    rungs = ladder_of(ratings, games, anchor="random")
    assert [rung.name for rung in rungs] == ["ismcts", "greedy", "random"]
    assert (rungs[-1].points, rungs[-1].low, rungs[-1].high) == (1000.0, 1000.0, 1000.0)
    assert all(rung.low < rung.points < rung.high for rung in rungs[:-1])
    assert disagreements(rungs, rungs) == []
    with pytest.raises(RatingError):
        ladder_of(ratings, games, anchor="nobody")


def test_ladders_whose_intervals_miss_each_other_disagree() -> None:
    games = {"greedy": 1, "random": 1}
    first = ladder_of({"random": Rating(20, 1), "greedy": Rating(30, 1)}, games, anchor="random")
    second = ladder_of({"random": Rating(20, 1), "greedy": Rating(40, 1)}, games, anchor="random")
    near = ladder_of({"random": Rating(20, 1), "greedy": Rating(31, 1)}, games, anchor="random")
    assert disagreements(first, second) == ["greedy"]
    assert disagreements(first, near) == []
