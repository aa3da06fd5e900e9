"""No hints in a rated game, in a real browser and in three languages: at a rated table
the player to move sees no hint button but a line in their language saying why, and the
H key asks nothing of the server; at a casual table the bulb is there.  Screenshots of
the table (desktop and a 360x740 phone) go to the screenshots folder."""

from __future__ import annotations

import json

import pytest

from tests.web.catalogs import MESSAGES
from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.driver import Player, whose_turn
from tests.web.scenes import accounts_table


def table_of_two(ann: Player, bob: Player, *, rated: bool, language: str) -> list[Player]:
    """Ann and Bob (registered) at a new Three-Thirteen table of two, both on its page;
    the two pages, the one whose turn it is first."""
    table_id = accounts_table(ann, bob, language=language, rated=rated, turn_seconds=None)
    bob.api("POST", f"/api/tables/{table_id}/join", {})
    for player in (ann, bob):
        player.page.goto(f"{player.base_url}/#/table/{table_id}")
        player.page.reload()  # the page learns who is signed in when it loads
        player.wait_table()
    mover = whose_turn(ann, bob)
    return [mover, bob if mover is ann else ann]


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_rated_table_shows_no_hint_and_says_why(new_page: MakePage, language: str) -> None:
    mover, other = table_of_two(
        new_page(language=language), new_page(language=language), rated=True, language=language
    )
    page = mover.page
    assert page.evaluate("document.documentElement.lang") == language
    note = page.locator("[data-testid=hints-off]")
    note.wait_for()
    assert note.inner_text().strip() == MESSAGES[language]["table.hints_off"]
    assert page.locator(".hint-button").count() == 0
    assert page.locator(".hint-bubble").count() == 0
    # the H key asks nothing: no hint, no refusal comes back
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("h")
    # a chat line said after the key: the server answers what came before it first, so
    # its echo comes after any answer to a hint asked by the key
    page.evaluate("window.rummykitTable.chat('after the H key')")
    page.wait_for_function(
        "() => window.rummykitTable.received.some("
        "(m) => m.type === 'chat' && m.text === 'after the H key')"
    )
    answers = [m for m in mover.received() if m["type"] in ("hint", "error")]
    assert answers == [], answers
    sent_hints = page.evaluate("window.rummykitTable.store.get().hintPending")
    assert not sent_hints
    states = [json.loads(f) for f in mover.frames if '"type":"state"' in f]
    assert states and all(s["hints"] is False for s in states)
    # the other player (not to move) sees neither the bulb nor the note
    assert other.page.locator(".hint-button, [data-testid=hints-off]").count() == 0
    page.set_viewport_size(DESKTOP)
    mover.shoot(f"no-hints-rated-desktop-{language}")
    page.set_viewport_size(PHONE)
    page.reload()  # laid out for the phone from the start
    mover.wait_table()
    note.wait_for()
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    mover.shoot(f"no-hints-rated-phone-{language}")
    assert not mover.errors and not other.errors, mover.errors + other.errors


def test_a_casual_table_keeps_the_hint_bulb(new_page: MakePage) -> None:
    mover, _ = table_of_two(new_page(), new_page(), rated=False, language="en")
    page = mover.page
    page.locator(".hint-button").wait_for()
    assert page.locator("[data-testid=hints-off]").count() == 0
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("h")
    page.locator(".hint-bubble").wait_for()
    assert [m["type"] for m in mover.received() if m["type"] in ("hint", "error")] == ["hint"]
