"""A rated game abandoned, in the browser: when the other player closes their page and
stays away past the grace period, the page offers to claim the win, and the result says
the game ended by abandonment, rated.  The server here gives half a second's grace (the
page waits for the offer itself, never for the clock), so the player who made the table
waits at it before the other takes the last seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.web.conftest import LiveServer, MakePage, page_maker
from tests.web.scenes import register


@pytest.fixture(scope="module")
def short_grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = tmp_path_factory.mktemp("grace") / "rummykit.sqlite3"
    with LiveServer(database, grace_seconds=0.5) as server:
        yield server


@pytest.fixture
def grace_page(
    browser: Browser, short_grace: LiveServer, request: pytest.FixtureRequest
) -> Iterator[MakePage]:
    with page_maker(browser, short_grace.url, request) as make:
        yield make


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_win_is_claimed_over_a_player_who_left(grace_page: MakePage, language: str) -> None:
    ann, bob = grace_page(language=language), grace_page(language=language)
    for player, name in ((ann, f"ann_{language}"), (bob, f"bob_{language}")):
        register(player, name)
    body = {
        "game": "three-thirteen",
        "rules": {"first_round": 3, "last_round": 11},
        "seats": [{"kind": "human"}] * 2,
        "rated": True,
        "turn_seconds": None,
    }
    table_id = ann.create_table(body)
    # Ann waits at the table before Bob takes the last seat: a seat nobody reached within
    # the half-second grace counts as left, and with both gone the game would end unplayed
    ann.goto(f"/#/table/{table_id}")
    ann.page.locator("[data-testid=waiting-room]").wait_for()
    bob.goto(f"/#/table/{table_id}")
    bob.page.locator("[data-testid=take-seat]").click()
    ann.wait_table()
    bob.wait_table()
    offer = ann.page.locator("[data-testid=claim-offer]")
    expect(offer).to_have_count(0)  # both are here (an offer made before Bob came is gone)
    bob.page.close()  # Bob walks away
    offer.wait_for()
    assert f"bob_{language}" in offer.inner_text()
    ann.shoot(f"claim-offer-desktop-{language}")
    ann.page.locator("[data-testid=claim-win]").click()
    ann.page.locator(".dialog.game-over [data-testid=ended-by]").wait_for()
    assert (
        ann.page.locator("[data-testid=result-headline]").get_attribute("class") == "headline won"
    )
    ann.page.locator("[data-testid=rating-change]").first.wait_for()
    ann.shoot(f"claim-result-desktop-{language}")
    assert not ann.errors, ann.errors
