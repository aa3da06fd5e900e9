"""A tournament in the browser: a player finds it in the list, registers, is seated by
the server when it starts, plays the first round against a computer at the table the
page leads to, and sees the standings; a name full of markup stays text; the pages fit
a phone and read in Hungarian and Russian."""

from __future__ import annotations

from contextlib import closing

import httpx

from tests.web.conftest import PHONE, LiveServer, MakePage
from tests.web.driver import Player
from tests.web.scenes import guest, make_tournament

HOSTILE = "<img src=x onerror=window.pwned=1>Cup"


def _make_tournament(host: httpx.Client) -> str:
    return make_tournament(host, name=HOSTILE, enter=False)


def _play_round(me: Player) -> None:
    """Draw from the stock and discard the last card, or go out when that is legal,
    until the game is over."""
    for state in me.turns():
        if state["view"]["phase"] == "draw":
            me.page.locator("[data-testid=stock]").click()
            drawn = me.wait_settled()
            if drawn["view"]["gameOver"]:
                return
        else:
            drawn = state
        if any(action.startswith("out ") for action in drawn["legal"]):
            me.click_action("out")
            me.page.wait_for_selector(".hand-card.selected")
            me.click_action("out")
        else:
            me.tap_card(me.hand()[-1])
            me.page.click("[data-testid=discard-pile]")
        me.wait_settled()


def test_register_play_the_first_round_and_see_the_standings(
    new_page: MakePage, live_server: LiveServer
) -> None:
    with closing(guest(live_server.url, "Host")) as host:
        _register_and_play(new_page, host)


def _register_and_play(new_page: MakePage, host: httpx.Client) -> None:
    tournament_id = _make_tournament(host)
    me = new_page()
    me.goto("/#/tournaments")
    me.sit_down("Tess")
    item = me.page.locator(f"[data-tournament='{tournament_id}'] .tournament-name")
    item.wait_for()
    assert item.inner_text() == HOSTILE  # the name is text, not markup
    item.click()
    me.page.locator("button.register").click()
    me.page.wait_for_selector(".entrants li.you")
    assert me.page.locator(".entrants li.you").inner_text() == "Tess"
    me.shoot("tournament-registered-desktop-en")

    refused = me.page.request.post(f"{me.base_url}/api/tournaments/{tournament_id}/start")
    assert refused.status == 403  # only its creator starts it
    started = host.post(f"/api/tournaments/{tournament_id}/start")
    assert started.status_code == 200 and started.json()["status"] == "running", started.text

    # the page reads the tournament again and offers the table the server made
    me.page.locator(".your-table a").click(timeout=20_000)
    me.wait_table()
    # a tournament's table says so, not "Casual"
    badge = me.page.locator(".topbar [data-testid=table-kind]")
    badge.wait_for()
    assert badge.inner_text() == "Tournament"
    names = me.page.locator(".player-plate .name, .opponent .name").all_inner_texts()
    assert any("Tess" in name for name in names) or me.table()["seat"] is not None
    _play_round(me)
    assert me.page.evaluate("() => window.pwned") is None

    # back to the tournament: round 1 is over, the standings list all four
    me.goto(f"/#/tournament/{tournament_id}")
    me.page.wait_for_selector(".round[data-round='0'] h2")
    me.page.wait_for_function(
        "() => document.querySelectorAll('.standings-table tbody tr').length >= 4",
        timeout=60_000,
    )
    view = me.page.request.get(f"{me.base_url}/api/tournaments/{tournament_id}").json()
    first_round = view["round_list"][0]
    assert all(table["totals"] is not None for table in first_round["tables"])
    shown = me.page.locator(".standings-table tbody tr .name").all_inner_texts()
    assert any(name.startswith("Tess") for name in shown)
    assert me.page.locator(".standings-table tr.you").count() == 1
    me.shoot("tournament-standings-desktop-en")
    assert not me.errors, me.errors


def test_the_tournament_pages_on_a_phone_in_every_language(
    new_page: MakePage, live_server: LiveServer
) -> None:
    with closing(guest(live_server.url, "Host")) as host:
        tournament_id = _make_tournament(host)
    for language in ("en", "hu", "ru"):
        me = new_page(viewport=PHONE, language=language)
        me.goto("/#/tournaments")
        me.sit_down(f"Phone{language}")
        me.page.wait_for_selector(f"[data-tournament='{tournament_id}']")
        me.page.wait_for_selector("form.new-tournament")
        fits = me.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert fits, language
        me.shoot(f"tournaments-phone-{language}")
        me.page.locator(f"[data-tournament='{tournament_id}'] .tournament-name").click()
        me.page.locator("button.register").click()
        me.page.wait_for_selector(".entrants li.you")
        fits = me.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert fits, language
        me.shoot(f"tournament-phone-{language}")
        assert not me.errors, me.errors


def test_make_a_tournament_in_the_form_and_start_it(new_page: MakePage) -> None:
    me = new_page()
    me.goto("/#/tournaments")
    me.sit_down("Maker")
    form = me.page.locator("form.new-tournament")
    form.wait_for()
    form.locator("input[name=name]").fill("Evening cup")
    form.locator("select[name=game]").select_option("three-thirteen")
    form.locator("select[name=table_size]").select_option("3")
    form.locator("input[name=capacity]").fill("6")
    form.locator("input[name=starts_at]").fill("2030-01-01T18:30")
    form.locator("button[type=submit]").click()
    me.page.wait_for_selector("h1.tournament-title")
    assert me.page.locator("h1.tournament-title").inner_text() == "Evening cup"
    assert "2030" in me.page.locator("[data-testid=starts-at]").inner_text()
    assert me.page.locator(".entrants li.you").inner_text() == "Maker"  # entered
    tournament_id = me.page.evaluate("() => location.hash.split('/')[2]")
    view = me.page.request.get(f"{me.base_url}/api/tournaments/{tournament_id}").json()
    expected_start = me.page.evaluate("() => new Date('2030-01-01T18:30').getTime() / 1000")
    assert (view["game"], view["table_size"], view["capacity"]) == ("three-thirteen", 3, 6)
    assert view["starts_at"] == expected_start and view["rules"]["last_round"] == 5
    me.page.locator("button.start").click()
    me.page.wait_for_selector(".your-table a", timeout=20_000)
    view = me.page.request.get(f"{me.base_url}/api/tournaments/{tournament_id}").json()
    assert view["status"] == "running" and len(view["entries"]) == 6
    assert [len(t["entries"]) for t in view["round_list"][0]["tables"]] == [3, 3]
    assert not me.errors, me.errors


PAIRS = {
    "name": "Pairs cup",
    "game": "burraco",
    "rules": {"mode": "quick"},
    "format": "swiss",
    "rounds": 1,
    "table_size": 4,
    "capacity": 2,
    "bot_level": "greedy",
    "turn_seconds": None,
}


def test_a_partner_joins_a_pair_by_its_link_and_is_told_when_the_first_player_leaves(
    new_page: MakePage,
) -> None:
    ann, cyd, eve = new_page(), new_page(), new_page()
    for player, name in ((ann, "Ann"), (cyd, "Cyd"), (eve, "Eve")):
        player.enter_lobby(name)
    tournament_id = ann.api("POST", "/api/tournaments", PAIRS)["id"]
    ann.goto(f"/#/tournament/{tournament_id}")
    link = ann.page.locator("[data-testid=pair-link]").input_value()
    # a stranger sees the pair awaiting a partner, and no way to join it uninvited
    eve.goto(f"/#/tournament/{tournament_id}")
    eve.page.locator(".entrants li").wait_for()
    assert "awaiting a partner" in eve.page.locator(".entrants li").inner_text()
    assert not eve.page.locator(".partner-with, [data-testid=pair-link]").count()
    ann.shoot("tournament-pair-link-desktop")
    # Cyd opens the link Ann sent and joins the pair
    cyd.goto(link.removeprefix(cyd.base_url))
    cyd.page.locator("[data-testid=join-pair]").click()
    cyd.page.locator("button.withdraw").wait_for()
    assert cyd.page.locator(".entrants li.you").inner_text() == "Ann & Cyd"
    # Ann withdraws: Cyd leads the pair, told who left, with a link of his own
    ann.page.reload()
    ann.page.locator("button.withdraw").click()
    ann.page.locator("button.register").wait_for()
    cyd.page.reload()
    told = cyd.page.locator("[data-testid=partner-left]")
    told.wait_for()
    assert "Ann" in told.inner_text()
    assert cyd.page.locator("[data-testid=pair-link]").input_value() != link
    assert not ann.errors and not cyd.errors and not eve.errors
