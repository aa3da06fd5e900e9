"""An append-only log whose copies share what it already holds: a game's history.

A state keeps every action and event since the deal; a state's ``clone`` must cost the
current position, not the history (search clones thousands of times a second, a replay
keeps one clone per step).  :class:`History` stores what was appended before the last
copy in immutable chunks linked from the newest back, shared by every copy, and what
was appended since in a list of its own.  Copying freezes that list into one more chunk
and hands the copy the same chunks: no item is copied, so a copy's time and memory do
not grow with the length of the log.

>>> log = History[str]()
>>> log.extend(["deal", "draw"])
>>> twin = log.copy()
>>> twin.append("discard")
>>> log.to_list(), twin.to_list(), len(twin)
(['deal', 'draw'], ['deal', 'draw', 'discard'], 3)

A pickle or a deep copy holds the items as one flat list (the chunks are not
shared across processes).  This module knows nothing of games; it never changes an item.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class _Chunk(Generic[T]):
    """Items frozen by a copy, after those of ``previous``; ``size`` counts them all."""

    __slots__ = ("items", "previous", "size")

    previous: _Chunk[T] | None
    items: tuple[T, ...]
    size: int

    def __init__(self, previous: _Chunk[T] | None, items: tuple[T, ...]) -> None:
        self.previous = previous
        self.items = items
        self.size = len(items) + (0 if previous is None else previous.size)


class History(Generic[T]):
    """An append-only sequence with O(1) copies (see the module docstring)."""

    __slots__ = ("_frozen", "_recent")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._frozen: _Chunk[T] | None = None
        self._recent: list[T] = list(items)

    def append(self, item: T) -> None:
        self._recent.append(item)

    def extend(self, items: Iterable[T]) -> None:
        self._recent.extend(items)

    def copy(self) -> History[T]:
        """An independent log with the same items, sharing them with this one."""
        if self._recent:
            self._frozen = _Chunk(self._frozen, tuple(self._recent))
            self._recent = []
        twin: History[T] = History.__new__(History)
        twin._frozen = self._frozen
        twin._recent = []
        return twin

    def __len__(self) -> int:
        frozen = self._frozen
        return len(self._recent) + (0 if frozen is None else frozen.size)

    def to_list(self) -> list[T]:
        """Every item, oldest first, in a new list."""
        chunks: list[tuple[T, ...]] = []
        chunk = self._frozen
        while chunk is not None:
            chunks.append(chunk.items)
            chunk = chunk.previous
        items = [item for frozen in reversed(chunks) for item in frozen]
        items.extend(self._recent)
        return items

    def since(self, start: int) -> list[T]:
        """The items from index ``start`` on, in a new list; the time grows with how
        many those are, not with the length of the log.

        >>> log = History(["deal", "draw"])
        >>> twin = log.copy()
        >>> twin.extend(["meld", "discard"])
        >>> twin.since(1), twin.since(3), twin.since(9), log.since(0)
        (['draw', 'meld', 'discard'], ['discard'], [], ['deal', 'draw'])
        """
        start = max(0, start)
        recent = self._recent
        chunk = self._frozen
        frozen = 0 if chunk is None else chunk.size
        if start >= frozen:
            return recent[start - frozen :]
        chunks: list[tuple[T, ...]] = []
        while chunk is not None and chunk.size > start:
            chunks.append(chunk.items)
            chunk = chunk.previous
        skip = start - (0 if chunk is None else chunk.size)
        items = [item for frozen_items in reversed(chunks) for item in frozen_items][skip:]
        items.extend(recent)
        return items

    def __iter__(self) -> Iterator[T]:
        return iter(self.to_list())

    def __reduce__(self) -> tuple[type[History[T]], tuple[list[T]]]:
        """Pickled (and deep-copied) as a flat list: a chain of chunks may be long."""
        return (History, (self.to_list(),))

    def __repr__(self) -> str:
        return f"History({self.to_list()!r})"
