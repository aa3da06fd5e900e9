"""The portable deal procedure: fixed outputs that any re-implementation must match."""

import hashlib
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.games.randomness import MAX_SEED, SampleStream, SeedStream, check_seed


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


def reference_shuffle(seed: int, label: str, skip: int, count: int) -> tuple[list[int], int]:
    """The documented procedure written out from the docstring (no SeedStream): the
    stream's first ``skip`` words thrown away, then ``count`` items shuffled; the
    shuffled items and the next word."""
    words: list[int] = []

    def word() -> int:
        if not words:
            block = len(taken) // 8
            name = b"rummykit/v1|%d|%s|%d" % (seed, label.encode(), block)
            raw = hashlib.sha256(name).digest()
            words.extend(int.from_bytes(raw[i : i + 4], "big") for i in range(0, 32, 4))
        taken.append(words.pop(0))
        return taken[-1]

    taken: list[int] = []
    for _ in range(skip):
        word()
    items = list(range(count))
    for i in range(count - 1, 0, -1):
        n = i + 1
        while (w := word()) >= 2**32 - 2**32 % n:
            pass
        j = w % n
        items[i], items[j] = items[j], items[i]
    return items, word()


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8, 9, 52, 104, 300])
@pytest.mark.parametrize("skip", [0, 1, 7, 8, 13])
def test_shuffle_follows_the_procedure_from_any_point_of_the_stream(count: int, skip: int) -> None:
    for seed in range(3):
        stream = SeedStream(seed, "check")
        for _ in range(skip):
            stream.below(2**32)
        items = list(range(count))
        stream.shuffle(items)
        assert (items, stream.below(2**32)) == reference_shuffle(seed, "check", skip, count)


class ScriptedStream(SeedStream):
    """A stream whose words are given, to reach the rare rejected word on purpose."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(0, "scripted")
        self.script = words

    def _hash_blocks(self, first: int, count: int) -> tuple[int, ...]:
        return tuple(self.script[8 * first : 8 * (first + count)])


def test_shuffle_with_a_rejected_word_is_the_one_by_one_procedure() -> None:
    rng = random.Random(4)
    for trial in range(40):
        words = [rng.randrange(2**32) for _ in range(64)]
        count = rng.randrange(2, 40)
        # A word that below(n) rejects for the n of that swap (2**32 % n > 0), or one
        # that only looks risky: either way the result is the procedure's.
        place = rng.randrange(count - 1)
        n = count - place
        words[place] = 2**32 - 1 - (trial % 3) if 2**32 % n else 2**32 - 1
        fast = list(range(count))
        ScriptedStream(words).shuffle(fast)
        slow = list(range(count))
        stream = ScriptedStream(words)
        for i in range(count - 1, 0, -1):
            j = stream.below(i + 1)
            slow[i], slow[j] = slow[j], slow[i]
        assert fast == slow


def sample_words(seed: int, label: str, count: int) -> list[int]:
    """The documented words of a SampleStream: SHAKE-256 of the name, big-endian."""
    name = b"rummykit/sample/v1|%d|%s" % (seed, label.encode())
    raw = hashlib.shake_256(name).digest(4 * count)
    return [int.from_bytes(raw[i : i + 4], "big") for i in range(0, 4 * count, 4)]


@pytest.mark.parametrize("count", [0, 1, 2, 9, 63, 64, 65, 130])
@pytest.mark.parametrize("skip", [0, 1, 70])
def test_sample_stream_follows_its_procedure(count: int, skip: int) -> None:
    for seed in range(3):
        stream = SampleStream(seed, "determinize")
        assert [stream.below(2**32) for _ in range(skip)] == sample_words(seed, "determinize", skip)
        items = list(range(count))
        stream.shuffle(items)
        words = iter(sample_words(seed, "determinize", skip + count + 8)[skip:])
        expected = list(range(count))
        for i in range(count - 1, 0, -1):
            n = i + 1
            while (word := next(words)) >= 2**32 - 2**32 % n:
                pass
            j = word % n
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
        assert stream.below(2**32) == next(words)


class ScriptedSample(SampleStream):
    def __init__(self, words: list[int]) -> None:
        super().__init__(0, "scripted")
        self.script = words

    def _reserve(self, count: int) -> None:
        self._words = tuple(self.script)


def test_sample_shuffle_with_a_rejected_word_is_the_one_by_one_procedure() -> None:
    rng = random.Random(9)
    for _ in range(40):
        words = [rng.randrange(2**32) for _ in range(64)]
        count = rng.randrange(2, 40)
        words[rng.randrange(count - 1)] = 2**32 - 1
        fast = list(range(count))
        ScriptedSample(words).shuffle(fast)
        slow = list(range(count))
        stream = ScriptedSample(words)
        for i in range(count - 1, 0, -1):
            j = stream.below(i + 1)
            slow[i], slow[j] = slow[j], slow[i]
        assert fast == slow


def test_sample_stream_shuffles_uniformly() -> None:
    counts: Counter[tuple[int, ...]] = Counter()
    for seed in range(24_000):
        items = [0, 1, 2, 3]
        SampleStream(seed, "uniform").shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    assert all(850 < c < 1150 for c in counts.values())
