"""The text interface: prompts show only the player's view, replies are read or refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from rummykit.bots.levels import make_bot
from rummykit.cards import format_card
from rummykit.envs.text import TextTable

ROOT = Path(__file__).resolve().parents[2]


def test_prompt_lists_exactly_the_legal_moves() -> None:
    table = TextTable("burraco", seed=4)
    table.reply("draw")
    prompt = table.prompt()
    listed = [line[2:] for line in prompt.splitlines() if line.startswith("- ")]
    assert listed == table.legal_moves()
    assert any(move.startswith("discard") for move in listed)


def test_prompt_shows_no_hidden_card() -> None:
    table = TextTable("three-thirteen", seed=8, players=3)
    player = table.player
    assert player is not None
    twin = TextTable("three-thirteen", seed=8, players=3)
    twin.state.shuffle_hidden(player, 99)
    assert twin.state.locations() != table.state.locations()
    assert twin.prompt() == table.prompt()
    assert json.dumps(twin.view()) == json.dumps(table.view())
    hand = table.state.observation(player).hand
    assert all(format_card(card) in table.prompt() for card in hand)


def test_unreadable_and_illegal_replies_change_nothing() -> None:
    table = TextTable("burraco", seed=2)
    before = table.state.observation(0)
    answer = table.reply("I think I should wait and see.")
    assert not answer.accepted and answer.move is None
    assert "No move could be read" in answer.message
    answer = table.reply("discard Jk")
    assert not answer.accepted and answer.refusal is not None
    assert answer.refusal["code"] == "wrong_phase"
    assert table.state.observation(0) == before
    assert table.reply("Let me take the pile: `take`").accepted


def test_whole_game_through_text_with_a_bot() -> None:
    table = TextTable("three-thirteen", seed=5, last_round=2)
    bots = {1: make_bot("three-thirteen", "greedy")}
    rng = random.Random(0)
    moves = 0
    while table.player is not None:
        table.play_bots(bots, rng)
        if table.player == 0:
            assert table.reply(f"- {table.legal_moves()[-1]}").accepted
            moves += 1
    assert moves > 0
    assert "Won by" in table.result()
    assert not table.reply("draw").accepted


def test_example_script_plays_a_game() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "language_model_agent.py"), "--quiet"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "refused" in done.stdout  # the stand-in's bad replies were answered
    assert "The game is over" in done.stdout


def test_a_table_of_four_shows_the_teams_and_never_the_partner_hand() -> None:
    table = TextTable("burraco", seed=6, players=4)
    bots = {seat: make_bot("burraco", "greedy") for seat in range(4)}
    rng = random.Random(2)
    while table.player is not None and len(table.state.actions) < 40:
        me = table.player
        prompt = table.prompt()
        assert f"partner of player {(me + 2) % 4} (team {me % 2})" in prompt
        assert "Your team's melds" in prompt and f"Team {1 - me % 2}'s melds" in prompt
        # the same prompt for a twin whose hidden cards (the partner's among them) moved
        twin = TextTable("burraco", seed=6, players=4)
        twin.state = table.state.clone()
        twin.state.shuffle_hidden(me, len(table.state.actions))
        assert twin.prompt() == prompt
        legal = list(table.state.legal_actions())
        decision = bots[me].decide(table.state.observation(me), legal, rng)
        assert table.reply(table.info.format_action(decision.action)).accepted
