"""What a player reads about their own games, in English, Hungarian and Russian: the
lobby's past games (won or lost in their words, against whom, their own score first),
dates in the page's language, a profile that counts a rated private game without
naming it, a round dot on the rating chart, computers named by level (never by
algorithm), a dealer's chip that is no card rank, a log-out button that is not the
game's "go out", and a tournament's finished table that says when its deal is shown and
leads back to the tournament."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import DESKTOP, PHONE, LiveServer, MakePage
from tests.web.driver import Player
from tests.web.scenes import cookie_of, guest, make_tournament, play_seat, registered

ENGINE_NAMES = re.compile(r"greedy|ismcts|random|\bbot\b", re.IGNORECASE)

# what each language's page says, and how it writes a day (Intl's "medium" date style)
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "won": "You won",
        "lost": "You lost",
        "drawn": "Tied",
        "private": "private table",
        "against": "against {name}",
        "date": re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}$"),
        "level": "Medium",
        "dealer": "Dealer",
        "round_seed": "revealed when the tournament round ends",
        "back": "Back to the tournament",
    },
    "hu": {
        "won": "Nyertél",
        "lost": "Vesztettél",
        "drawn": "Döntetlen",
        "private": "privát asztal",
        "against": "{name} ellen",
        "date": re.compile(r"^\d{4}\. \w+\.? \d{1,2}\.$"),
        "level": "közepes",
        "dealer": "Osztó",
        "round_seed": "a tornaforduló végén derül ki",
        "back": "Vissza a tornához",
    },
    "ru": {
        "won": "Вы выиграли",
        "lost": "Вы проиграли",
        "drawn": "Ничья",
        "private": "закрытый стол",
        "against": "соперник: {name}",
        "date": re.compile(r"^\d{1,2} \w+\.? \d{4} г\.$"),  # noqa: RUF001
        "level": "средний",
        "dealer": "Сдаёт",
        "round_seed": "будет раскрыто в конце тура турнира",
        "back": "Вернуться к турниру",
    },
}


def _private_rated_game(server: LiveServer, first: str, second: str) -> dict[str, Any]:
    """A rated private Three-Thirteen game of rounds 3 and 4: ``second`` joins by the
    invitation and leaves (a substitute plays for them), ``first`` plays each turn's first
    legal action.  The players' ids and sessions, and the table as ``second`` lists it."""
    ann, ann_id = registered(server.url, first)
    bob, bob_id = registered(server.url, second)
    created = ann.post(
        "/api/tables",
        json={
            "game": "three-thirteen",
            "rules": {"first_round": 3, "last_round": 4},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "turn_seconds": None,
            "private": True,
        },
    ).json()
    table_id = created["table_id"]
    joined = bob.post(f"/api/tables/{table_id}/join", json={"token": created["invite_token"]})
    assert joined.status_code == 200, joined.text
    assert bob.post(f"/api/tables/{table_id}/leave").status_code == 200
    play_seat(server.url, table_id, cookie_of(ann))
    [listed] = bob.get("/api/history").json()
    assert listed["table_id"] == table_id and listed["private"] and listed["rated"]
    # a table of Bob's under way, against a computer: the lobby lists it to come back to
    running = bob.post(
        "/api/tables",
        json={
            "game": "three-thirteen",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        },
    )
    assert running.status_code == 200, running.text
    found = {
        "ann_id": ann_id,
        "bob_id": bob_id,
        "bob_cookie": cookie_of(bob),
        "listed": listed,
    }
    ann.close()
    bob.close()
    return found


def _round_dot(page: Player) -> None:
    """The rating chart's last dot is as wide as it is high."""
    dot = page.page.locator(".rating-chart .rating-last").first
    dot.wait_for()
    box = dot.bounding_box()
    assert box and box["width"] > 2 and abs(box["width"] - box["height"]) < 0.5, box


def test_past_games_and_the_profile_in_the_players_own_words(
    new_page: MakePage, live_server: LiveServer
) -> None:
    suffix = secrets.token_hex(3)
    first, second = f"ann{suffix}", f"bob{suffix}"
    game = _private_rated_game(live_server, first, second)
    listed = game["listed"]
    bob_seat = next(s["seat"] for s in listed["seats"] if s["player_id"] == game["bob_id"])
    assert bob_seat == 1  # seat order puts Ann's score first: the page must not
    totals, winners = listed["totals"], listed["winners"]
    outcome = "lost" if bob_seat not in winners else "drawn" if len(winners) > 1 else "won"
    assert totals[0] != totals[1] or outcome == "drawn"
    for language, viewport in (("hu", DESKTOP), ("ru", PHONE), ("en", PHONE), ("hu", PHONE)):
        words = WORDS[language]
        size = "phone" if viewport == PHONE else "desktop"
        page = new_page(session=game["bob_cookie"], language=language, viewport=viewport)
        page.goto("/")
        row = page.page.locator(f".past-games .history-row[data-table='{listed['table_id']}']")
        row.wait_for()
        assert row.locator("[data-testid=past-result]").inner_text().strip() == words[outcome]
        opponents = row.locator("[data-testid=past-opponents]").inner_text().strip()
        assert opponents == words["against"].format(name=first), opponents
        scores = row.locator("[data-testid=past-scores]").inner_text().strip()
        assert scores == f"{totals[1]} : {totals[0]}", scores
        date = row.locator("[data-testid=past-date]").inner_text().strip()
        assert words["date"].match(date), (language, date)
        # the game under way against a computer names it by its level
        current = page.page.locator("[data-testid=current-games]")
        current.wait_for()
        assert words["level"] in current.inner_text()
        # (the open tables are other tests' too: only this player's lists are read)
        mine = current.inner_text() + page.page.locator(".past-games").inner_text()
        assert not ENGINE_NAMES.search(mine), mine
        width = page.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= viewport["width"], (language, size, width)
        page.shoot(f"past-games-{size}-{language}", of=page.page.locator(".past-games"))
        if language == "ru":
            # logging out is not the game's going out
            logout = page.page.locator(".identity .logout").inner_text().strip()
            assert logout and "ыйти" not in logout, logout

        # the profile counts the rated private game: its place, rating change and day,
        # without its table, players or scores
        page.goto(f"/#/player/{game['bob_id']}")
        recent = page.page.locator(".recent-game")
        recent.first.wait_for()
        assert recent.count() == 1
        shown = recent.first.inner_text()
        assert words["private"] in shown and first not in shown, shown
        assert recent.first.locator("a").count() == 0  # no replay of a private table
        date = recent.first.locator("[data-testid=past-date]").inner_text().strip()
        assert words["date"].match(date), (language, date)
        _round_dot(page)
        width = page.page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= viewport["width"], (language, size, width)
        page.shoot(f"profile-own-{size}-{language}")
        assert not page.errors, page.errors


def _tournament_table(
    server: LiveServer, names: list[str], before_full: Callable[[str, str], None]
) -> tuple[str, str, str]:
    """A Three-Thirteen tournament of four people at two tables (``before_full`` is
    called with the tournament and the first player's session while a place is still
    free): the first of ``names`` plays their table to its end (their opponent left: a
    substitute plays), the other table is never played, so the round goes on.  The
    tournament, the table and the first player's session."""
    clients = [guest(server.url, name) for name in names]
    tournament_id = make_tournament(clients[0], name="Evening cup", bot_level="easy")
    for i, client in enumerate(clients[1:]):
        if i == 2:
            before_full(tournament_id, cookie_of(clients[0]))
        answer = client.post(f"/api/tournaments/{tournament_id}/register")
        assert answer.status_code == 200, answer.text
    view = clients[0].get(f"/api/tournaments/{tournament_id}").json()
    assert view["status"] == "running", view
    table_id: str = view["your_table"]
    [table] = [t for t in view["round_list"][0]["tables"] if t["table_id"] == table_id]
    for client in clients[1:]:
        if client.get(f"/api/tournaments/{tournament_id}").json()["your_table"] == table_id:
            assert client.post(f"/api/tables/{table_id}/leave").status_code == 200
    summary = clients[0].get(f"/api/tables/{table_id}").json()
    play_seat(server.url, table_id, cookie_of(clients[0]))
    assert summary["tournament_id"] == tournament_id and table
    session = cookie_of(clients[0])
    for client in clients:
        client.close()
    return tournament_id, table_id, session


def test_a_tournament_table_after_its_game_and_the_dealers_chip(
    new_page: MakePage, live_server: LiveServer
) -> None:
    suffix = secrets.token_hex(2)
    names = [f"{name}{suffix}" for name in ("Tess", "Uma", "Val", "Wes")]

    def registering(tournament_id: str, session: str) -> None:
        # who fills the empty places, in words that agree with each other
        page = new_page(session=session, language="ru", viewport=PHONE)
        page.goto(f"/#/tournament/{tournament_id}")
        line = page.page.locator(".tournament-actions .muted")
        line.wait_for()
        assert line.inner_text().strip() == (
            "При старте свободные места займут компьютерные игроки уровня «лёгкий»."
        )
        page.shoot("tournament-bots-phone-ru")
        assert not page.errors, page.errors

    tournament_id, table_id, session = _tournament_table(live_server, names, registering)
    for language, viewport in (("ru", PHONE), ("hu", DESKTOP), ("en", PHONE)):
        words = WORDS[language]
        size = "phone" if viewport == PHONE else "desktop"
        page = new_page(session=session, language=language, viewport=viewport)
        page.goto(f"/#/table/{table_id}")
        dialog = page.page.locator(".game-over")
        dialog.wait_for()
        # the seed stays secret until every table of the round is over, and says so
        # (the dialog learns the table's tournament from its summary, read once it opens)
        expect(dialog.locator("[data-testid=seed]")).to_have_text(
            words["round_seed"], timeout=20_000
        )
        back = dialog.locator("[data-testid=back-to-tournament]")
        expect(back).to_have_text(words["back"], timeout=20_000)
        # the tournament deals the next round: no "play again" at its table
        expect(dialog.locator("[data-testid=play-again]")).to_have_count(0)
        page.shoot(f"tournament-game-over-{size}-{language}")
        dialog.locator(".dialog-close, button[aria-label]").first.click()
        chip = page.page.locator("[data-testid=dealer]")
        assert chip.inner_text().strip() == words["dealer"]
        page.shoot(f"dealer-chip-{size}-{language}")
        page.page.locator("button.reopen-result").click()
        back.click()
        page.page.wait_for_url(f"**/#/tournament/{tournament_id}")
        page.page.locator("h1.tournament-title").wait_for()
        assert not page.errors, page.errors


I18N = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "i18n"


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in _texts(item)]
    return [value] if isinstance(value, str) else []


def test_the_words_name_no_algorithm_and_keep_the_games_words_apart() -> None:
    files = {path.stem: json.loads(path.read_text()) for path in I18N.glob("*.json")}
    assert len(files) == 6, sorted(files)
    for name, messages in files.items():
        for text in _texts(messages):
            assert not re.search(r"greedy|ismcts|mcts|\bbots?\b|бот", text, re.I), (name, text)
    hungarian = [*_texts(files["hu"]), *_texts(files["refusals.hu"])]
    rules = (I18N.parent / "rules" / "burraco.hu.html").read_text()
    assert not [text for text in [*hungarian, rules] if "kanaszt" in text.lower()]
    assert files["hu"]["burraco.dirty"] == "piszkos burraco"
    # "húz" is drawing a card: dragging takes another word
    for key, text in files["en"].items():
        if isinstance(text, str) and re.search(r"\bdrag", text, re.I):
            assert "húz" not in files["hu"][key].lower(), (key, files["hu"][key])
    # logging out is not going out, and going out does not read as leaving ("Выйти")
    russian = files["ru"]
    assert "выйти" not in russian["action.out_button"].lower()
    assert not set(russian["lobby.logout"].lower().split()) & {
        word.lower() for key in ("action.out_button", "action.out") for word in russian[key].split()
    }
