"""Burraco hand scores: the worked example of RULES.md 1.7 and the rules around it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import BURRACO_POINTS, burraco_deck, parse_cards
from rummykit.games.burraco.melds import arrange, extend
from rummykit.games.burraco.scoring import HandScore, score_hand


def meld(text: str):
    return arrange(parse_cards(text))


def test_deck_totals_1020_points() -> None:
    assert sum(BURRACO_POINTS[c] for c in burraco_deck()) == 1020
    assert [BURRACO_POINTS[c] for c in parse_cards("Jk 2h 2s Ac 8d Kh 3s 7c")] == [
        30,
        20,
        20,
        15,
        10,
        10,
        5,
        5,
    ]


def test_worked_example_player_a_closes() -> None:
    score = score_hand(
        melds=[meld("3h 4h 5h 6h 7h 8h 9h"), meld("Kc Kd Ks"), meld("9s Ts Jk")],
        hand=[],
        took_pozzetto=True,
        closed=True,
    )
    assert score.melded == 45 + 30 + 50
    assert score.clean_burracos == 1
    assert score.dirty_burracos == 0
    assert score.burraco_bonus == 200
    assert score.closing_bonus == 100
    assert score.pozzetto_penalty == 0
    assert score.total == 425


def test_worked_example_player_b() -> None:
    score = score_hand(
        melds=[meld("5c 5d 5s 2h"), meld("Ad 2d 3d 4d 5d 6d 7d")],
        hand=parse_cards("Qh Jk 4c"),
        took_pozzetto=True,
        closed=False,
    )
    assert score.melded == 35 + 60
    assert score.in_hand == 45
    assert score.clean_burracos == 1
    assert score.total == 250


def test_one_burraco_and_a_queen() -> None:
    score = score_hand(
        melds=[meld("3h 4h 5h 6h 7h 8h 9h")],
        hand=parse_cards("Qh"),
        took_pozzetto=True,
        closed=False,
    )
    assert score.total == 235


def test_dirty_burraco_and_no_pozzetto() -> None:
    dirty = extend(meld("2d 3d 4d 5d 6d 7d"), parse_cards("9d"))
    assert dirty.is_burraco and not dirty.clean
    score = score_hand(melds=[dirty], hand=[], took_pozzetto=False, closed=True)
    assert score.dirty_burracos == 1
    assert score.burraco_bonus == 100
    assert score.closing_bonus == 0  # no closing bonus without a pozzetto
    assert score.pozzetto_penalty == 100
    assert score.total == dirty.points + 100 - 100


def test_scores_may_be_negative() -> None:
    score = score_hand(melds=[], hand=parse_cards("Jk Jk"), took_pozzetto=False, closed=False)
    assert score.total == -160


def test_closing_needs_a_burraco() -> None:
    with pytest.raises(ValueError, match="burraco"):
        score_hand(melds=[meld("Kc Kd Ks")], hand=[], took_pozzetto=True, closed=True)


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        score_hand(melds=[], hand=[60], took_pozzetto=True, closed=False)
    with pytest.raises(ValueError):
        score_hand(melds=["3h 4h 5h"], hand=[], took_pozzetto=True, closed=False)  # type: ignore[list-item]


def test_json_round_trip() -> None:
    score = score_hand(
        melds=[meld("3h 4h 5h 6h 7h 8h 9h")], hand=[10], took_pozzetto=True, closed=False
    )
    data = score.to_json()
    assert set(data) == {
        "melded",
        "in_hand",
        "clean_burracos",
        "dirty_burracos",
        "burraco_bonus",
        "closing_bonus",
        "pozzetto_penalty",
        "total",
    }
    assert HandScore.from_json(data) == score
    with pytest.raises(ValueError):
        HandScore.from_json({**data, "total": data["total"] + 1})
    with pytest.raises(ValueError):
        HandScore.from_json({**data, "extra": 1})
    with pytest.raises(ValueError):
        HandScore.from_json({**data, "melded": "45"})


@given(
    hand=st.lists(st.integers(0, 52), max_size=15),
    took=st.booleans(),
    sizes=st.lists(st.integers(3, 13), max_size=4),
)
def test_total_adds_up(hand: list[int], took: bool, sizes: list[int]) -> None:
    melds = [arrange([13 + rank for rank in range(size)]) for size in sizes]  # diamond runs
    score = score_hand(melds=melds, hand=hand, took_pozzetto=took, closed=False)
    assert score.in_hand == sum(BURRACO_POINTS[c] for c in hand)
    assert score.melded == sum(m.points for m in melds)
    assert score.clean_burracos == sum(1 for s in sizes if s >= 7)
    assert score.total == (
        score.melded - score.in_hand + 200 * score.clean_burracos - (0 if took else 100)
    )
