"""Each game's descriptor (rule options, player counts, scoring direction, point tables)
and a toy third game registered at run time: the engine's registry, the bots', the
command line's flags and the server's catalog take it without knowing it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from typer.testing import CliRunner

from rummykit.bots.levels import BotSpecError, levels_for, make_bot
from rummykit.cli.app import app
from rummykit.cli.options import rules_from_options, rules_from_values
from rummykit.cli.rule_flags import rule_params
from rummykit.games.core import GameInfo
from rummykit.games.options import option, rule_options
from rummykit.games.registry import GAMES, game_named, register_game

runner = CliRunner()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_options_are_the_rules_fields_with_their_defaults(name: str) -> None:
    game = GAMES[name]
    defaults = game.rules_type()
    fields = dataclasses.fields(game.rules_type)
    assert [o.name for o in game.options] == [f.name for f in fields]
    for each in game.options:
        assert each.default == getattr(defaults, each.name)
        assert each.help.endswith(".") and len(each.help) <= 60, each
        for choice in each.choices or ():
            assert getattr(game.rules_type(**{each.name: choice}), each.name) == choice
    assert sum(o.seats for o in game.options) <= 1


def test_what_the_descriptors_say() -> None:
    burraco, three = GAMES["burraco"], GAMES["three-thirteen"]
    assert (burraco.player_counts, burraco.lower_is_better, burraco.seats_option) == (
        (2, 4),
        False,
        "players",
    )
    assert (three.player_counts, three.lower_is_better, three.seats_option) == (
        (2, 3, 4),
        True,
        "players",
    )
    assert burraco.point_tables is not None and three.point_tables is None
    assert burraco.point_tables["card_points"]["Jk"] == 30


def test_rules_for_a_table() -> None:
    three = GAMES["three-thirteen"]
    assert three.rules_for({"ace_high": True}, seats=3).players == 3
    with pytest.raises(ValueError, match="must match the seats"):
        three.rules_for({"players": 4}, seats=3)
    with pytest.raises(ValueError, match="Burraco is for 2 or 4 players, not 3"):
        GAMES["burraco"].rules_for({}, seats=3)
    assert GAMES["burraco"].rules_for({}, seats=4).players == 4
    assert GAMES["burraco"].rules_for({}, seats=2).players == 2
    with pytest.raises(ValueError, match="must match the seats"):
        GAMES["burraco"].rules_for({"players": 4}, seats=2)
    with pytest.raises(ValueError, match="rule option 'jokers' cannot be 'two'"):
        GAMES["burraco"].rules_for({"jokers": "two"}, seats=2)


def test_a_rules_type_must_declare_plain_options() -> None:
    @dataclass(frozen=True)
    class Floating:
        speed: float = 1.0

    @dataclass(frozen=True)
    class NoDefault:
        speed: int

    with pytest.raises(TypeError, match="speed"):
        rule_options(Floating)
    with pytest.raises(TypeError, match="no default"):
        rule_options(NoDefault)


# ---------------------------------------------------------------------------------------
# A toy third game, declared here only


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyRules:
    players: int = field(default=2, metadata=option("Players: 2 or 3.", seats=True))
    decks: int = field(default=1, metadata=option("Decks shuffled together.", choices=(1, 2)))
    style: Literal["open", "closed"] = field(default="open", metadata=option("Hands shown."))
    fast: bool = field(default=False, metadata=option("Shorter rounds."))

    def __post_init__(self) -> None:
        if self.players not in (2, 3) or self.decks not in (1, 2):
            raise ValueError("a toy game has 2 or 3 players and 1 or 2 decks")


def _not_played(*args: Any) -> Any:
    raise AssertionError("the toy game is never played here")


TOY: GameInfo[ToyRules, Any, Any, Any] = GameInfo(
    name="toy-rummy",
    title="Toy Rummy",
    rules_type=ToyRules,
    new_state=_not_played,
    parse_action=_not_played,
    format_action=_not_played,
    observation_from_json=_not_played,
    determinize=_not_played,
    player_counts=(2, 3),
    lower_is_better=True,
)


@pytest.fixture
def toy() -> Iterator[GameInfo[ToyRules, Any, Any, Any]]:
    unregister = register_game(TOY.name, lambda: TOY)
    try:
        yield TOY
    finally:
        unregister()
    assert TOY.name not in GAMES


def test_a_registered_game_is_found_by_name(toy: Any) -> None:
    assert game_named("toy-rummy") is toy
    assert "toy-rummy" in GAMES and len(GAMES) == 3
    with pytest.raises(ValueError, match="already a game"):
        register_game("burraco", lambda: toy)


def test_the_command_line_builds_the_toy_games_flags(toy: Any) -> None:
    assert [p.opts[0] for p in rule_params([toy])] == ["--decks", "--style", "--fast"]
    page = runner.invoke(app, ["play", "toy-rummy", "--help"]).output
    assert "--decks N" in page and "--style STYLE" in page and "--fast / --no-fast" in page
    assert "--jokers" not in page and "--players N" in page
    rules = rules_from_values(toy, {"decks": 2, "fast": True, "style": None}, seats=3)
    assert rules == ToyRules(players=3, decks=2, fast=True)
    assert rules_from_options("toy-rummy", seats=2, mode="quick", first_round=1) == ToyRules()
    with pytest.raises(ValueError, match="--jokers is a Burraco and Three-Thirteen option"):
        rules_from_options("toy-rummy", seats=2, jokers=4)
    with pytest.raises(ValueError, match="Toy Rummy is for 2 or 3 players, not 4"):
        rules_from_values(toy, {}, seats=4)


def test_each_commands_help_shows_the_options_of_the_games_it_may_play() -> None:
    every = runner.invoke(app, ["simulate", "--help"]).output
    assert "--max-hands N" in every and "--ace-high / --no-ace-high" in every
    burraco = runner.invoke(app, ["simulate", "--game", "burraco", "--help"]).output
    assert "--max-hands N" in burraco and "--ace-high" not in burraco
    three = runner.invoke(app, ["play", "three-thirteen", "--help"]).output
    assert "--ace-high / --no-ace-high" in three and "--max-hands" not in three


def test_a_game_without_bots_has_the_random_bot_only(toy: Any) -> None:
    assert levels_for("toy-rummy") == ("random",)
    assert make_bot("toy-rummy", "random").name == "random"
    with pytest.raises(BotSpecError, match="no bots for the game 'toy-rummy'"):
        make_bot("toy-rummy", "greedy")


def test_the_servers_catalog_offers_the_toy_game(toy: Any) -> None:
    from rummykit.server.api.catalog import catalog_entries

    entry = next(e for e in catalog_entries() if e.name == "toy-rummy")
    assert (entry.title, entry.player_counts, entry.bot_levels, entry.points) == (
        "Toy Rummy",
        [2, 3],
        ["random"],
        None,
    )
    assert [(o.name, o.type, o.default, o.choices) for o in entry.options] == [
        ("decks", "int", 1, [1, 2]),
        ("style", "choice", "open", ["open", "closed"]),
        ("fast", "bool", False, None),
    ]
    burraco = next(e for e in catalog_entries() if e.name == "burraco")
    assert burraco.bot_levels == ["random", "easy", "greedy", "ismcts", "expert"]
    assert burraco.points is not None and burraco.points["card_points"]["A"] == 15
