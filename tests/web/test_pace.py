"""Other players' moves stay on screen for the chosen pace even when the next one arrives
before the pace is up (not only when several are already waiting), and the player's own
moves are never held back."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tests.web.conftest import MakePage
from tests.web.driver import Player
from tests.web.turns import draw_and_throw_last


def _two_moves_by_the_computer(me: Player) -> list[dict[str, Any]]:
    """Two state messages in a row, each showing a move by the computer."""
    for _ in range(3):
        state = me.wait_turn_or_end()
        got = [m for m in me.received() if m["type"] == "state"]
        for first, second in pairwise(got):
            if all(
                m.get("last_action") and m["last_action"]["seat"] != m["seat"]
                for m in (first, second)
            ):
                return [first, second]
        draw_and_throw_last(me)
    raise AssertionError(f"the computer made no two moves in a row: {state}")


def test_a_move_by_the_computer_is_held_for_the_pace(new_page: MakePage) -> None:
    me = new_page()
    me.enter_lobby("Lili")
    me.play_now("burraco")
    first, second = _two_moves_by_the_computer(me)
    # the pace is a length of time: the second move comes 100 ms after the first (before
    # the slow pace of 1.6 s is up) and is looked for once that pace has passed (2 s)
    shown = me.page.evaluate(
        """async ([first, second]) => {
          const table = window.rummykitTable;
          window.rummykit.settings.set({ pace: "slow" });
          const onScreen = (m) => table.store.get().message.state_number === m.state_number;
          table.receive(first);
          const firstShown = onScreen(first);
          await new Promise((done) => setTimeout(done, 100));
          table.receive(second);
          const secondAtOnce = onScreen(second);
          await new Promise((done) => setTimeout(done, 2000));
          return [firstShown, secondAtOnce, onScreen(second)];
        }""",
        [first, second],
    )
    assert shown == [True, False, True]
    assert not me.errors, me.errors
