"""After a rated game, the leaderboard lists both players and a name leads to a profile
with the rating, its chart and the game with its replay link; on a phone too, and in
Hungarian and Russian."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from rummykit.server.bots.ratings import PUBLISHED
from tests.kit.scripted import Policy, first_legal, random_policy
from tests.web.conftest import PHONE, LiveServer, MakePage
from tests.web.scenes import PASSWORD, cookie_of, play_seats, registered


def play_rated_game(
    server: LiveServer, first: str, second: str, cookies: dict[str, str] | None = None
) -> tuple[str, str, str]:
    """A rated two-player Three-Thirteen game of rounds 3 and 4: ``second`` leaves at the
    start (a substitute plays for them), ``first`` plays each turn's first legal action.
    The two player ids and the table id; ``cookies`` is given each one's session."""
    ids, table_id = play_rated_table(
        server,
        [first, second],
        {"game": "three-thirteen", "rules": {"first_round": 3, "last_round": 4}},
        cookies,
    )
    return ids[0], ids[1], table_id


def play_rated_table(
    server: LiveServer,
    names: list[str],
    table: dict[str, Any],
    cookies: dict[str, str] | None = None,
    *,
    leavers: Sequence[int] | None = None,
    policy: Policy = first_legal,
) -> tuple[list[str], str]:
    """A rated game at a new ``table`` (its game and rules) of ``names``, seated in order:
    the seats ``leavers`` (all but the first by default) leave at the start, substitutes
    playing for them, and the others play by ``policy``.  The players' ids and the
    table id; ``cookies`` is given each one's session."""
    leaving = set(range(1, len(names)) if leavers is None else leavers)
    clients = [registered(server.url, name) for name in names]
    host = clients[0][0]
    created = host.post(
        "/api/tables",
        json={**table, "seats": [{"kind": "human"}] * len(names), "turn_seconds": None},
    ).json()
    table_id = created["table_id"]
    for seat, (other, _) in enumerate(clients[1:], start=1):
        joined = other.post(f"/api/tables/{table_id}/join", json={"seat": seat})
        assert joined.status_code == 200, joined.text
    for seat in sorted(leaving):
        assert clients[seat][0].post(f"/api/tables/{table_id}/leave").status_code == 200
    staying = [cookie_of(client) for seat, (client, _) in enumerate(clients) if seat not in leaving]
    play_seats(server.url, table_id, staying, policy)
    for name, (client, _) in zip(names, clients, strict=True):
        if cookies is not None:
            cookies[name] = cookie_of(client)
        client.close()
    return [player_id for _, player_id in clients], table_id


@dataclass(frozen=True)
class RatedGame:
    """A finished rated game of two new players: ``first`` won, ``second`` left."""

    first: str
    second: str
    ann_id: str
    bob_id: str
    table_id: str
    cookies: dict[str, str]  # each player's session, by name


@pytest.fixture(scope="module")
def rated_game(live_server: LiveServer) -> RatedGame:
    """:func:`play_rated_game` once for the module: its tests only look at the game."""
    suffix = secrets.token_hex(3)
    first, second = f"ann{suffix}", f"bob{suffix}"
    cookies: dict[str, str] = {}
    ann_id, bob_id, table_id = play_rated_game(live_server, first, second, cookies)
    return RatedGame(first, second, ann_id, bob_id, table_id, cookies)


def test_the_leaderboard_and_a_profile_after_a_rated_game(
    new_page: MakePage, rated_game: RatedGame
) -> None:
    first, second = rated_game.first, rated_game.second
    ann_id, bob_id, table_id = rated_game.ann_id, rated_game.bob_id, rated_game.table_id

    viewer = new_page()
    viewer.goto("/")
    viewer.page.click(".game-tile[data-game='three-thirteen'] .leaderboard-link")
    board = viewer.page.locator(".board[data-pool='three-thirteen/2']")
    board.locator(f"tr[data-player='{ann_id}']").wait_for()
    rows = board.locator("tbody tr")
    names = rows.locator(".name").all_text_contents()
    assert names.index(first) < names.index(second)  # the winner ranks above the leaver
    ann_rating = board.locator(f"tr[data-player='{ann_id}'] .rating").text_content() or ""
    assert ann_rating.endswith("?") and int(ann_rating[:-1]) > 1500  # provisional, gained
    viewer.page.click("a[data-period='30d']")
    viewer.page.wait_for_url("**/#/leaderboard/three-thirteen?period=30d")
    board.locator(f"tr[data-player='{bob_id}']").wait_for()

    board.locator(f"tr[data-player='{bob_id}'] .name a").click()
    viewer.page.locator("[data-testid=profile-name]").wait_for()
    assert (viewer.page.text_content("[data-testid=profile-name]") or "").strip() == second
    card = viewer.page.locator(".pool-card[data-pool='three-thirteen/2']")
    assert int((card.locator(".rating").text_content() or "")[:-1]) < 1500
    assert card.locator("svg[data-points='1'] polyline").count() == 1
    game = viewer.page.locator(f".recent-game[data-table='{table_id}']")
    text = game.text_content() or ""
    assert "left early" in text and "substitute" in text and "rated" in text
    assert game.locator("a[href^='#/replay/']").get_attribute("href") == f"#/replay/{table_id}"
    game.locator(f"a[href='#/player/{ann_id}']").click()
    shown = "document.querySelector('[data-testid=profile-name]')?.textContent.trim()"
    viewer.page.wait_for_function(f"() => {shown} === '{first}'")
    assert not viewer.errors, viewer.errors

    for language, words in (("hu", "Ranglista"), ("ru", "Рейтинг игроков")):
        page = new_page(language=language, viewport=PHONE)
        page.goto("/#/leaderboard/three-thirteen")
        page.page.locator(f"tr[data-player='{ann_id}']").wait_for()
        assert words in (page.page.text_content(".topbar") or "")
        width = page.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{language}: the leaderboard is {width} px wide"
        page.shoot(f"leaderboard-phone-{language}")
        page.goto(f"/#/player/{bob_id}")
        page.page.locator(f".recent-game[data-table='{table_id}']").wait_for()
        width = page.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{language}: the profile is {width} px wide"
        page.shoot(f"profile-phone-{language}", full_page=True)
        assert not page.errors, page.errors


def test_a_registered_player_creates_a_rated_table_and_the_lobby_says_so(
    new_page: MakePage,
) -> None:
    name = f"cy{secrets.token_hex(3)}"
    creator = new_page()
    creator.goto("/")
    creator.page.click(".identity-tabs button:nth-child(3)")  # register
    creator.page.fill("input[name=nickname]", name)
    creator.page.fill("input[name=password]", PASSWORD)
    creator.page.click("form.identity button[type=submit]")
    creator.page.locator(".my-profile").wait_for()
    creator.page.click(".game-tile[data-game='three-thirteen'] .create-table")
    dialog = creator.page.locator(".dialog.create-table")
    assert dialog.locator("input[name=rated]").count() == 0  # a bot sits in seat 2
    # the published ladder rating of a measured bot level shows where a bot is picked
    for level in ("easy", "greedy"):
        dialog.locator("select[data-seat='1']").select_option(f"bot:{level}")
        published = PUBLISHED["three-thirteen"][level]
        rating = dialog.locator("[data-seat-row='1'] .bot-rating")
        assert rating.inner_text() == f"rating {published}", level
    dialog.locator("select[data-seat='1']").select_option("human")
    assert dialog.locator("input[name=rated][value=rated]").is_checked()
    dialog.locator("button[type=submit]").click()
    creator.page.wait_for_url("**/#/table/*")

    watcher = new_page()
    watcher.goto("/")
    row = watcher.page.locator(".table-row", has_text=name)
    row.locator(".badge.rated").wait_for()
    row.locator(f"a:text-is('{name}')").click()
    watcher.page.wait_for_url("**/#/player/*")
    assert (watcher.page.text_content("[data-testid=profile-name]") or "").strip() == name
    assert not creator.errors and not watcher.errors, (creator.errors, watcher.errors)


def test_the_result_shows_what_a_rated_game_did_to_each_rating(
    new_page: MakePage, rated_game: RatedGame
) -> None:
    first, second, table_id = rated_game.first, rated_game.second, rated_game.table_id
    cookies = rated_game.cookies
    for name, language, words in (
        (first, "en", "Rating"),
        (second, "ru", "Рейтинг"),
        (first, "hu", "Értékszám"),  # the longest word for it
    ):
        page = new_page(language=language, viewport=PHONE, session=cookies[name])
        page.goto(f"/#/table/{table_id}")
        cells = page.page.locator(".game-over [data-testid=rating-change]")
        cells.first.wait_for()
        texts = [text.strip() for text in cells.all_text_contents()]
        assert len(texts) == 2 and all(words in text for text in texts), texts
        # the winner gains, the player who left loses; both are provisional (one game)
        assert "(+" in texts[0] and "(\N{MINUS SIGN}" in texts[1], texts
        assert all("?" in text for text in texts), texts
        # the totals with the ratings under them fit the phone without scrolling sideways
        frame = ".game-over .final-totals"
        widths = page.page.eval_on_selector(
            frame, "t => [t.scrollWidth, t.closest('.scrolls-x').clientWidth]"
        )
        assert widths[0] <= widths[1], (language, widths)
        page.shoot(f"result-rating-phone-{language}")
        assert not page.errors, page.errors


def test_a_rated_game_of_pairs_shows_each_partners_change(
    new_page: MakePage, live_server: LiveServer
) -> None:
    suffix = secrets.token_hex(3)
    names = [f"{name}{suffix}" for name in ("ann", "bob", "cyd", "dee")]
    cookies: dict[str, str] = {}
    _, table_id = play_rated_table(
        live_server,
        names,
        {"game": "burraco", "rules": {"players": 4}},
        cookies,
        leavers=[1, 3],  # bob and dee leave: their side is placed last
        policy=random_policy(4),
    )
    page = new_page(language="hu", viewport=PHONE, session=cookies[names[0]])
    page.goto(f"/#/table/{table_id}")
    dialog = page.page.locator(".game-over")
    cells = dialog.locator(".rating-changes td")
    cells.first.wait_for()
    # a column a team, each partner's change under it, by name
    assert dialog.locator("[data-testid=final-total]").count() == 2
    assert cells.count() == 2
    for cell, team in zip(cells.all(), ((0, 2), (1, 3)), strict=True):
        changes = cell.locator("[data-testid=rating-change]")
        assert changes.count() == 2
        labels = [text.strip() for text in changes.locator(".label").all_text_contents()]
        assert labels == [names[team[0]], names[team[1]]], labels
        sign = "(+" if team == (0, 2) else "(\N{MINUS SIGN}"
        assert all(sign in text for text in changes.all_text_contents()), team
    widths = page.page.eval_on_selector(
        ".game-over .final-totals", "t => [t.scrollWidth, t.closest('.scrolls-x').clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    page.shoot("result-rating-pairs-phone-hu")
    assert not page.errors, page.errors
