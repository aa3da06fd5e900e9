"""A whole game of Burraco for four on a 360 by 740 phone, in English, Hungarian and
Russian: the new-table dialog seats three computers and says which seat is the
partner's; at each of the player's turns the others sit above in playing order (the
partner opposite, named "Partner"), the team's melds are below and the other team's
above, each under a line naming its team with its pozzetto and its score, every name,
team line and burraco label whole (its text fits its box), on the screen and uncovered,
one plate has the turn (the player's own with its chips at the size of their words),
every control lies on the screen, and no card shows that the player may not see (the
partner's hand included).  At the end, the team words in each language.  At a desktop,
the table and its replay show every meld whole."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.web.catalogs import MESSAGES
from tests.web.checks import server_view, visible_to
from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player, session_of
from tests.web.layout import check_turn, names_not_on_one_line
from tests.web.scenes import play_seat

SWITCH = {"en": "EN", "hu": "HU", "ru": "RU"}
STALEMATE_TURNS = 40


# the elements of ``selector`` that are not whole: off the screen, their text wider or
# taller than their box, or covered at their middle by something else
_NOT_WHOLE = """(selector) => [...document.querySelectorAll(selector)].flatMap((e) => {
  const r = e.getBoundingClientRect();
  const name = `${selector} "${e.textContent.trim()}"`;
  if (r.width === 0 || r.height === 0) return [`${name} hidden`];
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    return [`${name} off the screen`];
  if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
    return [`${name} cut`];
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top || !(e.contains(top) || top.contains(e))) return [`${name} covered`];
  return [];
})"""


def _whole(me: Player, *selectors: str) -> None:
    for selector in selectors:
        bad = me.page.evaluate(_NOT_WHOLE, selector)
        assert not bad, bad


def _check_teams(me: Player, state: dict[str, Any], language: str) -> None:
    """The partner named opposite; each team's line names its players, its pozzetto and
    its score; every name and label whole."""
    words = MESSAGES[language]
    page = me.page
    partner = page.locator(".burraco-others .partner-seat")
    assert (partner.locator(".partner-chip").text_content() or "").strip() == words[
        "burraco.partner"
    ]
    _whole(
        me,
        ".burraco-others .plate-name",
        ".burraco-others .partner-chip",
        ".team-bar .team-name",
        ".team-bar .pozzetto-chip",
        ".team-bar .team-score",
        ".burraco-badge",
    )
    # the viewer's team is "You & partner", the other names both its players
    names = page.eval_on_selector_all(".team-bar .team-name", "els => els.map(e => e.textContent)")
    assert len(names) == 2, names
    their, mine = names
    assert mine.startswith(words["burraco.team_you"].split("{")[0]), mine
    joined = words["table.pair_name"].format(name="", partner="").strip()
    assert joined in their, their
    # whose turn: one plate, and its team's line
    view = state["view"]
    if not view["gameOver"]:
        side = view["currentPlayer"] % 2
        assert page.locator(f".team-bar.has-turn[data-side='{side}']").count() == 1


def _create_from_the_dialog(me: Player, language: str) -> None:
    """Four players, the three other seats computers, from the lobby's dialog."""
    me.page.click("article.game-tile[data-game=burraco] button.create-table")
    dialog = me.page.locator(".dialog.create-table")
    dialog.locator("select[name=players]").select_option("4")
    labels = [text.strip() for text in dialog.locator(".seat-option .seat-role").all_inner_texts()]
    words = MESSAGES[language]
    partner, opponent = words["create.partner_seat"], words["create.opponent_seat"]
    assert labels[0] == words["create.you"]
    assert [labels[1].startswith(opponent), labels[2].startswith(partner)] == [True] * 2
    assert labels[3].startswith(opponent) and partner not in labels[1] + labels[3]
    for seat in (1, 2, 3):
        dialog.locator(f"select[data-seat='{seat}']").select_option("bot:random")
    # a hand of 40 turns at most (ten of the player's), to keep the test short
    dialog.locator(".more-rules button").click()
    dialog.locator("#opt-stalemate_turns").fill(str(STALEMATE_TURNS))
    dialog.locator("button[type=submit]").click()
    me.wait_table()


def _check_board(me: Player, state: dict[str, Any]) -> None:
    view, seat = state["view"], state["seat"]
    page = me.page
    others = page.eval_on_selector_all(
        ".burraco-others .opponent", "els => els.map(e => Number(e.dataset.seat))"
    )
    assert others == [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4]
    assert page.locator(".burraco-others .partner-seat").get_attribute("data-seat") == str(
        (seat + 2) % 4
    )
    # one plate has the turn: the mover's
    turns = page.eval_on_selector_all(
        ".player-plate.is-turn", "els => els.map(e => Number(e.dataset.seat))"
    )
    assert turns == ([] if view["gameOver"] else [view["currentPlayer"]])
    observation = server_view(me, state["tableId"])["observation"]
    team = seat % 2
    mine = [m for m in observation["melds"] if m["owner"] == team]
    theirs = [m for m in observation["melds"] if m["owner"] != team]
    assert page.locator(".my-melds .meld").count() == len(mine)
    assert page.locator(".their-melds .meld").count() == len(theirs)
    # the plates count each hand; nothing shows a card the seat may not see
    counts = page.eval_on_selector_all(
        ".burraco-others .plate-cards", "els => els.map(e => Number(e.textContent.trim()))"
    )
    assert counts == [observation["hand_sizes"][s] for s in others]
    extra = me.shown_cards() - visible_to(observation)
    assert not extra, extra
    partner_hand = Counter(observation["hand_sizes"])  # sizes only, never cards
    assert "hands" not in observation and partner_hand


# a dealer's chip put on the plate of ``seat`` (whoever deals now): its height, and the
# height of a line of its text
_DEALER_CHIP = """(seat) => {
  const chip = document.createElement('span');
  chip.className = 'chip dealer';
  chip.textContent = 'Dealer';
  document.querySelector(`.player-plate[data-seat='${seat}']`).append(chip);
  const height = chip.getBoundingClientRect().height;
  const style = getComputedStyle(chip);
  const line = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
  chip.remove();
  return [height, line];
}"""


def _own_plate_chips_fit_their_words(me: Player, seat: int) -> None:
    """The player's own plate holds its chips at the size of their words (a dealer's
    chip as tall as a tap target made the plate a two-line bubble)."""
    height, line = me.page.evaluate(_DEALER_CHIP, seat)
    assert height <= line + 4, (height, line)


@pytest.mark.parametrize("language", ["hu", "en", "ru"])
def test_a_whole_game_for_four_on_a_phone(new_page: MakePage, language: str) -> None:
    me = new_page(viewport=PHONE, language=language)
    me.enter_lobby("Dóra")
    _create_from_the_dialog(me, language)
    turns = 0
    while True:
        state = me.wait_turn_or_end()
        if state["view"]["gameOver"]:
            break
        me.close_dialogs()
        if state["view"]["phase"] == "draw":
            _check_board(me, state)
            _check_teams(me, state, language)
            check_turn(me, f"burraco-four-{turns}-draw")
            # "Компьютер 2" and "2. gép" too, each on one line
            assert names_not_on_one_line(me) == [], turns
            if turns in (0, 6):
                me.shoot(f"burraco-four-{language}-turn-{turns}-phone")
            if turns == 0:
                _own_plate_chips_fit_their_words(me, state["seat"])
            me.page.click("[data-testid=stock]")
            state = me.wait_settled()
        hand = me.hand()
        forbidden = state["view"].get("forbiddenDiscard")
        plain = [c for c in hand if c != "Jk" and c[0] != "2" and c != forbidden] or hand
        me.tap_card(plain[-1])
        me.page.click("[data-testid=discard-pile]")
        me.wait_settled()
        turns += 1
    assert turns >= 3
    record = server_view(me, state["tableId"])
    assert record["rules"]["players"] == 4 and len(record["players"]) == 4
    assert record["rules"]["stalemate_turns"] == STALEMATE_TURNS
    dialog = me.page.locator(".dialog:has(.final-totals)").first
    dialog.wait_for()
    me.shoot(f"burraco-four-game-over-phone-{language}")
    # a column a team: the partners' names and the total they share
    totals = dialog.locator("[data-testid=final-total]").all_inner_texts()
    assert [int(t) for t in totals] == record["totals"][:2] == record["totals"][2:]
    heads = dialog.locator(".final-totals thead th").all_inner_texts()
    assert len(heads) == 2 and heads[0].startswith("Dóra"), heads  # her partner's side
    assert "Dóra" not in heads[1], heads
    # the last hand's melds and breakdown are the teams'
    titles = dialog.locator(".hand-side-title").all_inner_texts()
    joined = MESSAGES[language]["table.pair_name"].format(name="", partner="").strip()
    assert len(titles) == 2 and all(joined in title for title in titles), titles
    assert dialog.locator(".breakdown thead th").count() == 3
    me.page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    # the team words, in each language
    for other in ("hu", "en", "ru"):
        words = MESSAGES[other]
        me.page.click(f".lang-switch button:text-is('{SWITCH[other]}')")
        me.page.wait_for_function(
            "(label) => document.querySelector('.my-melds')?.getAttribute('aria-label') === label",
            arg=words["burraco.your_team_melds"],
        )
        partner = me.page.locator(".burraco-others .partner-chip").text_content() or ""
        assert partner.strip() == words["burraco.partner"]
        _check_teams(me, state, other)
    # the lobby's past games: won or lost with the partner, against the other pair only
    me.goto("/")
    row = me.page.locator(f".past-games .history-row[data-table='{state['tableId']}']")
    row.wait_for()
    seat = state["seat"]
    ours, theirs = record["totals"][seat], record["totals"][(seat + 1) % 4]
    winners = state["view"]["winners"]
    won = seat in winners
    drawn = won and (seat + 1) % 4 in winners
    expected = "drawn" if drawn else "won" if won else "lost"
    assert row.locator("[data-testid=past-result]").get_attribute("data-outcome") == expected
    assert row.locator("[data-testid=past-partner]").count() == 1
    assert row.locator("[data-testid=past-scores]").inner_text().strip() == f"{ours} : {theirs}"
    opponents = row.locator("[data-testid=past-opponents] > *")
    assert opponents.count() == 2
    me.shoot("burraco-four-past-game-phone-ru", of=row)
    assert not me.errors, me.errors


@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_the_table_for_four_at_a_desktop(new_page: MakePage, language: str) -> None:
    """At 1280 by 800: the partner named opposite, both teams' lines whole, a few turns."""
    me = new_page(language=language)
    me.enter_lobby("Dóra")
    bot = {"kind": "bot", "level": "random"}
    table_id = me.create_table(
        {
            "game": "burraco",
            "rules": {"players": 4, "stalemate_turns": STALEMATE_TURNS},
            "seats": [{"kind": "human"}, bot, bot, bot],
            "sit": True,
        }
    )
    me.goto(f"/#/table/{table_id}")
    me.wait_table()
    for turn in range(3):
        state = me.wait_turn_or_end()
        if state["view"]["gameOver"]:
            break
        me.close_dialogs()
        _check_teams(me, state, language)
        check_turn(me, f"burraco-four-desktop-{language}-{turn}")
        if turn == 0:
            me.shoot(f"burraco-four-{language}-desktop")
        me.page.click("[data-testid=stock]")
        me.wait_settled()
        hand = me.hand()
        me.tap_card(hand[-1])
        me.page.click("[data-testid=discard-pile]")
        me.wait_settled()
    assert not me.errors, me.errors


def test_the_replay_for_four_at_a_desktop_shows_every_meld_whole(new_page: MakePage) -> None:
    """A game of the player and three greedy computers, replayed at 1280 by 800 near its
    end: neither team's melds are cut by their zone (the replay's controls take height
    the table does not need), and the move list keeps its own scroll."""
    me = new_page()
    me.enter_lobby("Dóra")
    bot = {"kind": "bot", "level": "greedy"}
    table_id = me.create_table(
        {
            "game": "burraco",
            "rules": {"players": 4, "stalemate_turns": 60},
            "seats": [{"kind": "human"}, bot, bot, bot],
            "turn_seconds": None,
        }
    )
    play_seat(me.base_url, table_id, session_of(me.page.context))
    me.goto(f"/#/replay/{table_id}")
    me.page.wait_for_selector(".board .their-melds")
    me.page.keyboard.press("End")
    me.page.keyboard.press("ArrowLeft")
    me.settle()
    me.shot("burraco-four-replay-desktop", full_page=True)
    assert me.page.locator(".their-melds .meld").count() > 0
    cut = me.page.eval_on_selector_all(
        ".melds", "zones => zones.filter((z) => z.scrollHeight > z.clientHeight + 1).length"
    )
    assert cut == 0, "a team's melds are cut: they scroll inside their zone"
    moves = me.page.locator("[data-testid=replay-moves]")
    assert moves.evaluate("(list) => list.scrollHeight > list.clientHeight")
    assert not me.errors, me.errors
