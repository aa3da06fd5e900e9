"""A whole Three-Thirteen game against a bot, played through the page with clicks and
drags, the page checked against the server at every turn; then its replay, by the player
and by someone who arrives by the replay link alone."""

from __future__ import annotations

from collections import Counter

from tests.web.checks import assert_page_matches_server, server_view
from tests.web.conftest import MakePage
from tests.web.driver import Player

RANKS = "A23456789TJQK"


def _is_wild(card: str, wild_rank: int) -> bool:
    return card == "Jk" or RANKS.index(card[0]) + 1 == wild_rank


def _draw(me: Player, turn: int, legal: list[str]) -> None:
    if turn % 4 == 3 and "take" in legal:
        me.page.click("[data-testid=discard-pile]")
    else:
        stock = me.page.locator("[data-testid=stock]")
        assert stock.is_enabled(), me.table()
        stock.click()
    state = me.wait_settled()
    assert state["view"]["phase"] == "play", state["view"]["phase"]


def _discard(me: Player, turn: int, wild_rank: int) -> str:
    hand = me.hand()
    plain = [card for card in hand if not _is_wild(card, wild_rank)] or hand
    card = plain[-1]
    if turn % 3 == 0:
        me.drag(me.card_button(card), me.page.locator("[data-testid=discard-pile]"))
    else:
        me.tap_card(card)
        me.page.click("[data-testid=discard-pile]")
    return card


def test_a_whole_three_thirteen_game_against_a_bot(new_page: MakePage) -> None:
    me = new_page()
    me.enter_lobby("Ada")
    me.play_now("three-thirteen")
    outs = 0
    rounds_seen: set[int] = set()
    for turns, state in enumerate(me.turns()):
        view = state["view"]
        playing = state
        rounds_seen.add(view["roundNumber"])
        assert me.page.locator("[data-testid=wild-rank]").inner_text() == (
            "10" if view["wildRank"] == 10 else RANKS[view["wildRank"] - 1]
        )
        if view["phase"] == "draw":
            if turns % 5 == 0:
                assert_page_matches_server(me, state)
            _draw(me, turns, state["legal"])
            playing = me.wait_settled()
        outs_now = [action for action in playing["legal"] if action.startswith("out ")]
        if outs_now:
            # the first press picks a card to go out with, the second goes out
            me.click_action("out")
            me.page.wait_for_selector(".hand-card.selected")
            me.click_action("out")
            outs += 1
            intended = set(outs_now)
        else:
            intended = {f"discard {_discard(me, turns, view['wildRank'])}"}
        settled = me.wait_settled()
        assert me.last_action_of(settled["seat"]) in intended, (turns, intended)
    assert rounds_seen == set(range(1, 12))
    record = server_view(me, state["tableId"])
    assert record["format"] == "rummykit-record"
    shown = [int(t) for t in me.page.locator("[data-testid=final-total]").all_inner_texts()]
    assert shown == record["totals"]
    me.page.wait_for_selector("[data-testid=fair-verdict]")
    assert "ok" in (me.page.get_attribute("[data-testid=fair-verdict]", "class") or "")
    assert me.page.locator("[data-testid=score-table] tbody tr[data-round]").count() == 11

    # the result closes to show the table and opens again
    me.page.click(".dialog.game-over .dialog-close")
    me.page.click(".reopen-result")
    me.page.wait_for_selector(".dialog.game-over")

    # the replay: step through the game from the deal, then every hand at once
    me.page.click("[data-testid=open-replay]")
    me.page.wait_for_selector("[data-testid=replay-step]")
    replay = me.page.request.get(f"{me.base_url}/api/tables/{state['tableId']}/replay").json()
    assert len(replay["steps"]) == len(record["actions"]) + 1
    for step in range(1, 6):
        me.close_dialogs()
        me.page.click("[data-testid=replay-next]")
        me.page.wait_for_function(
            f"() => document.querySelector('.board').dataset.stateNumber === '{step}'"
        )
        observation = replay["steps"][step]["observation"]
        assert Counter(me.wait_hand(len(observation["hand"]))) == Counter(observation["hand"])
        assert record["actions"][step - 1] == replay["steps"][step]["action"]
    # every hand at once: each opponent's cards as the server's full replay has them
    with me.page.expect_response(lambda r: "/replay?" in r.url and "full=true" in r.url) as got:
        me.page.check(".replay-controls input[type=checkbox]")
    hands = got.value.json()["steps"]
    opponent = 1 - replay["seat"]
    # an opponent who has gone out holds nothing: step on until it holds cards again
    while not hands[step]["hands"][opponent]:
        me.page.click("[data-testid=replay-next]")
        step += 1
    me.page.wait_for_function(
        """([seat, cards]) => {
          const shown = [...document.querySelectorAll(
            `.opponent[data-seat="${seat}"] .revealed-hand [data-card]`)];
          return shown.map((e) => e.dataset.card).sort().join() === cards.join();
        }""",
        arg=[opponent, sorted(hands[step]["hands"][opponent])],
    )
    assert not me.errors, me.errors

    # someone who never sat at the table opens the replay link: a nickname first, then the
    # game, where nobody is marked as them
    stranger = new_page()
    stranger.page.goto(f"{me.base_url}/#/replay/{state['tableId']}")
    stranger.sit_down("Vera")
    stranger.page.wait_for_selector("[data-testid=replay-step]")
    stranger.page.wait_for_selector(".board")
    assert "(you)" not in " ".join(stranger.page.locator(".plate-name").all_inner_texts())
    # the replay says whose turn it is and offers no move
    assert stranger.page.locator("[data-testid=prompt]").inner_text().endswith(" is playing.")
    assert stranger.page.locator(".can-act").count() == 0
    assert not stranger.errors, stranger.errors
