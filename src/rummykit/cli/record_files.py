"""Game records on disk: reading one safely, and choosing where a new one goes.

Reading checks the file's size before reading it and never reads more than a record may
hold (a device or a pipe named as a record is cut off, not read forever).  Writing never
overwrites an earlier game: a taken name gets a number (``rummykit-burraco-7-2.json``),
and the place is tried before the game starts, so a record that cannot be saved is
reported before the first move, not lost after the last.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from rummykit.games.record import MAX_TEXT, GameRecord, RecordError, loads


class RecordFileError(Exception):
    """A record file that cannot be read, or a place where none can be written."""


def read_record(path: Path) -> GameRecord:
    """The record in ``path``; :class:`RecordFileError` or ``RecordError`` if unusable."""
    try:
        size = path.stat().st_size
        if size > MAX_TEXT:
            raise RecordFileError(
                f"cannot read {path}: {size:,} bytes is larger than a record may be"
                f" ({MAX_TEXT:,} bytes)"
            )
        with path.open("rb") as file:
            data = file.read(MAX_TEXT + 1)
    except OSError as error:
        raise RecordFileError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_TEXT:
        raise RecordError("the record is too large")
    return loads(data)


def default_record_path(game: str, seed: int, directory: Path | None = None) -> Path:
    """``rummykit-<game>-<seed>.json`` in ``directory``, numbered if the name is taken."""
    return unused_path((directory or Path()) / f"rummykit-{game}-{seed}.json")


def unused_path(path: Path) -> Path:
    """``path`` if nothing is there, else the first free ``<stem>-2<suffix>``, ``-3`` ..."""
    number = 1
    candidate = path
    while candidate.exists() or candidate.is_symlink():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


def claim(path: Path) -> None:
    """Create ``path`` empty (it must not exist), proving a record can be written there.

    Raises :class:`RecordFileError` saying why not (no such folder, no permission, a
    file already there).  The caller writes the record over this placeholder later.
    """
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise RecordFileError(
            f"{path} already exists; choose another --record (earlier games are kept)"
        ) from None
    except OSError as error:
        raise RecordFileError(
            f"cannot write the record to {path}: {error.strerror or error}"
        ) from None
    os.close(descriptor)


def release(path: Path) -> None:
    """Remove a claimed placeholder that stayed empty (no game was saved into it)."""
    with contextlib.suppress(OSError):
        if path.stat().st_size == 0:
            path.unlink()
