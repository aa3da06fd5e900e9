"""Known answers for Burraco melds: every example of RULES.md 1.3 and 1.4, and more."""

from __future__ import annotations

import pytest

from rummykit.cards import format_card, format_cards, parse_card, parse_cards
from rummykit.games.burraco.melds import (
    Meld,
    arrange,
    candidate_melds,
    extend,
    extending_cards,
)
from rummykit.games.core import MeldError


def cards(text: str) -> list[int]:
    return parse_cards(text)


def describe(text: str) -> str:
    return arrange(cards(text)).describe()


def grow(meld_text: str, *added: str) -> Meld:
    """Lay ``meld_text`` then add each group of ``added`` in turn."""
    meld = arrange(cards(meld_text))
    for group in added:
        meld = extend(meld, cards(group))
    return meld


def illegal(text: str) -> str:
    with pytest.raises(MeldError) as caught:
        arrange(cards(text))
    return str(caught.value)


# ---------------------------------------------------------------------------------------
# RULES.md 1.3: sets


def test_set_of_naturals_sorted_and_wild_last() -> None:
    meld = arrange(cards("Ks Jk Kc Kd"))
    assert meld.kind == "set"
    assert meld.describe() == "Kc Kd Ks Jk(=K)"
    assert meld.rank == 13
    assert meld.suit is None
    assert meld.wild_index == 3
    assert meld.stands_for is None
    assert not meld.clean


def test_set_suits_may_repeat() -> None:
    meld = arrange(cards("7h 7h 7c"))
    assert meld.kind == "set"
    assert meld.clean
    assert format_cards(meld.cards) == "7c 7h 7h"


def test_set_of_aces_is_legal() -> None:
    assert describe("As Ah Ac") == "Ac Ah As"


def test_set_of_twos_is_illegal() -> None:
    illegal("2s 2h 2d")


def test_in_a_set_every_two_is_wild() -> None:
    meld = arrange(cards("5c 5d 5s 2h"))
    assert meld.kind == "set"
    assert meld.describe() == "5c 5d 5s 2h(=5)"
    assert meld.points == 35


def test_set_at_most_one_wild() -> None:
    assert "one wild" in illegal("5c 5d 2h Jk")
    illegal("5c 5d 5s 2h 2c")


def test_set_at_most_nine_cards() -> None:
    assert arrange(cards("8c 8c 8d 8d 8h 8h 8s 8s Jk")).size == 9
    assert arrange(cards("8c 8c 8d 8d 8h 8h 8s 8s")).clean
    illegal("8c 8c 8d 8d 8h 8h 8s 8s 8s")


def test_meld_without_natural_is_illegal() -> None:
    illegal("Jk Jk 2c")
    illegal("2h 2h Jk")
    illegal("2h 2h 2h")


def test_too_few_cards() -> None:
    assert "at least 3" in illegal("5h 6h")
    illegal("")


# ---------------------------------------------------------------------------------------
# RULES.md 1.3: runs


def test_clean_run() -> None:
    meld = arrange(cards("9h 7h 8h"))
    assert meld.kind == "run"
    assert meld.describe() == "7h 8h 9h"
    assert meld.suit == 2
    assert meld.rank == 7
    assert meld.clean


def test_run_needs_one_suit() -> None:
    assert "one suit" in illegal("7h 8h 9c")


def test_ace_low_and_high() -> None:
    low = arrange(cards("Ah 2h 3h"))
    assert low.describe() == "Ah 2h 3h"
    assert low.rank == 1
    assert low.clean  # the 2 of hearts stands at its own place: natural
    high = arrange(cards("Ah Qh Kh"))
    assert high.describe() == "Qh Kh Ah"
    assert high.rank == 12


def test_runs_never_wrap() -> None:
    # K A 2 never wraps: the same multiset is legal only with the 2 as a wild below K.
    assert describe("Kh Ah 2h") == "2h(=Qh) Kh Ah"
    illegal("Kh Ah 2h 3h")
    illegal("Qs Ks As 2s 3s")


def test_fourteen_card_run_with_wild_high_ace() -> None:
    meld = arrange(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Jk"))
    assert meld.size == 14
    assert meld.rank == 1
    assert meld.wild_index == 13
    assert format_card(meld.stands_for or 0) == "Ah"
    assert meld.describe().endswith("Kh Jk(=Ah)")


def test_two_natural_aces_are_illegal() -> None:
    assert "two natural aces" in illegal("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    illegal("Ah Ah 2h 3h")
    assert describe("Ah Ah 2h") == "Ah Ah 2h(=A)"  # a set of aces


def test_natural_two_allows_one_more_wild() -> None:
    meld = arrange(cards("2h 3h 4h 2c"))
    assert meld.describe() == "2h 3h 4h 2c(=5h)"
    assert format_card(meld.stands_for or 0) == "5h"


def test_two_wilds_are_illegal() -> None:
    assert "one wild" in illegal("2c 4h 5h 6h 2d")
    illegal("Jk 4h 5h 6h 2c")


def test_meld_is_a_multiset_the_engine_arranges() -> None:
    meld = arrange(cards("2h 4h 5h 6h 2c"))
    assert meld.describe() == "2h 2c(=3h) 4h 5h 6h"
    assert format_card(meld.stands_for or 0) == "3h"


def test_two_of_the_suit_away_from_its_place_is_wild() -> None:
    meld = arrange(cards("5h 6h 2h"))
    assert meld.describe() == "5h 6h 2h(=7h)"
    assert not meld.clean
    meld = arrange(cards("2h 3h 4h 2h"))
    assert meld.describe() == "2h 3h 4h 2h(=5h)"


def test_duplicate_in_run_is_illegal() -> None:
    assert "twice" in illegal("5h 6h 6h 7h")


def test_wild_stands_high_if_room_else_low() -> None:
    assert describe("5h 6h Jk") == "5h 6h Jk(=7h)"
    assert describe("Kh Ah Jk") == "Jk(=Qh) Kh Ah"
    assert describe("Qh Kh Jk") == "Qh Kh Jk(=Ah)"


def test_wild_in_a_gap() -> None:
    assert describe("5h 7h Jk") == "5h Jk(=6h) 7h"
    assert describe("Ah 3h Jk") == "Ah Jk(=2h) 3h"
    illegal("5h 8h Jk")


def test_ace_to_king_lies_low() -> None:
    meld = arrange(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"))
    assert meld.rank == 1
    assert meld.clean


# ---------------------------------------------------------------------------------------
# RULES.md 1.4: wilds on the table


def test_wild_at_end_moves_to_fit_a_card() -> None:
    meld = arrange(cards("7h 8h 9h 2c"))
    assert meld.describe() == "7h 8h 9h 2c(=Th)"
    grown = extend(meld, cards("5h"))
    assert grown.describe() == "5h 2c(=6h) 7h 8h 9h"
    assert meld.describe() == "7h 8h 9h 2c(=Th)"  # never mutated


def test_wild_in_gap_cannot_move_until_replaced() -> None:
    meld = arrange(cards("5h 2c 7h 8h"))
    assert meld.describe() == "5h 2c(=6h) 7h 8h"
    with pytest.raises(MeldError, match="does not fit"):
        extend(meld, cards("Th"))
    # Adding next to the ends is fine; the wild stays in its gap.
    assert extend(meld, cards("9h")).describe() == "5h 2c(=6h) 7h 8h 9h"
    assert extend(meld, cards("4h")).describe() == "4h 5h 2c(=6h) 7h 8h"


def test_replacing_a_wild_moves_it_to_an_end() -> None:
    meld = arrange(cards("5h 2c 7h 8h"))
    assert extend(meld, cards("6h")).describe() == "5h 6h 7h 8h 2c(=9h)"
    high = arrange(cards("Jh Jk Kh Ah"))
    assert high.describe() == "Jh Jk(=Qh) Kh Ah"
    assert extend(high, cards("Qh")).describe() == "Jk(=Th) Jh Qh Kh Ah"


def test_replacing_a_wild_in_a_set_keeps_it() -> None:
    meld = arrange(cards("Kc Kd Jk"))
    assert extend(meld, cards("Ks")).describe() == "Kc Kd Ks Jk(=K)"


def test_gap_wild_is_not_replaced_by_another_wild() -> None:
    meld = arrange(cards("3h 2h 5h"))
    assert meld.describe() == "3h 2h(=4h) 5h"
    with pytest.raises(MeldError, match="fills a gap"):
        extend(meld, cards("Jk"))
    with pytest.raises(MeldError, match="fills a gap"):
        extend(meld, cards("2c"))
    # Laid at once the same cards are a meld: the 2h stands at its own place.
    assert describe("2h 3h Jk 5h") == "2h 3h Jk(=4h) 5h"


def test_pinned_wild_keeps_the_ace_low() -> None:
    meld = arrange(cards("Ah 2c 3h 4h 5h 6h 7h 8h 9h Th Jh"))
    assert meld.describe() == "Ah 2c(=2h) 3h 4h 5h 6h 7h 8h 9h Th Jh"
    grown = extend(meld, cards("Qh"))
    # The 2c fills a gap, so it stays: Qh goes on top and the ace stays low.
    assert grown.describe() == "Ah 2c(=2h) 3h 4h 5h 6h 7h 8h 9h Th Jh Qh"
    # Laid at once, the same cards put the wild as high as it can stand.
    assert arrange(grown.cards).describe() == "3h 4h 5h 6h 7h 8h 9h Th Jh Qh 2c(=Kh) Ah"
    assert Meld.from_json(grown.to_json()) == grown
    with pytest.raises(MeldError):
        extend(grown, cards("Ah"))  # two natural aces
    assert extend(grown, cards("Kh")).size == 13
    assert extend(grown, cards("2h")).describe() == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh 2c(=Kh)"


def test_pinned_wild_outlasts_its_need() -> None:
    meld = arrange(cards("Jd Qd 2d"))
    for card in cards("Ad Td 9d 8d 7d 6d 5d 4d 3d"):  # one at a time
        meld = extend(meld, [card])
    # The 2d stands inside the run, so it stays, though these cards could lie clean.
    assert meld.describe() == "3d 4d 5d 6d 7d 8d 9d Td Jd Qd 2d(=Kd) Ad"
    assert not meld.clean and arrange(meld.cards).clean
    # The table's layout is read back as it is (bots and players are sent it so).
    assert Meld.from_json(meld.to_json()) == meld
    # Replaced by the Kd, the 2d goes back to its own place: clean again.
    assert extend(meld, cards("Kd")).describe() == "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad"
    # A wild at the end is not pinned: there the layout must use the fewest wilds.
    end = {"kind": "run", "cards": ["3d", "4d", "2d"], "wild_index": 2, "suit": 1, "rank": 3}
    with pytest.raises(MeldError, match="lie on the table as 2d 3d 4d"):
        Meld.from_json(end)


def test_laid_cards_keep_their_places() -> None:
    meld = arrange(cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh"))
    # Kh would need the ace to go high and the 2 (not at the bottom) to turn wild.
    with pytest.raises(MeldError, match="change places"):
        extend(meld, cards("Kh"))
    assert describe("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Kh") == (
        "3h 4h 5h 6h 7h 8h 9h Th Jh 2h(=Qh) Kh Ah"
    )
    # The ace laid high stays high.
    high = extend(arrange(cards("3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")), cards("2h"))
    assert high.describe() == "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert extend(high, cards("Jk")).describe() == (
        "Jk(=Ah) 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    )
    assert Meld.from_json(high.to_json()) == high


def test_natural_two_turns_wild_so_the_run_grows() -> None:
    meld = arrange(cards("2d 3d 4d 5d 6d 7d"))
    assert meld.clean
    dirty = extend(meld, cards("9d"))
    assert dirty.describe() == "3d 4d 5d 6d 7d 2d(=8d) 9d"
    assert not dirty.clean
    clean = extend(dirty, cards("8d"))
    assert clean.describe() == "2d 3d 4d 5d 6d 7d 8d 9d"
    assert clean.clean


def test_two_goes_back_to_its_place() -> None:
    meld = arrange(cards("5h 6h 7h 2h"))
    assert meld.describe() == "5h 6h 7h 2h(=8h)"
    meld = extend(meld, cards("4h"))
    assert meld.describe() == "4h 5h 6h 7h 2h(=8h)"
    meld = extend(meld, cards("3h"))
    assert meld.describe() == "2h 3h 4h 5h 6h 7h"
    assert meld.clean


def test_several_cards_at_once() -> None:
    meld = arrange(cards("3h 4h 5h Jk"))
    assert meld.describe() == "3h 4h 5h Jk(=6h)"
    # 8h alone does not fit, but 6h then 8h does.
    with pytest.raises(MeldError):
        extend(meld, cards("8h"))
    assert extend(meld, cards("8h 6h")).describe() == "3h 4h 5h 6h Jk(=7h) 8h"
    with pytest.raises(MeldError):
        extend(meld, cards("9h 6h"))


def test_set_extensions() -> None:
    meld = arrange(cards("9c 9d 9s"))
    assert extend(meld, cards("9c 2h")).describe() == "9c 9c 9d 9s 2h(=9)"
    with pytest.raises(MeldError):
        extend(meld, cards("Jk 2h"))
    with pytest.raises(MeldError):
        extend(meld, cards("8c"))


def test_extend_rejects_bad_input() -> None:
    meld = arrange(cards("9c 9d 9s"))
    with pytest.raises(MeldError):
        extend(meld, [])
    with pytest.raises(MeldError):
        extend(meld, [99])
    with pytest.raises(MeldError):
        extend("9c 9d 9s", cards("9h"))  # type: ignore[arg-type]
    with pytest.raises(MeldError):
        arrange([1, 2, "x"])  # type: ignore[list-item]
    with pytest.raises(MeldError):
        arrange("5h 6h 7h")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Points and burracos


def test_points_and_burraco() -> None:
    meld = arrange(cards("3h 4h 5h 6h 7h 8h 9h"))
    assert meld.points == 45
    assert meld.is_burraco
    assert meld.clean
    assert arrange(cards("9s Ts Jk")).points == 50
    ace_low = arrange(cards("Ad 2d 3d 4d 5d 6d 7d"))
    assert ace_low.points == 60
    assert ace_low.is_burraco
    assert ace_low.clean  # a natural 2 in its place keeps it clean


# ---------------------------------------------------------------------------------------
# Candidates and extending cards


def test_candidate_melds_small_hand() -> None:
    found = {format_cards(m) for m in candidate_melds(cards("5h 6h 7h Jk Kc Kd Qs"))}
    assert found == {
        "5h 6h 7h",
        "5h 6h Jk",
        "6h 7h Jk",
        "5h Jk 7h",
        "5h 6h 7h Jk",
        "Kc Kd Jk",
    }


def test_extending_cards_known() -> None:
    meld = arrange(cards("5h 2c 7h 8h"))
    hand = cards("6h 4h 9h Th Jk 2h 6h")
    assert [format_card(c) for c in extending_cards(meld, hand)] == ["6h", "4h", "9h"]


def test_json_round_trip() -> None:
    meld = arrange(cards("5h 2c 7h 8h"))
    assert Meld.from_json(meld.to_json()) == meld
    with pytest.raises(MeldError):
        Meld.from_json({"cards": ["5h", "6h"]})
    with pytest.raises(MeldError):
        Meld.from_json({"cards": ["5h", "2c", "7h", "8h"], "wild_index": 3})
    with pytest.raises(MeldError):
        Meld.from_json({"cards": ["5h", "zz"]})
    with pytest.raises(MeldError):
        Meld.from_json([])
    # A layout the table never has: the wild low while there is room above.
    layout = {"kind": "run", "cards": ["Jk", "6h", "7h"], "wild_index": 0, "suit": 2, "rank": 5}
    with pytest.raises(MeldError):
        Meld.from_json(layout)
    with pytest.raises(MeldError):
        Meld.from_json({**meld.to_json(), "rank": 4})
    with pytest.raises(MeldError):
        Meld.from_json({**meld.to_json(), "suit": "h"})
    assert Meld.from_json({"cards": ["8h", "2c", "5h", "7h"]}) == meld


def test_parse_card_agrees() -> None:
    assert arrange([parse_card("jk"), parse_card("10h"), parse_card("jh")]).describe() == (
        "Th Jh Jk(=Qh)"
    )


@pytest.mark.parametrize(
    ("laid", "why", "detail"),
    [
        ("5h 6h", "too_few", ()),
        ("2s 2h 2d", "twos_only", ()),
        ("Jk Jk 2c", "no_natural", ()),
        ("5c 5d 2h Jk", "set_wilds", ("2h", "Jk")),
        ("8c 8c 8d 8d 8h 8h 8s 8s 8s", "set_size", ()),
        ("7h 8h 9c", "mixed_suits", ("9c", "7h", "8h")),
        ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", "two_aces", ()),
        ("5h 5h 6h 7h", "twice", ("5h",)),
        ("2c 4h 5h 6h 2d", "run_wilds", ("2c", "2d")),
        ("3h 4h 9h", "gap", ()),
    ],
)
def test_a_meld_refused_says_why_as_a_code_and_the_cards_it_names(
    laid: str, why: str, detail: tuple[str, ...]
) -> None:
    """A client says the reason in its own language from ``why`` and ``detail``."""
    with pytest.raises(MeldError) as caught:
        arrange(cards(laid))
    assert (caught.value.why, caught.value.detail) == (why, detail), str(caught.value)


@pytest.mark.parametrize(
    ("meld_text", "added", "why", "detail"),
    [
        ("5h 2c 7h 8h", "Th", "does_not_fit", ("Th",)),
        ("3h 2h 5h", "Jk", "wild_in_gap", ("4h",)),
        ("5h 6h 7h", "3h 3c", "mixed_suits", ("3c", "3h", "5h", "6h", "7h")),
        ("5h 6h 7h", "8h 8h", "twice", ("8h",)),
    ],
)
def test_an_addition_refused_says_why_as_a_code(
    meld_text: str, added: str, why: str, detail: tuple[str, ...]
) -> None:
    with pytest.raises(MeldError) as caught:
        extend(arrange(cards(meld_text)), cards(added))
    assert (caught.value.why, caught.value.detail) == (why, detail), str(caught.value)
