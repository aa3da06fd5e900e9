"""A turn-based game in the page, on a desktop and on a phone: the new-table dialog makes
one (two days a move, against the computer, which moves at once), the table shows the
time left in hours and days rather than seconds, and the lobby counts the games where it
is the player's turn (in the top bar and the tab's title) and lists them with whose turn
it is and the time left, least time left first; the count is one tap from the next game
that waits; a vacation taken from the lobby shows on the games.  When a mover's time runs
out, the other player's page says so and offers the choice: claim the win, or let the
substitute play that move."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from rummykit.server.clock import FakeClock
from tests.kit.databases import make_settings, sqlite_url_in
from tests.kit.live import LiveServer
from tests.kit.live import Player as LivePlayer
from tests.web.conftest import PHONE, MakePage, page_maker

DAY = 86_400.0


def test_a_turn_based_table_from_the_dialog_to_the_count_of_your_turns(
    new_page: MakePage,
) -> None:
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        ann = new_page(viewport=viewport)
        ann.goto("/")
        ann.sit_down("Ann")
        ann.page.wait_for_selector("[data-testid=me]")
        ann.page.click(".game-tile[data-game='three-thirteen'] .create-table")
        dialog = ann.page.locator(".dialog.create-table")
        dialog.wait_for()
        dialog.locator("select[name=days_per_move]").select_option("2")
        # a game over days has no turn timer or bank to choose, and says how it goes
        assert dialog.locator("select[name=turn_seconds]").count() == 0
        assert "claim the win" in dialog.locator(".timer-note").inner_text()
        ann.shoot(f"turn-based-dialog-{name}", of=dialog)
        dialog.locator("button[type=submit]").click()
        ann.wait_table()
        table_id = ann.table()["tableId"]
        summary = ann.api("GET", f"/api/tables/{table_id}")
        assert summary["days_per_move"] == 2 and summary["turn_seconds"] is None
        ann.wait_turn_or_end()  # the computer has moved: Ann's turn
        clock = ann.page.locator(".player-plate.is-turn [data-testid=days-clock]")
        clock.wait_for()
        # two days less the seconds gone: whole hours, never seconds
        assert re.fullmatch(r"4[78] hours left", clock.inner_text().strip()), clock.inner_text()
        # a second game, one day a move, against the computer: it waits for Ann too
        other = ann.create_table(
            {
                "game": "three-thirteen",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                "days_per_move": 1,
            }
        )
        count = ann.page.locator("[data-testid=your-turns]")
        count.wait_for()  # at this table: the count of both, a link to the other
        shown = "2" if viewport is PHONE else "Your turn: 2"
        assert count.inner_text().strip() == shown
        assert (count.get_attribute("aria-label") or "").startswith("Your turn: 2")
        bar = ann.page.locator("header.topbar")
        widths = bar.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1], widths
        ann.page.wait_for_function("() => document.title.startsWith('(2) ')")
        ann.shoot(f"turn-based-table-{name}")
        count.click()  # one tap to the next game that waits
        ann.page.wait_for_function(f"() => location.hash.includes('{other}')")
        ann.wait_table(other)
        assert ann.table()["tableId"] == other
        ann.page.click("a.brand")
        current = ann.api("GET", "/api/current")
        # the least time left first: the game of one day a move
        assert [t["table_id"] for t in current if t["your_turn"]] == [other, table_id]
        rows = ann.page.locator("[data-testid=current-games] li[data-your-turn=true]")
        rows.nth(1).wait_for()
        assert [rows.nth(i).get_attribute("data-table") for i in range(2)] == [other, table_id]
        days_left = rows.nth(1).locator("[data-testid=days-left]").inner_text()
        assert re.fullmatch(r"Your turn · 4[78] hours left", days_left.strip()), days_left
        assert ann.page.locator("[data-testid=your-turns]").inner_text().strip() == shown
        # two days of vacation: the clocks stand still, the games say until when
        vacation = ann.page.locator("[data-testid=vacation]")
        assert "30 days left this year" in vacation.inner_text()
        vacation.locator("select[name=vacation_days]").select_option("2")
        vacation.get_by_role("button", name="Take a vacation").click()
        expect(vacation).to_contain_text("You are on vacation until")
        expect(rows.nth(0).locator("[data-testid=days-left]")).to_contain_text(
            "Your turn · on vacation until", timeout=20_000
        )
        ann.shoot(f"turn-based-lobby-{name}", full_page=True)
        wide = "() => document.scrollingElement.scrollWidth - innerWidth"
        assert ann.page.evaluate(wide) <= 0, "the lobby is wider than the screen"
        ann.page.click("[data-testid=your-turns]")
        ann.wait_table(other)
        assert ann.table()["tableId"] == other
        assert not ann.errors, ann.errors


@pytest.fixture
def days_server(tmp_path: Path) -> Iterator[tuple[LiveServer, FakeClock]]:
    """A server whose clock moves only when the test says (days at a time), whose
    players have no vacation days: a time out is one at once."""
    settings = make_settings(
        sqlite_url_in(tmp_path), vacation_days_per_year=0, bot_pause_seconds=0.0, fairplay=False
    )
    clock = FakeClock(time.time())
    with LiveServer(settings, clock=clock) as server:
        yield server, clock


def test_the_others_choose_when_time_runs_out(
    browser: Browser, days_server: tuple[LiveServer, FakeClock], request: pytest.FixtureRequest
) -> None:
    server, clock = days_server
    bob = LivePlayer(server, "Bob")
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        ann = LivePlayer(server, f"Ann-{name}")
        body = {"game": "three-thirteen", "seats": [{"kind": "human"}] * 2, "days_per_move": 1}
        table_id = ann.post("/api/tables", body).json()["table_id"]
        assert bob.post(f"/api/tables/{table_id}/join").status_code == 200
        sock = ann.connect(table_id)
        state = sock.wait_for(lambda m: m.get("type") == "state" and m["status"] == "playing")
        state = sock.play_until_seat_moves(state, 1)  # Ann plays her turn: Bob is to move
        sock.close()
        clock.advance(DAY + 1)
        with page_maker(browser, server.url, request) as new_page:
            page = new_page(viewport=viewport, session=ann.cookie)
            page.goto(f"/#/table/{table_id}")
            page.wait_table()
            choice = page.page.locator("[data-testid=time-out-choice]")
            choice.wait_for()
            assert "Bob's time for this move ran out" in choice.inner_text()
            assert choice.locator("[data-testid=claim-win]").is_visible()
            clock_text = page.page.locator(".player-plate.is-turn [data-testid=days-clock]")
            assert clock_text.inner_text().strip() == "time ran out"
            page.shoot(f"turn-based-time-out-{name}")
            choice.locator("[data-testid=let-substitute]").click()
            expect(choice).to_have_count(0)
            page.page.wait_for_function(
                "() => window.rummykitTable.store.get().lastAction?.actor === 'timeout'"
            )
            assert not page.errors, page.errors
        ann.close()
    bob.close()
