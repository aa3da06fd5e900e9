"""Meeting a table by its link, in a real browser and three languages.

A registered player who opens the link of a rated table with a free seat is shown what
the table is (the game, rated, its clock, its rules) and asked before sitting down:
nobody sits and no clock runs until they say so.  The waiting room and the table's bar
say the game is rated.  A signed-in guest who opens the link of the rated table (free
seat or full) watches it, with a line saying why, instead of being refused on a page left
loading.
The pages whose lobby loaded before the account was made (their idea of who is signed
in is older than their cookie) keep the account.  Screenshots (desktop and a 360x740
phone) go to the screenshots folder."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.catalogs import MESSAGES
from tests.web.conftest import DESKTOP, PHONE, MakePage
from tests.web.driver import Player
from tests.web.scenes import accounts_table


def _fits_the_phone(player: Player, selector: str) -> None:
    box = player.page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def _summary(player: Player, table_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = player.api("GET", f"/api/tables/{table_id}")
    return summary


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_link_shows_the_table_asks_first_and_lets_a_guest_watch(
    new_page: MakePage, language: str
) -> None:
    words = MESSAGES[language]
    ann, bob, gwen = (new_page(language=language) for _ in range(3))
    table_id = accounts_table(
        ann, bob, language=language, rated=True, turn_seconds=60, time_bank_seconds=30
    )
    link = f"/#/table/{table_id}"

    # the creator waits in a room that says the game is rated
    ann.page.goto(ann.base_url + link)
    room = ann.page.locator("[data-testid=waiting-room]")
    room.wait_for()
    assert room.locator("[data-testid=table-kind]").inner_text() == words["table.kind_rated"]
    assert ann.page.locator("[data-testid=gate-ask]").count() == 0  # her own seat
    ann.shoot(f"link-waiting-room-desktop-{language}")

    # Bob opens the link: the table is shown and he is asked; nobody sits meanwhile
    bob.page.goto(bob.base_url + link)
    ask = bob.page.locator("[data-testid=gate-ask]")
    ask.wait_for()
    intro = bob.page.locator("[data-testid=table-intro]")
    assert words["game.three-thirteen"] in intro.locator("h2").inner_text()
    assert intro.locator("[data-testid=table-kind]").inner_text() == words["table.kind_rated"]
    assert intro.locator("[data-testid=intro-kind]").inner_text() == words["invite.rated"]
    clock = (
        words["lobby.turn_time_s"].replace("{seconds}", "60")
        + " · "
        + words["lobby.bank_s"].replace("{seconds}", "30")
    )
    shown_clock = intro.locator("[data-testid=intro-clock]").inner_text()
    assert shown_clock == words["invite.clock"].replace("{clock}", clock)
    assert intro.locator(".intro-rules dt").count() >= 1
    assert ask.locator("[data-testid=take-seat]").inner_text() == words["invite.take_seat"]
    assert ask.locator("[data-testid=just-watch]").inner_text() == words["invite.just_watch"]
    bob.shoot(f"link-asks-desktop-{language}")
    bob.page.set_viewport_size(PHONE)
    _fits_the_phone(bob, "[data-testid=gate-ask]")
    _fits_the_phone(bob, "[data-testid=table-intro]")
    bob.shoot(f"link-asks-phone-{language}")
    summary = _summary(bob, table_id)
    assert summary["status"] == "waiting", summary
    assert [seat["taken"] for seat in summary["seats"]] == [True, False]
    assert room.is_visible()  # Ann still waits

    # a signed-in guest opens the link while the rated table waits: they watch, told why
    gwen.enter_lobby(f"Gwen {language}")
    gwen.page.goto(gwen.base_url + link)
    gwen.page.locator("[data-testid=waiting-room]").wait_for()
    heading = gwen.page.locator("[data-testid=waiting-room] h2").inner_text()
    assert heading == words["table.waiting_watched"]["one"].replace("{count}", "1")  # no link
    note = gwen.page.locator("[data-testid=gate-note]")
    assert note.inner_text() == words["table.rated_watching"]
    assert gwen.table()["seat"] is None
    assert gwen.page.locator(".error-text, [data-testid=gate-ask]").count() == 0
    gwen.shoot(f"link-guest-watches-desktop-{language}")
    gwen.page.set_viewport_size(PHONE)
    _fits_the_phone(gwen, "[data-testid=gate-note]")
    gwen.shoot(f"link-guest-watches-phone-{language}")

    bob.page.click("[data-testid=take-seat]")
    bob.wait_table()
    state = bob.wait_settled()
    assert state["seat"] == 1 and state["tableStatus"] == "playing"
    # on a phone the top bar keeps its controls; the side panel says the game is rated
    _fits_the_phone(bob, ".topbar .settings-button")
    bob.page.click(".panel-toggle")
    bob.page.wait_for_function(  # the panel has slid in
        """() => { const box = document.querySelector(".side-panel.open")?.getBoundingClientRect();
                   return box && box.right <= innerWidth + 1; }"""
    )
    side_badge = bob.page.locator(".side-panel.open .side-kind [data-testid=table-kind]")
    assert side_badge.inner_text() == words["table.kind_rated"]
    _fits_the_phone(bob, ".side-panel.open .side-kind")
    bob.shoot(f"link-table-panel-phone-{language}")
    bob.page.keyboard.press("Escape")
    bob.page.locator(".side-panel.open").wait_for(state="detached")
    bob.shoot(f"link-table-phone-{language}")
    bob.page.set_viewport_size(DESKTOP)
    badge = bob.page.locator(".topbar [data-testid=table-kind]")
    assert badge.inner_text() == words["table.kind_rated"]
    bob.shoot(f"link-table-desktop-{language}")
    ann.page.wait_for_selector("[data-testid=stock]")
    gwen.page.wait_for_selector("[data-testid=stock]")  # the watcher sees the game start

    # the guest opens the link of the full rated table again: the board, never a refusal
    gwen.page.reload()
    gwen.wait_table()
    watching = gwen.wait_settled()
    assert watching["seat"] is None and watching["tableStatus"] == "playing"
    assert note.inner_text() == words["table.full_watching"]
    assert gwen.page.locator(".error-text").count() == 0
    assert gwen.page.locator(".side-panel [data-testid=table-kind]").is_visible()  # a phone
    assert not ann.errors and not bob.errors and not gwen.errors, ann.errors + bob.errors
