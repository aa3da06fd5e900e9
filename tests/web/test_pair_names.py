"""One name for each entrant of a tournament of pairs (Burraco for four), in English,
Hungarian and Russian: a computer in the player's language with its entrant's number
("Computer 3 (Medium)", "3. gép (közepes)", "Компьютер 3 (средний)") and a pair by its
two names joined as the table joins them ("&", "és", "и"), alike in the tournament's
round and standings, at the table (plates and team lines), in the game-over dialog
(its columns and its headline) and in the replay."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.kit.tournaments import QUICK_BURRACO, tournament_body
from tests.web.catalogs import MESSAGES
from tests.web.conftest import PHONE, MakePage
from tests.web.driver import session_of
from tests.web.scenes import draw_rather_than_take, play_seat

ME = "Dóra"


def _computer(language: str, number: int, *, short: bool = False) -> str:
    words = MESSAGES[language]
    if short:
        return str(words["table.bot_short"]).format(n=number)
    return str(words["table.bot_numbered"]).format(n=number, level=words["level.greedy"])


def _pair(language: str, name: str, partner: str) -> str:
    return str(MESSAGES[language]["table.pair_name"]).format(name=name, partner=partner)


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_pairs_tournament_names_everyone_alike(new_page: MakePage, language: str) -> None:
    me = new_page(language=language)
    me.enter_lobby(ME)
    body = tournament_body(
        QUICK_BURRACO, name="Pairs cup", format="swiss", rounds=1, table_size=4, capacity=2,
        bot_level="greedy", turn_seconds=None,
    )  # fmt: skip
    tournament_id = me.api("POST", "/api/tournaments", body)["id"]
    me.api("POST", f"/api/tournaments/{tournament_id}/start")
    view: dict[str, Any] = me.api("GET", f"/api/tournaments/{tournament_id}")
    table_id = view["round_list"][0]["tables"][0]["table_id"]
    # the player alone with a computer partner (3, numbered after the entrants), against
    # a pair of computers (entrant 2 and its partner 4)
    mine = _pair(language, ME, _computer(language, 3))
    theirs = _pair(language, _computer(language, 2), _computer(language, 4))

    # the table: each computer's plate, and the other team's line (read before the
    # player's seat is played: at once, over a socket of its own, it ends the game
    # within seconds, and a page on a starved machine still drawing each move of it
    # could take longer than that to show the board)
    me.goto(f"/#/table/{table_id}")
    me.wait_table()
    plates = me.page.eval_on_selector_all(
        ".burraco-others .plate-name .name-full", "els => els.map((e) => e.textContent)"
    )
    assert sorted(plates) == sorted(_computer(language, n) for n in (2, 3, 4)), plates
    lines = me.page.locator(".team-bar .team-name").all_inner_texts()
    short = _pair(language, _computer(language, 2, short=True), _computer(language, 4, short=True))
    assert short in lines, (lines, short)
    player = threading.Thread(
        target=play_seat,
        args=(me.base_url, table_id, session_of(me.page.context), draw_rather_than_take),
        daemon=True,
    )
    player.start()

    # the game-over dialog: a column a pair, the winners by their pair's name
    dialog = me.page.locator(".dialog.game-over")
    dialog.wait_for(timeout=120_000)
    player.join(timeout=60)
    heads = dialog.locator(".final-totals thead th").all_inner_texts()
    assert sorted(heads) == sorted([mine, theirs]), heads
    headline = dialog.locator("[data-testid=result-headline]").inner_text()
    won = me.page.evaluate("() => window.rummykitTable.store.get().gameOver.winners")
    if 0 not in won and 1 not in won:
        pytest.fail(f"no winner at seats 0 and 1: {won}")
    if len(won) == 2:  # one pair won: it is named as a pair, unless it is the player's
        seat = me.table()["seat"]
        if seat not in won:
            assert theirs in headline, (headline, theirs)
    me.shoot(f"pair-names-game-over-{language}", of=dialog)

    # the tournament: its round's table and its standings
    me.goto(f"/#/tournament/{tournament_id}")
    me.page.wait_for_function(
        "() => document.querySelectorAll('.standings-table tbody tr').length === 2",
        timeout=60_000,
    )
    standings = me.page.locator(".standings-table tbody tr .name").all_inner_texts()
    assert sorted(name.strip() for name in standings) == sorted([mine, theirs]), standings
    seated = me.page.locator(".round-table .seats").inner_text()
    assert mine in seated and theirs in seated, (seated, mine, theirs)
    me.shoot(f"pair-names-standings-{language}")

    # the replay: whose view it shows, and the teams' lines
    me.goto(f"/#/replay/{table_id}")
    me.page.locator("[data-testid=replay-last]").click()
    seats = me.page.eval_on_selector_all(
        ".replay-controls select option", "els => els.map((e) => e.textContent)"
    )
    assert sorted(seats) == sorted([ME, *(_computer(language, n) for n in (2, 3, 4))]), seats
    lines = me.page.locator(".team-bar .team-name").all_inner_texts()
    assert short in lines, (lines, short)
    me.shoot(f"pair-names-replay-{language}")
    # the same names on a phone: the standings' lines whole
    me.page.set_viewport_size(PHONE)
    me.goto(f"/#/tournament/{tournament_id}")
    me.page.locator(".standings-table tbody tr").first.wait_for()
    standings = me.page.locator(".standings-table tbody tr .name").all_inner_texts()
    assert sorted(name.strip() for name in standings) == sorted([mine, theirs]), standings
    me.shoot(f"pair-names-standings-phone-{language}")
    assert not me.errors, me.errors
