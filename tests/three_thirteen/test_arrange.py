"""Known answers for the Three-Thirteen arrangement solver (RULES.md 2.3-2.4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.cards import DEADWOOD_POINTS, JOKER, CardError, format_cards, parse_cards
from rummykit.games.core import MeldError
from rummykit.games.three_thirteen.arrange import (
    Arrangement,
    arrange,
    best_discards,
    classify_meld,
    deadwood,
    going_out_discards,
)
from rummykit.games.three_thirteen.arrange_layout import place_extra_wilds, run_group


def names(cards):
    return format_cards(cards)


def test_rule_book_example_round_six():
    """RULES.md 2.4: round 6 (8 wild) leaves 19, where the greedy run A-5 leaves 27."""
    cards = parse_cards("Ah 2h 4h 5h 7h 8h Th Tc")
    result = arrange(cards, wild_rank=8)
    assert result.deadwood == 19
    assert [names(m) for m in result.melds] == ["Tc Th 8h"]
    assert names(result.unmelded) == "Ah 2h 4h 5h 7h"
    assert deadwood(cards, wild_rank=8) == 19
    greedy_leftover = parse_cards("7h Th Tc")
    assert sum(DEADWOOD_POINTS[c] for c in greedy_leftover) == 27


def test_empty_hand():
    assert arrange([], wild_rank=3) == Arrangement(deadwood=0, melds=(), unmelded=())
    assert deadwood([], wild_rank=3) == 0
    assert going_out_discards([], wild_rank=3) == ()


@pytest.mark.parametrize(
    ("hand", "wild_rank", "expected"),
    [
        ("3c 3d 3h", 3, 9),  # round 1: three wilds are no meld (no natural card)
        ("4c 4d 4h", 3, 0),
        ("Ah 2h 3h", 5, 0),  # ace low
        ("Qh Kh Ah", 5, 21),  # no ace high by default
        ("Kh Ah 2h", 5, 13),  # no wrapping
        ("5h 8h 8c", 8, 0),  # one natural and two wilds
        ("4h 6h 8c", 8, 0),  # a wild fills the gap
        ("4h 7h 8c", 8, 19),  # one wild cannot fill two places
        ("Jk 4h 5d", 9, 24),  # a joker unmelded counts 15
        ("Jk 4h 5h", 9, 0),
        ("9c Kh Qs", 9, 29),  # round 7: one wild cannot meld a lone card
        ("7h 7h 7c", 3, 0),  # two decks: identical cards in a set
        ("7h 7h 8h", 3, 22),  # ... but a run never holds the same card twice
    ],
)
def test_small_hands(hand, wild_rank, expected):
    assert deadwood(parse_cards(hand), wild_rank=wild_rank) == expected


def test_ace_high_variant():
    assert deadwood(parse_cards("Qh Kh Ah"), wild_rank=5, ace_high=True) == 0
    assert deadwood(parse_cards("Kh Ah 2h"), wild_rank=5, ace_high=True) == 13
    result = arrange(parse_cards("Qh Ah 5c"), wild_rank=5, ace_high=True)
    assert [names(m) for m in result.melds] == ["Qh 5c Ah"]


def test_wild_only_melds_variant():
    wilds = parse_cards("3c 3d 3h")
    assert deadwood(wilds, wild_rank=3, wild_only_melds=True) == 0
    assert classify_meld(wilds, wild_rank=3, wild_only_melds=True) == "set"
    with pytest.raises(MeldError, match="natural"):
        classify_meld(wilds, wild_rank=3)


def test_every_wild_joins_a_meld_once_one_exists():
    cards = parse_cards("4h 5h 6h Kc Kd Ks Jk")
    result = arrange(cards, wild_rank=13)
    assert result.deadwood == 0
    assert result.unmelded == ()
    assert sum(len(m) for m in result.melds) == 7


def test_run_layout_puts_wilds_at_their_places():
    result = arrange(parse_cards("4h 6h 9c 9d"), wild_rank=9)
    assert [names(m) for m in result.melds] == ["4h 9c 6h 9d"]


def test_long_runs_are_split_when_the_wilds_do_not_fit():
    """12 hearts and two wilds: one run would hold 14 cards, so the melds split."""
    cards = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kc Kd")
    result = arrange(cards, wild_rank=13)
    assert result.deadwood == 0
    assert all(len(m) <= 13 for m in result.melds)
    assert Counter(c for m in result.melds for c in m) == Counter(cards)
    for meld in result.melds:
        classify_meld(meld, wild_rank=13)


@pytest.mark.parametrize(
    ("meld", "kind"),
    [
        ("5h 5c 8h", "set"),
        ("5h 8h 8c", "set"),  # naturals share one rank
        ("4h 8c 6h", "run"),
        ("Ah 2h 3h", "run"),
        ("8c 8d 8h 5s", "set"),
        ("Jk Jk 4d", "set"),
        ("9h 8s Jh", "run"),
    ],
)
def test_classify(meld, kind):
    assert classify_meld(parse_cards(meld), wild_rank=8) == kind


@pytest.mark.parametrize(
    ("meld", "reason"),
    [
        ("5h 5c", "at least 3"),
        ("5h 6c 7h", "neither a set"),
        ("5h 5h 6h", "same card twice"),
        ("4h 7h 8c", "gaps need 2 wild cards and it has 1"),
        ("Qh Kh Ah", "ace is low only"),
        ("Kh Ah 2h", "gaps need"),
        ("8c 8d 8h", "natural"),
    ],
)
def test_classify_refuses(meld, reason):
    with pytest.raises(MeldError, match=reason):
        classify_meld(parse_cards(meld), wild_rank=8)


def test_classify_refuses_runs_past_thirteen_cards():
    meld = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh") + parse_cards("Jk")
    with pytest.raises(MeldError, match="at most 13"):
        classify_meld(meld, wild_rank=5)
    assert classify_meld(meld[:-1], wild_rank=5) == "run"


def test_best_discards_after_drawing():
    # The rule book's round-6 hand plus a drawn 3h: A-5 runs without a wild, so the
    # 8h completes the tens and the 7h goes.
    cards = parse_cards("Ah 2h 4h 5h 7h 8h Th Tc 3h")
    assert best_discards(cards, wild_rank=8) == (0, tuple(parse_cards("7h")))
    # Drawing a 9c instead: throw the 9c (19 points stay, as in the example) or the Th
    # (8h 9c Tc run: the same 19).
    cards = parse_cards("Ah 2h 4h 5h 7h 8h Th Tc 9c")
    assert best_discards(cards, wild_rank=8) == (19, tuple(parse_cards("9c Th")))


def test_best_discards_never_throws_a_card_from_a_set_it_keeps():
    # Throwing a four leaves 4 + a lone wild; keeping both fours in a set is no throw.
    assert best_discards(parse_cards("3s 4h 4s"), wild_rank=3) == (7, tuple(parse_cards("4h 4s")))


def test_best_discards_lists_each_face_once():
    points, discards = best_discards(parse_cards("Kc Kc 5h 6h 7h"), wild_rank=3)
    assert (points, names(discards)) == (10, "Kc")


def test_going_out_discards():
    cards = parse_cards("4h 5h 6h 9c 9d 9s Qd")
    assert names(going_out_discards(cards, wild_rank=7)) == "Qd"
    assert going_out_discards(parse_cards("4h 5h 6h 9c 9d Js Qd"), wild_rank=7) == ()
    # Two wilds: the Qd can go (9c 9d 7s 7c), or the 9c (9d 7s 7c Qd: a run of diamonds).
    cards = parse_cards("4h 5h 6h 9c 9d 7s 7c Qd")
    assert names(going_out_discards(cards, wild_rank=7)) == "9c Qd"
    # Two copies of the same face are one answer.
    cards = parse_cards("4h 5h 6h Qd Qd Qc Qs")
    assert names(going_out_discards(cards, wild_rank=7)) == "Qc Qd Qs"


def test_bad_input_is_refused_clearly():
    with pytest.raises(CardError):
        deadwood([53], wild_rank=3)
    with pytest.raises(CardError):
        arrange(["Ah"], wild_rank=3)  # type: ignore[list-item]
    for bad in (True, 3.0, -1, None):
        with pytest.raises(CardError):
            deadwood([bad], wild_rank=3)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="wild rank"):
        deadwood([1, 2, 3], wild_rank=0)
    with pytest.raises(ValueError, match="at most two decks"):
        deadwood(parse_cards("7h 7h 7h"), wild_rank=3)
    with pytest.raises(ValueError, match="at least one card"):
        best_discards([], wild_rank=3)


def test_cutting_long_runs_always_finds_room_for_the_wilds():
    """``place_extra_wilds``: every run that would pass 13 cards can be cut (the proof in
    its docstring), checked on every run of hearts with every surplus of wilds."""
    rng = random.Random(7)
    for _ in range(400):
        size = rng.randint(2, 13)
        positions = tuple(sorted(rng.sample(range(1, 14), size)))
        naturals = tuple(26 + p - 1 for p in positions)
        group = run_group(naturals, positions)
        room = 13 - max(3, positions[-1] - positions[0] + 1)
        for extra in range(room + 1, room + 15):
            wilds = group.need + extra
            pieces = place_extra_wilds([group], extra)
            assert sorted(c for piece in pieces for c in piece.naturals) == sorted(naturals)
            needs = sum(piece.need for piece in pieces)
            assert needs <= wilds
            runs = [piece for piece in pieces if piece.positions]
            if len(runs) == len(pieces):
                spare = sum(13 - max(3, p.positions[-1] - p.positions[0] + 1) for p in runs)
                assert spare >= wilds - needs
            for piece in runs:
                assert piece.positions[-1] - piece.positions[0] + 1 <= 13
                meld = list(piece.naturals) + [JOKER] * piece.need
                spare_rank = min(set(range(1, 14)) - set(piece.positions))
                assert classify_meld(meld, wild_rank=spare_rank) == "run"


def test_answers_survive_the_memos_starting_afresh(monkeypatch):
    """Past a size limit the memos empty themselves; the answers stay the same."""
    from rummykit.cards import three_thirteen_deck
    from rummykit.games.three_thirteen import arrange_layout, arrange_runs

    rng = random.Random(11)
    deck = three_thirteen_deck(decks=2, jokers_per_deck=2)
    hands = [(rng.sample(deck, 14), rng.randint(3, 13), rng.random() < 0.5) for _ in range(150)]

    def answers():
        return [
            (
                arrange(cards[:-1], wild_rank=wild, ace_high=high),
                best_discards(cards, wild_rank=wild, ace_high=high),
                going_out_discards(cards, wild_rank=wild, ace_high=high),
            )
            for cards, wild, high in hands
        ]

    before = answers()
    monkeypatch.setattr(arrange_runs, "_CACHE_LIMIT", 3)
    monkeypatch.setattr(arrange_layout, "_CACHE_LIMIT", 3)
    arrange_runs._forget()
    assert answers() == before
    assert len(arrange_runs._position_cache) < 1000
