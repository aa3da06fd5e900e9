"""The rules page (``#/rules/<game>``): going from one game's rules to the other's shows
the other's, or "loading" while they come, and never the rules of the game left behind."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.web.conftest import MakePage

# Set once a render shows the Three-Thirteen tab as the current one beside a rules body:
# while the test holds back Three-Thirteen's page, any body there is Burraco's.
WATCH_STALE_RULES = """() => {
  window.__staleRules = false;
  new MutationObserver(() => {
    const current = document.querySelector(".rules-nav a[aria-current=page]");
    const onThreeThirteen = current && current.getAttribute("href") === "#/rules/three-thirteen";
    if (onThreeThirteen && document.querySelector(".rules-body")) window.__staleRules = true;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def test_the_rules_of_the_game_left_never_show_under_the_next_games_name(
    new_page: MakePage,
) -> None:
    reader = new_page()
    page = reader.page
    reader.goto("/#/rules/burraco")
    expect(page.locator(".rules-body").locator("h1, h2").first).to_be_visible()
    held: list[Route] = []

    def hold(route: Route) -> None:  # let through by the test, later
        held.append(route)

    page.route("**/rules/three-thirteen.*.html", hold)
    page.evaluate(WATCH_STALE_RULES)
    with page.expect_request("**/rules/three-thirteen.*.html"):
        page.click(".rules-nav a[href='#/rules/three-thirteen']")
    expect(page.locator(".rules-nav a[aria-current=page]")).to_have_attribute(
        "href", "#/rules/three-thirteen"
    )
    expect(page.locator(".rules-page .muted")).to_be_visible()  # "loading", while held
    assert page.evaluate("window.__staleRules") is False, "Burraco's rules under Three-Thirteen"
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator(".rules-body").locator("h1, h2").first).to_be_visible()
    assert page.evaluate("window.__staleRules") is True  # the watch sees the body once it is there
