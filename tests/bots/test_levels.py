"""Bot specs: every option a finite positive number, given once; a bad spec is a
BotSpecError (never another exception), whatever the text."""

from __future__ import annotations

import pytest

from rummykit.bots.ismcts import ISMCTSBot
from rummykit.bots.levels import BotSpecError, make_bot, make_ismcts, parse_spec
from rummykit.games import burraco, three_thirteen


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:seconds=nan",
        "ismcts:seconds=NaN",
        "ismcts:iterations=nan",
        "ismcts:seconds=inf",
        "ismcts:iterations=inf",
        "ismcts:iterations=-inf",
        "ismcts:seconds=1e400",
        "ismcts:seconds=-1",
        "ismcts:seconds=0",
        "ismcts:iterations=0",
        "ismcts:iterations=2.5",
        "ismcts:seconds=",
        "ismcts:seconds=abc",
        "ismcts:=3",
        "ismcts:seconds",
        "ismcts:seconds=1:seconds=20",
        "ismcts:depth=3",
        "greedy:seconds=1",
        "random:iterations=4",
        "grandmaster",
        "",
    ],
)
@pytest.mark.parametrize("game", ["burraco", "three-thirteen"])
def test_a_bad_spec_is_a_spec_error(game: str, spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(game, spec)


def test_good_specs() -> None:
    assert parse_spec(" ismcts:iterations=400:seconds=0.5 ") == (
        "ismcts",
        {"iterations": 400.0, "seconds": 0.5},
    )
    bot = make_bot("burraco", "ismcts:iterations=1e3")
    assert isinstance(bot, ISMCTSBot) and bot.iterations == 1000 and bot.seconds is None
    bot = make_bot("three-thirteen", "ismcts: seconds = 2 ")
    assert isinstance(bot, ISMCTSBot) and bot.seconds == 2.0
    assert make_bot("burraco", "greedy").name == "greedy"


def test_make_ismcts() -> None:
    bot = make_ismcts("three-thirteen", iterations=9)
    assert bot.name == "ismcts" and bot.iterations == 9 and bot.game is three_thirteen.GAME
    bot = make_ismcts("burraco", seconds=0.2)
    assert bot.seconds == 0.2 and bot.game is burraco.GAME
    with pytest.raises(ValueError, match="no bots for the game 'chess'"):
        make_ismcts("chess")
