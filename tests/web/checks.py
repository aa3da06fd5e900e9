"""Comparisons between what a page shows and what the server holds."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.web.driver import Player


def server_view(player: Player, table_id: str, token: str | None = None) -> dict[str, Any]:
    """``GET /api/tables/{id}/record`` with the page's own session: the seat's view while
    the game runs, the full record once it is over."""
    query = f"?token={token}" if token else ""
    response = player.page.request.get(f"{player.base_url}/api/tables/{table_id}/record{query}")
    assert response.ok, response.text()
    data: dict[str, Any] = response.json()
    return data


def assert_page_matches_server(player: Player, state: dict[str, Any]) -> None:
    """The page, settled on the player's turn, shows the server's view of the table."""
    record = server_view(player, state["tableId"])
    observation = record["observation"]
    assert record["state_number"] == state["stateNumber"]
    assert Counter(player.hand()) == Counter(observation["hand"])
    assert state["view"]["discardPile"] == observation["discard_pile"]
    assert state["view"]["stockCount"] == observation["stock_count"]
    assert state["view"]["totals"] == observation["totals"]
    stock_text = player.page.locator("[data-testid=stock] .stack-count").inner_text()
    assert int(stock_text) == observation["stock_count"]
    pile = player.page.eval_on_selector_all(
        "[data-testid=discard-pile] .pile-card", "els => els.map(e => e.dataset.card)"
    )
    shown_pile = observation["discard_pile"][-len(pile) :] if pile else []
    assert pile == shown_pile, (pile, observation["discard_pile"])


def visible_to(observation: dict[str, Any]) -> Counter[str]:
    """The cards an observation lets its player see right now, as a multiset of faces."""
    seen: Counter[str] = Counter(observation.get("hand") or [])
    seen.update(observation.get("discard_pile") or [])
    for meld in observation.get("table_melds") or observation.get("melds") or []:
        seen.update(meld.get("cards") or meld.get("meld", {}).get("cards") or [])
    for cards in observation.get("taken_cards") or observation.get("known_cards") or []:
        seen.update(cards or [])
    return seen
