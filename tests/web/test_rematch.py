"""Play again: at the end of a game between people, one asks for a rematch and lands at
the new table; the other is offered it in the result dialog and joins with one click,
in the same seat; both then play the new game, while one who watched the finished game is
not told where the rematch is (it is private: the invitation is for its seats)."""

from __future__ import annotations

from tests.web.conftest import MakePage
from tests.web.driver import Player, session_of
from tests.web.scenes import draw_rather_than_take, play_seats

SHORT = {"first_round": 3, "last_round": 3}


def _a_finished_game_of_two(new_page: MakePage) -> tuple[Player, Player, str]:
    """Ann and Bob, each in a page of their own, and the table where they played a
    short Three-Thirteen game to the end."""
    ann, bob = new_page(), new_page()
    for player, name in ((ann, "Ann"), (bob, "Bob")):
        player.enter_lobby(name)
    body = {"game": "three-thirteen", "rules": SHORT, "seats": [{"kind": "human"}] * 2}
    table_id = ann.create_table(body)
    bob.api("POST", f"/api/tables/{table_id}/join", {})
    # both seats play the first legal move (drawing rather than taking) to the end
    sessions = [session_of(ann.page.context), session_of(bob.page.context)]
    play_seats(ann.base_url, table_id, sessions, draw_rather_than_take)
    return ann, bob, table_id


def test_play_again_offers_a_rematch_to_the_other_player(new_page: MakePage) -> None:
    ann, bob, table_id = _a_finished_game_of_two(new_page)
    carol = new_page()  # watches the finished game by its link
    carol.enter_lobby("Carol")
    for player in (ann, bob, carol):
        player.goto(f"/#/table/{table_id}")
        player.page.locator(".dialog.game-over").wait_for()
    assert carol.table()["seat"] is None
    ann.page.click("[data-testid=play-again]")
    ann.page.locator("[data-testid=waiting-room]").wait_for()
    offer = bob.page.locator("[data-testid=rematch-offer]")
    offer.wait_for()
    assert "Ann asks for a rematch" in offer.inner_text()
    bob.shoot("rematch-offer-desktop")
    button = bob.page.locator("[data-testid=play-again]")
    assert button.inner_text() == "Join the rematch"
    button.click()
    # the old table's board stays until the rematch's page replaces it
    bob.page.wait_for_function("(old) => !location.hash.includes(old)", arg=table_id)
    bob.wait_table()
    state = bob.wait_settled()
    assert state["seat"] == 1 and state["tableId"] != table_id
    assert state["tableStatus"] == "playing"
    ann.wait_table()
    assert ann.wait_settled()["tableId"] == state["tableId"]
    # the watcher stays at the finished game, told nothing of the private rematch
    assert table_id in carol.page.evaluate("location.hash")
    assert "rematch" not in {message["type"] for message in carol.received()}
    assert not carol.page.locator("[data-testid=rematch-offer]").count()
    assert not ann.errors and not bob.errors and not carol.errors, (ann.errors, bob.errors)


def test_the_lobby_lists_a_rematch_with_a_seat_kept_for_the_player(new_page: MakePage) -> None:
    ann, bob, table_id = _a_finished_game_of_two(new_page)
    ann.goto(f"/#/table/{table_id}")
    ann.page.locator(".dialog.game-over").wait_for()
    ann.page.click("[data-testid=play-again]")
    ann.page.locator("[data-testid=waiting-room]").wait_for()
    # Ann's waiting room says whom the free seat waits for
    kept = ann.page.locator("[data-testid=waiting-room] .waiting-seats li[data-seat='1']")
    assert kept.inner_text() == "Open seat, kept for its player from the last game"
    # Bob was not at the old table: his lobby lists the rematch, his seat kept
    bob.goto("/")
    row = bob.page.locator("[data-testid=current-games] .current-row[data-kept=true]")
    row.wait_for()
    assert "your seat is kept" in row.inner_text()
    bob.shoot("rematch-in-lobby-desktop")
    button = row.locator("a.button")
    assert button.inner_text() == "Join the rematch"
    button.click()  # no invitation link: the seat kept for him is enough
    bob.wait_table()
    state = bob.wait_settled()
    assert state["seat"] == 1 and state["tableId"] != table_id
    assert state["tableStatus"] == "playing"
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)
