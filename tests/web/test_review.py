"""The review at the end of a game: each decision's worth with its 95% interval, and only
the decisions the server marks as mistakes called mistakes; the others where the bot would
play another move are listed apart as no clear difference, in English, Hungarian and
Russian, on a desktop and on a phone."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Route

from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player, session_of
from tests.web.scenes import finished_game

SHORT = {"first_round": 3, "last_round": 4}


def open_review(me: Player, table_id: str) -> None:
    address = f"{me.base_url}/#/table/{table_id}"
    if me.page.url == address:
        me.page.reload()
    else:
        me.page.goto(address)
    me.page.locator("[data-testid=result-headline]").wait_for()
    me.page.click("[data-testid=start-review]")
    me.page.wait_for_selector("[data-testid=review-status][data-status=done]", timeout=60_000)


def item(decision: int, played: str, suggested: str | None, **worth: Any) -> dict[str, Any]:
    base = {
        "decision": decision,
        "state_number": 2 * decision,
        "played": played,
        "suggested": suggested,
        "value": 0.0,
        "points": 0.0,
        "error": None,
        "simulations": 0,
        "points_low": None,
        "points_high": None,
        "mistake": False,
        "threshold": 3.0,
        "reason": "",
        "reason_phrases": [],
    }
    return base | worth


def served_review(table_id: str) -> dict[str, Any]:
    """A review with one mistake, two decisions of no clear difference (the interval of
    one holds 0; the other's bot move came out worse, its interval's top rounding to a
    zero below zero) and one where the bot agreed."""
    items = [
        item(0, "draw", None),
        item(
            1,
            "discard Kh",
            "discard 9c",
            value=0.412,
            points=12.36,
            error=0.0682,
            simulations=40,
            points_low=8.35,
            points_high=16.37,
            mistake=True,
        ),
        item(
            2,
            "discard 5d",
            "discard 4s",
            value=0.05,
            points=1.5,
            error=0.1,
            simulations=24,
            points_low=-4.38,
            points_high=7.38,
        ),
        item(
            3,
            "discard 7h",
            "discard Qs",
            value=-0.03,
            points=-0.9,
            error=0.06,
            simulations=24,
            points_low=-1.76,
            points_high=-0.04,
        ),
    ]
    return {
        "table_id": table_id,
        "seat": 0,
        "status": "done",
        "done": 4,
        "total": 4,
        "items": items,
    }


def serve(me: Player, table_id: str) -> None:
    body = json.dumps(served_review(table_id))

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=body)

    me.page.route(f"**/api/tables/{table_id}/review", answer)


def test_the_review_shows_intervals_and_calls_only_marked_decisions_mistakes(
    new_page: MakePage,
) -> None:
    me = new_page()
    me.enter_lobby("Rita")
    table_id = finished_game(me, SHORT)

    # the server's own review: every listed decision is where the server put it, with
    # its interval
    open_review(me, table_id)
    review = me.page.request.get(f"{me.base_url}/api/tables/{table_id}/review").json()
    differing = [i for i in review["items"] if i["suggested"]]
    assert differing  # a random player's round: the bot would play otherwise somewhere
    for entry in differing:
        line = me.page.locator(f".review-items li[data-state-number='{entry['state_number']}']")
        assert line.get_attribute("data-verdict") == ("mistake" if entry["mistake"] else "unclear")
        if entry["points_low"] is not None:
            assert line.locator("[data-testid=review-interval]").count() == 1
    mistakes = sum(1 for i in differing if i["mistake"])
    assert me.page.locator("[data-testid=review-mistakes] li").count() == mistakes

    # a review with one decision of each kind, as the client shows it
    serve(me, table_id)
    open_review(me, table_id)
    page = me.page
    status = page.locator("[data-testid=review-status]").inner_text()
    assert status == "1 decision of 4 was a clear mistake."
    mistake = page.locator("[data-testid=review-mistakes] li")
    assert mistake.count() == 1
    assert mistake.get_attribute("data-verdict") == "mistake"
    text = mistake.inner_text()
    assert "Move 2" in text and "Mistake" in text and "12.4 penalty points saved" in text
    assert mistake.locator("[data-testid=review-interval]").inner_text() == (
        "±4 (95% interval: [8.4, 16.4])"
    )
    unclear = page.locator("[data-testid=review-unclear]")
    summary = unclear.locator("summary").inner_text()
    assert summary == "2 more decisions differed from the computer's with no clear difference"
    unclear.locator("summary").click()
    assert unclear.locator("li").count() == 2
    line = unclear.locator("li").first
    assert line.get_attribute("data-verdict") == "unclear"
    text = line.inner_text()
    assert "Move 3" in text and "No clear difference" in text
    assert "Mistake" not in text and "better play" not in text
    assert line.locator("[data-testid=review-interval]").inner_text() == (
        "±5.9 (95% interval: [-4.4, 7.4])"
    )
    # the bot's move came out worse: said the other way round, not "-0.9 penalty points
    # saved", and a bound rounded to zero is 0, not -0
    worse = unclear.locator("li").nth(1)
    assert "Move 4" in worse.inner_text() and "saved" not in worse.inner_text()
    assert worse.locator(".review-points").inner_text() == "0.9 penalty points more"
    assert worse.locator("[data-testid=review-interval]").inner_text() == (
        "±0.9 (95% interval: [-1.8, 0])"
    )
    assert "-0" not in page.locator("[data-testid=review]").inner_text().replace("-0.", "")
    assert page.locator(".review-items li").count() == 3  # not the decision the bot shared
    me.shoot("review-desktop", of=page.locator("[data-testid=review]"))
    assert not me.errors, me.errors


def test_the_review_in_hungarian_and_russian_on_a_phone(
    new_page: MakePage,
) -> None:
    first = new_page(viewport=PHONE)
    first.enter_lobby("Olga")
    table_id = finished_game(first, SHORT)
    words = {
        "hu": ("4 döntésből 1 volt egyértelmű hiba.", "Hiba", "Nincs egyértelmű különbség"),
        "ru": ("1 решение из 4 было явной ошибкой.", "Ошибка", "Нет явной разницы"),
    }
    for language, (status, mistake_word, unclear_word) in words.items():
        me = new_page(viewport=PHONE, language=language, session=session_of(first.page.context))
        serve(me, table_id)
        open_review(me, table_id)
        page = me.page
        assert page.locator("[data-testid=review-status]").inner_text() == status
        mistake = page.locator("[data-testid=review-mistakes] li")
        assert mistake_word in mistake.inner_text()
        assert "95%" in mistake.locator("[data-testid=review-interval]").inner_text()
        page.locator("[data-testid=review-unclear] summary").click()
        line = page.locator("[data-testid=review-unclear] li").first
        assert unclear_word in line.inner_text() and mistake_word not in line.inner_text()
        worse = page.locator("[data-testid=review-unclear] li").nth(1)
        more = {"hu": "0,9 büntetőponttal több", "ru": "на 0,9 штрафных очка больше"}
        assert worse.locator(".review-points").inner_text() == more[language]
        interval = worse.locator("[data-testid=review-interval]").inner_text()
        assert interval.replace("\u2212", "-").endswith("[-1,8; 0])"), interval
        # nothing wider than the phone
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        box = page.locator("[data-testid=review]").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        me.shoot(f"review-phone-{language}", of=page.locator("[data-testid=review]"))
        assert not me.errors, me.errors
