"""Long Burraco melds on a phone (360 by 780 and 390 by 844), at the table for two and for
four: a burraco of seven cards or more among several melds of each side, no two melds'
boxes overlap, and each burraco's label is whole (its text fits its box, and the box lies
inside its meld).

The player's seat is played to such a position by the greedy bot's choice over a
WebSocket of its own, which stops at the player's turn; the page then opens the table.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import ViewportSize
from websockets.sync.client import connect

from rummykit.server.bots.service import decide
from tests.web.conftest import MakePage
from tests.web.driver import SESSION_COOKIE, Socket, session_of
from tests.web.layout import once_empty

PHONES: dict[str, ViewportSize] = {
    "360": {"width": 360, "height": 780},
    "390": {"width": 390, "height": 844},
}
LONGEST = 7  # a burraco
MELDS_A_SIDE = 3


def _long_melds(observation: dict[str, Any]) -> bool:
    """A burraco on the table, and several melds for each side."""
    melds = observation.get("melds") or []
    sides: dict[int, int] = {}
    for meld in melds:
        sides[meld["owner"]] = sides.get(meld["owner"], 0) + 1
    longest = max((len(meld["cards"]) for meld in melds), default=0)
    return longest >= LONGEST and len(sides) == 2 and min(sides.values()) >= MELDS_A_SIDE


def _play_to_long_melds(base_url: str, table_id: str, cookie: str) -> dict[str, Any]:
    """Play the seat of ``cookie`` by the greedy bot's choice until, at its turn, the
    table holds long melds (see :func:`_long_melds`); that turn's observation, unplayed."""
    address = base_url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    headers = {"Cookie": f"{SESSION_COOKIE}={cookie}", "Origin": base_url}
    with connect(address, additional_headers=headers, open_timeout=20) as connection:
        socket = Socket(connection)
        acted = -1
        while True:
            message: dict[str, Any] = socket.receive_json()
            assert message["type"] not in ("game_over", "error"), message
            if message["type"] != "state" or not message["legal_actions"]:
                continue
            number = message["state_number"]
            if number == acted:
                continue
            observation: dict[str, Any] = message["observation"]
            if _long_melds(observation):
                return observation
            acted = number
            action, _ = decide(
                message["game"], "greedy", observation, message["legal_actions"], number
            )
            socket.send_json({"type": "action", "state_number": number, "action": action})


# what is wrong with the melds on the page: two meld boxes that overlap, a burraco label
# whose text does not fit its box or whose box leaves its meld's
_MELDS_WRONG = """() => {
  const bad = [];
  const melds = [...document.querySelectorAll('.melds .meld')];
  const boxes = melds.map((m) => m.getBoundingClientRect());
  for (let i = 0; i < melds.length; i += 1) {
    for (let j = i + 1; j < melds.length; j += 1) {
      const a = boxes[i], b = boxes[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5)
        bad.push(`melds ${melds[i].dataset.meld} and ${melds[j].dataset.meld} overlap`);
    }
  }
  for (const label of document.querySelectorAll('.melds .burraco-badge')) {
    const meld = label.closest('.meld');
    const r = label.getBoundingClientRect(), m = meld.getBoundingClientRect();
    const name = `label "${label.textContent}" of meld ${meld.dataset.meld}`;
    if (label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1)
      bad.push(`${name} cut`);
    if (r.left < m.left - 0.5 || r.right > m.right + 0.5 || r.top < m.top - 0.5)
      bad.push(`${name} leaves its meld`);
    const area = label.closest('.melds').getBoundingClientRect();
    if (r.left < area.left - 0.5 || r.right > area.right + 0.5 || r.top < area.top - 0.5)
      bad.push(`${name} leaves the meld area`);
  }
  return bad;
}"""


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("phone", list(PHONES))
@pytest.mark.parametrize("language", ["en", "hu", "ru"])
def test_long_burraco_melds_on_a_phone(
    new_page: MakePage, players: int, phone: str, language: str
) -> None:
    me = new_page(viewport=PHONES[phone], language=language, touch=True)
    me.enter_lobby("Dóra")
    bot = {"kind": "bot", "level": "greedy"}
    # played to a target, so that hands follow one another until one has such melds
    rules: dict[str, Any] = {"mode": "target", **({"players": 4} if players == 4 else {})}
    table_id = me.create_table(
        {"game": "burraco", "rules": rules, "seats": [{"kind": "human"}] + [bot] * (players - 1)}
    )
    observation = _play_to_long_melds(me.base_url, table_id, session_of(me.page.context))
    me.goto(f"/#/table/{table_id}")
    me.wait_table()
    me.wait_turn_or_end()
    me.close_dialogs()
    shown = me.page.locator(".melds .meld").count()
    assert shown == len(observation["melds"]), (shown, observation["melds"])
    assert me.page.locator(".melds .burraco-badge").count() >= 1
    name = f"long-melds-{players}-{phone}-{language}"
    me.shoot(name)
    bad: list[str] = once_empty(me, _MELDS_WRONG)
    assert bad == [], (name, bad)
    assert not me.errors, me.errors
