"""The portable deal procedure: fixed outputs that any re-implementation must match."""

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.games.randomness import MAX_SEED, SeedStream, check_seed


def test_first_word_follows_the_documented_procedure() -> None:
    digest = hashlib.sha256(b"rummykit/v1|42|hand/0|0").digest()
    first_word = int.from_bytes(digest[:4], "big")
    assert SeedStream(42, "hand/0").below(2**32) == first_word


def test_golden_shuffle() -> None:
    # A change here changes every recorded deal: it must be deliberate.
    items = list(range(20))
    SeedStream(1, "x").shuffle(items)
    assert items == [16, 7, 19, 3, 2, 6, 17, 9, 1, 10, 5, 13, 11, 0, 14, 18, 15, 4, 8, 12]


def test_streams_with_other_labels_or_seeds_differ() -> None:
    def deal(seed: int, label: str) -> list[int]:
        items = list(range(52))
        SeedStream(seed, label).shuffle(items)
        return items

    assert deal(5, "hand/0") == deal(5, "hand/0")
    assert deal(5, "hand/0") != deal(5, "hand/1")
    assert deal(5, "hand/0") != deal(6, "hand/0")


@given(st.integers(min_value=1, max_value=2**32), st.integers(min_value=0, max_value=MAX_SEED))
def test_below_stays_in_range(n: int, seed: int) -> None:
    stream = SeedStream(seed, "range")
    assert all(0 <= stream.below(n) < n for _ in range(20))


def test_below_is_roughly_uniform() -> None:
    stream = SeedStream(3, "uniform")
    counts = Counter(stream.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < c < 10_600 for c in counts.values())


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, 1.5, "7", True, None])
def test_bad_seeds_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        check_seed(bad)


def test_below_refuses_bad_bounds() -> None:
    with pytest.raises(ValueError):
        SeedStream(1, "x").below(0)
