"""The server's error codes shown in the player's language, in a real browser: a lobby
error over HTTP (a wrong password) and table refusals over the WebSocket (a move for a
past state, a state number sent as text), each through its ``error.<code>`` message; and
the fair-deal check of a seed past JavaScript's safe integers, which only holds when the
seed arrives as text."""

from __future__ import annotations

import hashlib
import json

from rummykit.games.randomness import MAX_SEED
from tests.web.catalogs import MESSAGES
from tests.web.conftest import MakePage


def test_a_wrong_password_is_said_in_hungarian(new_page: MakePage) -> None:
    me = new_page(language="hu")
    me.goto("/")
    me.page.click(".identity-tabs button:nth-child(2)")  # log in
    me.page.fill("input[name=nickname]", "nobody_here")
    me.page.fill("input[name=password]", "not the password")
    me.page.click(".identity button[type=submit]")
    shown = me.page.locator(".identity .error-text")
    shown.wait_for()
    assert shown.inner_text() == MESSAGES["hu"]["error.bad_login"] == "Hibás név vagy jelszó."
    assert me.errors == []


def test_table_refusals_are_said_in_russian(new_page: MakePage) -> None:
    me = new_page(language="ru")
    me.enter_lobby("Ада")
    me.play_now("burraco")
    state = me.wait_settled()
    number = state["stateNumber"]
    for sent, code in [(number + 40, "stale_state"), (str(number), "invalid_message")]:
        me.page.evaluate(
            "(n) => window.rummykitTable.connection.send("
            "{type: 'action', state_number: n, action: 'draw'})",
            sent,
        )
        toast = me.page.locator(f".toast.refusal[data-code={code}]")
        toast.wait_for()
        assert toast.inner_text() == MESSAGES["ru"][f"error.{code}"], code
    answers = [json.loads(frame) for frame in me.frames if '"type":"error"' in frame]
    assert [a["code"] for a in answers][-2:] == ["stale_state", "invalid_message"]
    assert answers[-1]["params"] == {"field": "state_number"}
    assert me.errors == []


def test_the_fair_deal_check_hashes_the_seed_as_text(new_page: MakePage) -> None:
    me = new_page()
    me.goto("/")
    nonce = "ab" * 16
    seed = str(MAX_SEED)  # 9223372036854775807: a JavaScript number makes it ...808
    commitment = hashlib.sha256(f"rummykit-deal/v1|{seed}|{nonce}".encode()).hexdigest()
    verdicts = me.page.evaluate(
        """async ([seed, nonce, commitment]) => {
          const { checkCommitment } = await import("/js/fairness.js");
          return [
            await checkCommitment({ seed, nonce, commitment }),
            await checkCommitment({ seed: JSON.parse(seed), nonce, commitment }),
          ];
        }""",
        [seed, nonce, commitment],
    )
    assert verdicts == [True, False]
