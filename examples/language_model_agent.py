"""A game played through the text interface, with a scripted stand-in for the model.

The "model" receives each prompt (the table as its seat sees it and the legal moves)
and answers in text.  The stand-in is deliberately imperfect so that the interface's
answers show: on its first try of some turns it chats instead of naming a move, or
names a move the rules refuse; the table replies with the reason and it tries again.
A real agent would send ``table.prompt()`` (or ``json.dumps(table.view())``) to a
language model and pass its answer to ``table.reply``.

    python examples/language_model_agent.py [--game three-thirteen|burraco] [--seed N]
"""

from __future__ import annotations

import argparse
import random

from rummykit.bots.levels import make_bot
from rummykit.envs.text import TextTable


class ScriptedModel:
    """Answers prompts like a sloppy player: picks a listed legal move, preferring to go
    out, then to meld, then to add to a meld; sometimes chats or tries an illegal move
    first."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, prompt: str, attempt: int) -> str:
        moves = [line[2:] for line in prompt.splitlines() if line.startswith("- ")]
        if attempt == 0:
            roll = self.rng.random()
            if roll < 0.1:
                return "Hmm, let me think about which card I need most... the queen, maybe?"
            if roll < 0.2:
                return "discard Jk"  # very likely not held: the table refuses it
        for prefix in ("out", "meld", "extend"):
            preferred = [move for move in moves if move.startswith(prefix)]
            if preferred:
                return f"I will play `{max(preferred, key=len)}`"
        return self.rng.choice(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="three-thirteen", choices=["three-thirteen", "burraco"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--quiet", action="store_true", help="print only retries and the result")
    options = parser.parse_args()
    options_for_game = {"last_round": 3} if options.game == "three-thirteen" else {}
    table = TextTable(options.game, seed=options.seed, **options_for_game)
    model = ScriptedModel(options.seed)
    model_seat = 0
    bots = {1: make_bot(options.game, options.opponent)}
    rng = random.Random(options.seed)
    turns = retries = 0
    while table.player is not None:
        for line in table.play_bots(bots, rng):
            if not options.quiet:
                print(line)
        if table.player != model_seat:
            continue
        prompt = table.prompt()
        if not options.quiet and turns < 2:
            print("---- prompt ----\n" + prompt + "\n----------------")
        for attempt in range(5):
            answer = table.reply(model(prompt, attempt))
            if answer.accepted:
                if not options.quiet:
                    print(f"model: {answer.move}")
                break
            retries += 1
            print(f"model's reply refused: {answer.message}")
        else:
            raise SystemExit("the model gave no legal move in five tries")
        turns += 1
    print(f"The game is over after {turns} moves by the model ({retries} replies refused).")
    print(table.result())


if __name__ == "__main__":
    main()
