"""A tournament page with a round played, on a 360-pixel phone in each language: the
page is no wider than the screen, every column of the standings (the Difference column
included) and every Replay link lie inside it and inside their panel, and names break
only between words; the list of tournaments and the form for a new one fit it too."""

from __future__ import annotations

from contextlib import closing

import pytest

from tests.kit.wait import wait_until
from tests.web.conftest import PHONE, LiveServer, MakePage
from tests.web.scenes import cookie_of, guest, make_tournament, play_seat


@pytest.fixture(scope="module")
def tournament_id(live_server: LiveServer) -> str:
    """Four entrants (a player with a long name and three computers), round 1 played:
    made once, only looked at by each language's page."""
    name = "Maximiliánné Szentgyörgyvölgyi"
    with closing(guest(live_server.url, name[:24])) as host:
        tournament_id = make_tournament(
            host,
            name="Autumn Championship of Three-Thirteen",
            rules={"first_round": 1, "last_round": 1},
        )
        started = host.post(f"/api/tournaments/{tournament_id}/start")
        assert started.status_code == 200, started.text
        view = host.get(f"/api/tournaments/{tournament_id}").json()
        table_id = view["your_table"]
        assert table_id, view
        play_seat(live_server.url, table_id, cookie_of(host))

        def round_played() -> bool:
            view = host.get(f"/api/tournaments/{tournament_id}").json()
            return all(t["totals"] is not None for t in view["round_list"][0]["tables"])

        wait_until(round_played, 60, what="the end of the first round's every table")
        return tournament_id


CUT = """() => {
  const bad = [];
  if (document.documentElement.scrollWidth > innerWidth + 1)
    bad.push(`page ${document.documentElement.scrollWidth} wide`);
  // inside the screen and inside its panel (a table that scrolls within it hides the rest)
  const inside = (e) => { const r = e.getBoundingClientRect();
    const p = e.closest('.panel').getBoundingClientRect();
    return r.left >= Math.max(-0.5, p.left - 0.5)
      && r.right <= Math.min(innerWidth, p.right) + 0.5; };
  const parts = '.standings-table th, .standings-table td, .round-table a';
  for (const e of document.querySelectorAll(parts))
    if (!inside(e)) bad.push(`${e.textContent.trim()} outside`);
  // a word broken over two lines shows as two boxes of one range
  const names = '.standings-table .name, .round-table .seats, .entrants li';
  for (const e of document.querySelectorAll(names)) {
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) bad.push(`${m[0]} broken`);
      }
    }
  }
  return bad;
}"""


LIST_CUT = """() => {
  const bad = [];
  if (document.documentElement.scrollWidth > innerWidth + 1)
    bad.push(`page ${document.documentElement.scrollWidth} wide`);
  const parts = '.tournament-item, .tournament-item > *, form.new-tournament label, '
    + 'form.new-tournament input, form.new-tournament select, form.new-tournament button';
  for (const e of document.querySelectorAll(parts)) {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5)
      bad.push(`${e.className || e.tagName} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return bad;
}"""


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_a_tournament_with_standings_fits_a_phone(
    new_page: MakePage, tournament_id: str, language: str
) -> None:
    me = new_page(viewport=PHONE, language=language)
    me.enter_lobby(f"Phone{language}")
    me.goto(f"/#/tournament/{tournament_id}")
    me.page.wait_for_selector(".standings-table tbody tr")
    me.page.wait_for_selector(".round-table a")
    me.settle()
    me.shot(f"tournament-{language}", full_page=True)
    bad: list[str] = me.page.evaluate(CUT)
    assert bad == [], bad
    # the list of tournaments and the form for a new one
    me.goto("/#/tournaments")
    me.page.wait_for_selector(f".tournament-item[data-tournament='{tournament_id}']")
    me.page.wait_for_selector("form.new-tournament")
    me.settle()
    me.shot(f"tournaments-{language}", full_page=True)
    bad = me.page.evaluate(LIST_CUT)
    assert bad == [], bad
    assert not me.errors, me.errors
