"""The committed deal: a secret seed, its published commitment, the reveal (the hint
policy is :mod:`.fair_play`, not this).

At creation a table draws ``seed`` (63 bits) and ``nonce`` (128 bits, hex) from
:mod:`secrets` and publishes ``commitment = SHA-256("rummykit-deal/v1|<seed>|<nonce>")``
(ASCII, seed in decimal, hex digest in lower case).  The deals follow from the seed by
the engine's portable procedure (:mod:`rummykit.games.randomness`), so once the game
ends and both are revealed anyone can recompute the commitment and every deal.  The
nonce keeps the seed from being searched for by hashing candidates.

>>> commitment_of(7, "00" * 16)
'31fd22757b7346e26f5b7d3bd549be545e611bd15d0f981b572a1c77ab40a37f'
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from rummykit.games.randomness import MAX_SEED


def commitment_of(seed: int, nonce: str) -> str:
    """The SHA-256 commitment to ``seed`` and ``nonce`` (lower-case hex)."""
    return hashlib.sha256(f"rummykit-deal/v1|{seed}|{nonce}".encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class SecretDeal:
    seed: int
    nonce: str

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed, self.nonce)


def draw_secret_deal() -> SecretDeal:
    """A fresh secret seed and nonce from the operating system's randomness."""
    return SecretDeal(secrets.randbelow(MAX_SEED + 1), secrets.token_hex(16))


def bot_seed(nonce: str, state_number: int, seat: int) -> int:
    """The seed of a bot's random generator for one decision: derived from the table's
    secret nonce so that a game rebuilt after a restart makes the same bot choices."""
    digest = hashlib.sha256(f"rummykit-bot/v1|{nonce}|{state_number}|{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
