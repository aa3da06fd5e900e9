"""Two people at one private table: one creates it in the page, the other opens its
invitation link; they play turns against each other, one reloads in the middle, and a
watcher follows.  Neither player's page, nor the watcher's, ever holds a card hidden
from its viewer: not on the screen, not in the page's memory, not in what came over the
socket."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from tests.web.checks import server_view
from tests.web.conftest import PHONE, MakePage
from tests.web.driver import Player, whose_turn
from tests.web.turns import RANKS, create_private_table, play_one_turn


def _play_one_turn_by_keys(player: Player) -> None:
    """The same turn with the keyboard: D draws, arrows move and pick, X discards (keys
    typed in the chat field stay there, so the field gives up the focus first)."""
    player.page.evaluate("document.activeElement && document.activeElement.blur()")
    player.page.keyboard.press("d")
    state = player.wait_settled()
    assert state["view"]["phase"] == "play"
    wild = state["view"]["wildRank"]
    hand = player.hand()
    index = max(i for i, c in enumerate(hand) if RANKS.index(c[0]) + 1 != wild or i == 0)
    player.page.locator(".hand .hand-card").first.focus()
    for _ in range(index):
        player.page.keyboard.press("ArrowRight")
    player.page.keyboard.press("ArrowUp")
    assert player.page.locator(".hand .hand-card.selected").count() == 1
    player.page.keyboard.press("x")
    state = player.wait_settled()
    assert state["view"]["currentPlayer"] != state["seat"]


def _chat(alice: Player, bob: Player) -> None:
    """Alice says something at the table; Bob reads it in his side panel, which Escape
    closes, handing the focus back to the button that opened it."""
    alice.page.click(".side-tabs [data-tab=chat]")
    alice.page.fill(".chat-form input", "Jó játékot!")
    alice.page.keyboard.press("Enter")
    bob.page.click(".panel-toggle")
    bob.page.click(".side-tabs [data-tab=chat]")
    bob.page.wait_for_selector(".chat-lines li:has-text('Jó játékot!')")
    bob.page.keyboard.press("Escape")
    bob.page.wait_for_selector(".side-panel:not(.open)", state="attached")
    assert bob.page.evaluate("document.activeElement.classList.contains('panel-toggle')")


def _reconnect(bob: Player, table_id: str) -> None:
    """The socket drops; the page connects again by itself and shows the table as the
    server has it, without reloading."""
    bob.page.evaluate("window.notReloaded = true; window.rummykitTable.connection.socket.close()")
    bob.page.wait_for_function("() => window.rummykitTable.store.get().status === 'reconnecting'")
    bob.page.wait_for_function("() => window.rummykitTable.store.get().status === 'open'")
    state = bob.wait_settled()
    assert bob.page.evaluate("window.notReloaded === true")
    observation = server_view(bob, table_id)["observation"]
    assert state["stateNumber"] == server_view(bob, table_id)["state_number"]
    assert Counter(bob.hand()) == Counter(observation["hand"])


def _hidden_from(viewer: dict[str, Any], hands: dict[int, list[str]]) -> set[str]:
    """Cards of other seats' hands that ``viewer``'s observation does not show them."""
    hidden: set[str] = set()
    for seat, hand in hands.items():
        if seat == viewer.get("player"):
            continue
        known = Counter(viewer["known_cards"][seat])
        hidden |= set((Counter(hand) - known).elements())
    return hidden


def _without_wild_names(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` without the cards the wilds of the player's own melds stand for
    (``arrangement.melds[].stands_for``): a rank and suit a wild plays as, worked out
    from the player's own hand, which names no card anyone holds."""
    arrangement = message.get("arrangement")
    if not isinstance(arrangement, dict):
        return message
    melds = [
        {key: value for key, value in meld.items() if key != "stands_for"}
        for meld in arrangement.get("melds", [])
    ]
    return {**message, "arrangement": {**arrangement, "melds": melds}}


def _assert_holds_none(player: Player, hidden: set[str], round_number: int) -> None:
    """``hidden`` appears nowhere in the page: not drawn, not in the messages of this
    round kept by the page, not in the socket frames of this round."""
    assert hidden
    assert not hidden & set(player.shown_cards())
    page_text = player.page.content()
    for card in hidden:
        assert f'data-card="{card}"' not in page_text
    messages = [
        m
        for m in player.received()
        if m.get("type") != "state" or m["observation"].get("round_number") == round_number
    ]
    frames = [
        json.loads(frame)
        for frame in player.frames
        if '"type":"state"' not in frame.replace(" ", "")
        or json.loads(frame)["observation"].get("round_number") == round_number
    ]
    for source in (messages, frames):
        for message in source:
            text = json.dumps(_without_wild_names(message))
            for card in hidden:
                assert f'"{card}"' not in text, (card, message)


def test_two_players_share_a_private_table_and_a_watcher_sees_no_hidden_card(
    new_page: MakePage,
) -> None:
    alice = new_page()
    link = create_private_table(alice)
    table_id = alice.table()["tableId"]
    token = link.split("token=")[1]

    bob = new_page(viewport=PHONE, language="hu")
    bob.page.goto(link)
    bob.sit_down("Bob")
    bob.wait_table()
    alice.page.wait_for_selector("[data-testid=invite-link]", state="detached")
    _chat(alice, bob)

    for turn in range(8):
        if turn == 3:
            before = alice.hand()
            alice.page.reload()
            alice.wait_table()
            state = alice.wait_settled()
            assert Counter(alice.hand()) == Counter(before)
            assert Counter(state["view"]["hand"]) == Counter(
                server_view(alice, table_id)["observation"]["hand"]
            )
        if turn == 5:
            _reconnect(bob, table_id)
        player = whose_turn(alice, bob)
        if player is alice and turn % 2 == 0:
            _play_one_turn_by_keys(player)
        else:
            play_one_turn(player)

    carol = new_page()
    carol.page.goto(link + "&watch=1")
    carol.wait_table()  # a watcher is given a guest name, never asked to sit down
    watched = carol.wait_settled()
    assert watched["seat"] is None
    assert carol.page.locator(".hand-card").count() == 0

    play_one_turn(whose_turn(alice, bob))
    carol.wait_settled()

    views = {
        player.table()["seat"]: server_view(player, table_id)["observation"]
        for player in (alice, bob)
    }
    hands = {seat: view["hand"] for seat, view in views.items()}
    round_number = views[0]["round_number"]
    assert not views[0]["reshuffled"]
    for player in (alice, bob):
        seat = player.table()["seat"]
        _assert_holds_none(player, _hidden_from(views[seat], hands), round_number)
    public = server_view(carol, table_id, token)["observation"]
    assert public["hand"] is None
    _assert_holds_none(carol, _hidden_from(public, hands), round_number)
    for player in (alice, bob, carol):
        assert not player.errors, player.errors
