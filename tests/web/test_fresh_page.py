"""A fresh page, before anyone has signed in, logs no error in the browser's console:
the lobby and a table's link ask who is signed in without a refused request (the
browser logs a red line for every answer of 400 and more, which a visitor who opens the
console takes for a fault)."""

from __future__ import annotations

from playwright.sync_api import ConsoleMessage

from tests.web.conftest import PHONE, MakePage


def test_a_fresh_page_logs_no_console_error(new_page: MakePage) -> None:
    host = new_page()
    host.enter_lobby("Host")
    table_id = host.create_table(
        {"game": "burraco", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    for viewport in (None, PHONE):
        visitor = new_page(viewport=viewport)
        logged: list[str] = []

        def on_console(message: ConsoleMessage, logged: list[str] = logged) -> None:
            if message.type == "error":
                logged.append(message.text)

        visitor.page.on("console", on_console)
        visitor.goto("/")
        visitor.page.wait_for_selector("input[name=nickname]")
        visitor.page.wait_for_selector(".game-tile")
        visitor.goto(f"/#/table/{table_id}")
        visitor.page.wait_for_selector(".table-intro, .gate-ask, .board")
        # every request the pages made has been answered
        visitor.page.wait_for_load_state("networkidle")
        assert logged == [], logged
        assert not visitor.errors, visitor.errors
