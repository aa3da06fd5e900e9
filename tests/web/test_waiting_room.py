"""Before a table starts: its creator waits in a room (who is seated, the link to send)
with no board to play on; the invitation's page names the game, the host and the rules
before asking the visitor for a nickname; a watcher is never asked for one; and "Play
now" without a name asks for it in place, a guest name offered, and goes to the table."""

from __future__ import annotations

from tests.web.conftest import PHONE, MakePage
from tests.web.turns import create_private_table


def test_the_waiting_room_the_invitation_and_a_watcher(new_page: MakePage) -> None:
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        alice = new_page(viewport=viewport)
        link = create_private_table(alice)
        room = alice.page.locator("[data-testid=waiting-room]")
        room.wait_for()
        seats = room.locator(".waiting-seats li").all_inner_texts()
        assert "Alice" in seats[0] and "(you)" in seats[0] and seats[1] == "Open seat"
        assert room.locator("[data-testid=table-kind]").inner_text() == "Casual"
        # nothing to play before the start: no board, no stock, no Draw button
        assert alice.page.locator("[data-testid=stock]").count() == 0
        assert alice.page.locator(".action-bar").count() == 0
        alice.shoot(f"waiting-room-{name}")
        log_lines = alice.page.locator(".move-log li:not(.log-end)")
        if viewport is None:  # the side panel is open beside the room: its log is empty
            alice.page.click(".side-tabs [data-tab=log]")
            alice.page.locator(".move-log").wait_for(state="attached")
            assert log_lines.count() == 0  # nothing is dealt before the start

        bob = new_page(viewport=viewport)
        bob.page.goto(link)
        intro = bob.page.locator("[data-testid=table-intro]")
        intro.wait_for()
        text = intro.inner_text()
        assert "Three-Thirteen" in text and "Alice invites you" in text
        assert "1 of 2 seats taken" in text
        assert "Casual game: no rating changes." in text and "Clock: " in text
        assert intro.locator(".intro-rules dt").count() >= 1
        assert bob.page.locator("input[name=nickname]").is_visible()
        bob.shoot(f"invitation-{name}")
        if viewport is None:  # one who only wants to watch says so: no name asked, no seat
            dora = new_page()
            dora.page.goto(link)
            dora.page.click("[data-testid=just-watch]")
            dora.page.locator("[data-testid=waiting-room]").wait_for()
            assert dora.table()["seat"] is None
            open_seats = dora.page.locator("[data-testid=waiting-room] .waiting-seats li.open")
            assert open_seats.count() == 1
        bob.sit_down("Bob")
        bob.wait_table()
        state = bob.wait_settled()
        assert state["seat"] == 1 and state["tableStatus"] == "playing"
        alice.page.wait_for_selector("[data-testid=stock]")
        assert alice.page.locator("[data-testid=waiting-room]").count() == 0
        if viewport is None:  # once started, the deal is told, its first player named
            dealt = log_lines.first.inner_text()
            assert dealt.startswith("Round 1 is dealt") and "is wild" in dealt, dealt

        # a watcher with no name is seated as nobody: never asked for a nickname
        carol = new_page(viewport=viewport)
        table_id = state["tableId"]
        token = link.split("token=")[1]
        carol.page.goto(f"{carol.base_url}/#/table/{table_id}?token={token}&watch=1")
        carol.wait_table()
        assert carol.table()["seat"] is None
        assert carol.page.locator("input[name=nickname]").count() == 0
        assert not alice.errors and not bob.errors and not carol.errors


def test_play_now_asks_for_a_name_in_place(new_page: MakePage) -> None:
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        newcomer = new_page(viewport=viewport)
        newcomer.goto("/")
        button = newcomer.page.locator("button.play-now[data-game='burraco']")
        button.wait_for()
        assert button.is_enabled()  # no name yet, and still a button to press
        button.click()
        form = newcomer.page.locator(".game-tile[data-game='burraco'] [data-testid=quick-seat]")
        form.wait_for()
        offered = form.locator("input[name=quick-nickname]").input_value()
        assert offered.startswith("Guest ")
        newcomer.shoot(f"quick-seat-{name}")
        form.locator("button[type=submit]").click()
        newcomer.wait_table()
        state = newcomer.wait_settled()
        assert state["seat"] == 0
        me = newcomer.page.evaluate("async () => (await fetch('/api/me')).json()")
        assert me["name"] == offered
        assert not newcomer.errors, newcomer.errors
