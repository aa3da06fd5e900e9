"""Password hashing that costs nothing, for the tests of accounts: :class:`FakeHashes`
stands in for Argon2 (real Argon2 is exercised by the lobby's register and login test),
and the ``hashes`` fixture puts it in the server's place for one test."""

from __future__ import annotations

import threading
import time

import pytest

from rummykit.server.accounts import auth


class FakeHashes:
    """Stands in for Argon2: ``fake:<password>`` hashes, each taking ``seconds`` in its
    thread, held while ``gate`` is closed; counts calls and the most running at once."""

    def __init__(self, *, seconds: float = 0.01) -> None:
        self.seconds = seconds
        self.gate = threading.Event()
        self.gate.set()
        self.lock = threading.Lock()
        self.checks = 0
        self.hashes = 0
        self.running = 0
        self.most_running = 0
        self.finished = 0

    def _work(self) -> None:
        with self.lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            self.gate.wait(10)
            # the hash's own cost, in wall time: hashes asked together overlap, so that
            # the most running at once is what the server lets run at once
            time.sleep(self.seconds)
        finally:
            with self.lock:
                self.running -= 1
                self.finished += 1

    def hash_password(self, password: str) -> str:
        with self.lock:
            self.hashes += 1
        self._work()
        return f"fake:{password}"

    def check_password(self, password_hash: str, password: str) -> bool:
        with self.lock:
            self.checks += 1
        self._work()
        return password_hash == f"fake:{password}"


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> FakeHashes:
    """:class:`FakeHashes` in place of the server's password hashing, for one test."""
    fake = FakeHashes()
    monkeypatch.setattr(auth, "hash_password", fake.hash_password)
    monkeypatch.setattr(auth, "check_password", fake.check_password)
    return fake
