"""Checking a finished game's fair deal from its record (``rummykit verify``).

A full record from the server holds the revealed ``seed`` and ``nonce`` and the
``commitment`` published when the table was created.  Verification recomputes the
commitment, re-deals every hand from the seed with the engine's portable procedure and
replays every action; the stored totals must come out.  Nothing here trusts the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from rummykit.games.record import RecordError, loads, replay
from rummykit.server.table.committed_deal import commitment_of


@dataclass(frozen=True, slots=True)
class Verdict:
    """What verification found: ``ok`` and one line per check."""

    ok: bool
    lines: tuple[str, ...]


def verify_record(text: str | bytes) -> Verdict:
    """Check a server record: commitment, deals from the seed, every action, the totals."""
    try:
        record = loads(text)
    except RecordError as error:
        return Verdict(False, (f"the record does not replay: {error}",))
    data = json.loads(text)
    commitment, nonce = data.get("commitment"), data.get("nonce")
    if not isinstance(commitment, str) or not isinstance(nonce, str) or len(nonce) > 200:
        return Verdict(False, ("the record has no commitment and nonce (not a server record)",))
    expected = commitment_of(record.seed, nonce)
    if expected != commitment.lower():
        return Verdict(
            False,
            (
                f"the commitment {commitment} does not match the seed and nonce"
                f" (they give {expected})",
            ),
        )
    hands = 1 + sum(
        1 for step in replay(record) if step.state.hand_over and not step.state.game_over
    )
    return Verdict(
        True,
        (
            f"commitment {commitment} matches seed {record.seed} and nonce {nonce}",
            f"{hands} deal(s) re-dealt from the seed; {len(record.actions)} actions replayed",
            f"final totals {list(record.totals)} agree with the replay",
        ),
    )
