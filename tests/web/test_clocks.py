"""Turn clocks in the page: a timed-out turn is said on the table and in the move log
(the computer played it, not "you"); the create-table dialog offers a time bank, which
the clock shows; "Play now" against the computer has no clock."""

from __future__ import annotations

import pytest

from tests.web.conftest import PHONE, MakePage


def test_a_timed_out_turn_is_said_on_the_table_and_in_the_log(new_page: MakePage) -> None:
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        slow = new_page(viewport=viewport)
        slow.enter_lobby("Slow")
        table_id = slow.create_table(
            {
                "game": "burraco",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                "turn_seconds": 5,
                "time_bank_seconds": None,
            },
        )
        slow.goto(f"/#/table/{table_id}")
        slow.wait_table()
        # the player's clock counts down from the turn time, red in its last seconds
        clock = slow.page.locator(".player-plate.is-turn .turn-clock")
        clock.wait_for()
        slow.page.wait_for_selector(".turn-clock.urgent")
        notice = slow.page.locator("[data-testid=stand-in-notice]")
        notice.wait_for(timeout=20_000)
        text = notice.inner_text()
        assert "Time ran out" in text and "computer" in text
        assert notice.get_attribute("data-actor") == "timeout"
        slow.shoot(f"clock-timed-out-{name}")
        if viewport is not None:
            slow.page.click(".panel-toggle")
        log = slow.page.locator(".move-log")
        log.locator("li.stand-in-notice").first.wait_for()
        assert "Time ran out" in log.locator("li.stand-in-notice").first.inner_text()
        by_computer = log.locator("li.by-computer")
        assert by_computer.count() >= 1
        assert all("(by the computer)" in line for line in by_computer.all_inner_texts())
        assert not slow.errors, slow.errors


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_create_dialog_offers_a_time_bank_the_clock_shows(
    new_page: MakePage, device: str
) -> None:
    host = new_page(viewport=PHONE if device == "phone" else None)
    host.goto("/")
    host.sit_down("Banker")
    host.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = host.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("2")
    dialog.locator("select[name=turn_seconds]").select_option("60")
    dialog.locator("select[name=time_bank_seconds]").select_option("300")
    dialog.locator("button[type=submit]").click()
    host.wait_table()
    table_id = host.table()["tableId"]
    summary = host.page.evaluate(f"async () => (await fetch('/api/tables/{table_id}')).json()")
    assert summary["turn_seconds"] == 60 and summary["time_bank_seconds"] == 300
    host.page.wait_for_selector(".player-plate.is-turn .turn-clock .bank-label")
    assert host.page.locator(".turn-clock .bank-label").inner_text() == "+300"
    host.shoot(f"clock-bank-{device}")
    # on a phone the clock stays inside the player's plate, inside the screen
    inside = host.page.evaluate(
        """() => {
          const clock = document.querySelector('.player-plate.is-turn .turn-clock');
          const plate = clock.closest('.player-plate').getBoundingClientRect();
          const box = clock.getBoundingClientRect();
          return box.right <= Math.min(plate.right, window.innerWidth) + 1;
        }"""
    )
    assert inside
    # with no turn time there is no bank to choose
    host.page.goto(host.base_url + "/")
    host.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = host.page.locator(".dialog.create-table")
    # against the computer only there is no clock unless chosen; with people, 60 s
    assert dialog.locator("select[name=players]").input_value() == "2"
    assert dialog.locator("select[name=turn_seconds]").input_value() == "0"
    assert dialog.locator("select[name=time_bank_seconds]").count() == 0
    dialog.locator("select[data-seat='1']").select_option("human")
    assert dialog.locator("select[name=turn_seconds]").input_value() == "60"
    assert dialog.locator("select[name=time_bank_seconds]").input_value() == "120"


def test_play_now_against_the_computer_has_no_clock(new_page: MakePage) -> None:
    solo = new_page()
    solo.enter_lobby("Solo")
    solo.play_now("three-thirteen")
    solo.page.wait_for_selector(".player-plate.is-turn")
    solo.wait_settled()
    assert solo.page.locator(".turn-clock").count() == 0


def test_the_open_tables_show_the_turn_time_and_bank(new_page: MakePage) -> None:
    host, guest = new_page(), new_page()
    host.enter_lobby("Host")
    table_id = host.create_table({"game": "burraco", "seats": [{"kind": "human"}] * 2})
    guest.goto("/")
    guest.sit_down("Guest")
    row = guest.page.locator(f".table-row[data-table='{table_id}']")
    row.wait_for()
    assert row.locator(".table-time").inner_text() == "60 s a turn · 120 s banked"
