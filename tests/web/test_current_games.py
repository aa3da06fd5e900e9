"""Coming back to a game: leaving a running table asks first and says what happens;
the lobby then lists the game with a button back to it, and the player gets the seat
back from the computer.

The other seat is a person who never moves (Bob, signed in outside the browser, never
at the table, no turn clock): while Ann is away the computer plays her turns only, so
the game stays under way for as long as the test looks at the lobby.  Against a bot the
two seats were both played by the server, with no pause in tests, and the game could
end within a second of her leaving, before the lobby asked for her current games (it
then listed none, rightly)."""

from __future__ import annotations

from contextlib import closing

from tests.web.conftest import PHONE, MakePage
from tests.web.scenes import guest


def test_leave_then_return_from_the_lobby(new_page: MakePage) -> None:
    for viewport, name in ((None, "desktop"), (PHONE, "phone")):
        ann = new_page(viewport=viewport)
        ann.goto("/")
        with ann.page.expect_response(lambda r: r.url.endswith("/api/current")) as current:
            ann.sit_down("Ann")
        current.value.finished()
        ann.page.wait_for_selector("[data-testid=me]")
        ann.settle()  # the answer read and drawn
        # a fresh player has no current games: the list is not shown
        assert ann.page.locator("[data-testid=current-games]").count() == 0
        table_id = ann.create_table(
            {"game": "three-thirteen", "seats": [{"kind": "human"}] * 2, "turn_seconds": None}
        )
        with closing(guest(ann.base_url, "Bob")) as bob:
            assert bob.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
        ann.goto(f"/#/table/{table_id}")
        ann.wait_table()
        assert ann.wait_settled()["tableStatus"] == "playing"
        if viewport is not None:
            ann.page.click(".panel-toggle")
        ann.page.click("[data-testid=leave-table]")
        dialog = ann.page.locator(".dialog.leave-dialog")
        dialog.wait_for()
        assert "computer plays your seat" in dialog.inner_text()
        ann.shoot(f"leave-confirm-{name}")
        # staying changes nothing
        dialog.get_by_role("button", name="Stay").click()
        assert ann.page.locator(".dialog.leave-dialog").count() == 0
        assert ann.table()["tableId"] == table_id
        ann.page.click("[data-testid=leave-table]")
        ann.page.click("[data-testid=leave-confirm]")
        row = ann.page.locator(f"[data-testid=current-games] li[data-table='{table_id}']")
        row.wait_for()
        assert "under way" in row.inner_text()
        ann.shoot(f"current-games-{name}")
        row.get_by_role("link", name="Return").click()
        ann.wait_table()
        state = ann.wait_settled()
        assert state["seat"] == 0 and state["tableId"] == table_id
        players = ann.page.evaluate("() => window.rummykitTable.store.get().players")
        assert players[0]["connected"] and not players[0]["substitute"]
        assert not ann.errors, ann.errors
