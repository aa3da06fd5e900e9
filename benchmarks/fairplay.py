"""Benchmark: how often the fair-play assessment reports honest and assisted accounts.

Synthetic populations play on fresh deals.  Each account plays ``--games`` games against
accounts drawn from the whole population, and each game is assessed for both seats
(:mod:`rummykit.fairplay.seat`), then each account's games are pooled
(:mod:`rummykit.fairplay.account`).

- Honest accounts, in equal numbers of each kind: ``random``; ``easy``; ``greedy``;
  ``noisy`` (greedy with 15% random moves); ``strong`` (the search bot at a small budget,
  ``--strong-iterations``, standing in for strong players).
- Assisted accounts play the search bot's move (``--helper-iterations``, its own seed,
  as a second window would) on a share of their decisions (100%, 50%, 25%) and play as
  one of the honest kinds otherwise (``noisy`` or ``strong``, alternately).

With ``--partners`` it plays Burraco for four instead: in each game one team is a
pair of ``strong`` players of whom one sees the other's hand (a search whose deals all
give the partner the cards the partner holds), the other team two honest ``strong``
players.  ``--assisted`` accounts of each kind of seat (the one who sees, the one
seen, an honest opponent) play ``--games`` games each; it prints the partner figures of
each kind (:func:`rummykit.fairplay.decisions.partner_figures`), the games' verdicts and
the accounts reported.

The assessment searches ``--iterations`` per decision (the site's setting is larger).
Deals come from ``--seed``; the assessment's rates (``HONEST_RATES``, ``ASSISTED_RATES``)
were chosen on other deals (seed 1), so a run with the default seed 1000 measures them
on deals they were not fitted to.

    PYTHONPATH=src python benchmarks/fairplay.py --game burraco [--honest 100] \\
        [--assisted 30] [--games 20] [--workers 2]

It prints, per kind, the accounts reported and the games by verdict, and the
false-positive rate among honest accounts with its 95% (Wilson) interval.  A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rummykit.bots.base import Bot
from rummykit.bots.by_game import bots_for
from rummykit.bots.easy import EasyBot
from rummykit.bots.levels import make_bot, make_ismcts
from rummykit.fairplay.account import assess_account
from rummykit.fairplay.seat import SeatAssessment, assess_seat
from rummykit.games.record import record_of
from rummykit.games.registry import game_named

HONEST_KINDS = ("random", "easy", "greedy", "noisy", "strong")
ASSISTED_SHARES = (1.0, 0.5, 0.25)
NOISE = 0.15


@dataclass(frozen=True)
class Account:
    name: str
    kind: str  # an honest kind, or "assisted-<share>"
    base: str  # the honest kind it plays as when not helped
    share: float  # the share of decisions it takes from the search


class Player:
    """An account at the table: its own bot, and the helper on its share of decisions."""

    def __init__(self, game: str, account: Account, strong: int, helper: int) -> None:
        self.account = account
        self.bot = _honest_bot(game, account.base, strong)
        self.helper = make_ismcts(game, iterations=helper) if account.share else None

    def decide(self, observation: Any, legal: list[Any], rng: random.Random) -> Any:
        if self.helper is not None and len(legal) > 1 and rng.random() < self.account.share:
            return self.helper.decide(observation, legal, rng).action
        return self.bot.decide(observation, legal, rng).action


def _honest_bot(game: str, kind: str, strong: int) -> Bot:
    if kind == "noisy":
        bots = bots_for(game)
        return EasyBot(bots.greedy(), NOISE, moves=bots.moves_with_progress)
    if kind == "strong":
        return make_ismcts(game, iterations=strong)
    return make_bot(game, kind)


def _rules(game: str) -> Any:
    info = game_named(game)
    if game == "three-thirteen":  # rounds 3 to 6: four rounds a game
        return info.rules_type(first_round=3, last_round=6)
    return info.rules_type()


def play_and_assess(task: dict[str, Any]) -> list[dict[str, Any]]:
    """One game between two accounts, played and assessed for both seats."""
    game = task["game"]
    info = game_named(game)
    rng = random.Random(task["seed"])
    accounts = [Account(**data) for data in task["accounts"]]
    players = [Player(game, a, task["strong"], task["helper"]) for a in accounts]
    state = info.new_state(_rules(game), task["seed"])
    while state.current_player is not None:
        seat = state.current_player
        legal = list(state.legal_actions())
        state.apply(players[seat].decide(state.observation(seat), legal, rng))
    record = record_of(info, state, players=[a.name for a in accounts])
    results = []
    for seat in range(2):
        assessed = assess_seat(record, seat, iterations=task["iterations"])
        results.append(
            {
                "account": accounts[seat].name,
                "assessment": assessed.to_json(),
                "decisions": [
                    [f.real, f.matched, f.telling, round(f.loss, 1), f.choices]
                    for f in assessed.figures
                ],
            }
        )
    return results


def play_partners(task: dict[str, Any]) -> list[dict[str, Any]]:
    """One game for four: seat 0 sees seat 2's hand; everyone else plays honestly."""
    game = "burraco"
    info = game_named(game)
    rng = random.Random(task["seed"])
    honest = [make_ismcts(game, iterations=task["strong"]) for _ in range(4)]
    state = info.new_state(info.rules_type(players=4), task["seed"])
    while state.current_player is not None:
        seat = state.current_player
        legal = list(state.legal_actions())
        seen = state.observation(seat)
        if seat == 0 and len(legal) > 1:
            held = tuple(state.hand_of(2))
            known = tuple(held if s == 2 else c for s, c in enumerate(seen.known_cards))
            seen = dataclasses.replace(seen, known_cards=known)
        state.apply(honest[seat].decide(seen, legal, rng).action)
    record = record_of(info, state, players=["sees-partner", "honest", "seen", "honest"])
    return [
        {
            "account": kind,
            "assessment": assess_seat(record, seat, iterations=task["iterations"]).to_json(),
        }
        for seat, kind in ((0, "sees-partner"), (1, "honest"), (2, "seen"))
    ]


PARTNER_KINDS = ("sees-partner", "seen", "honest")
"""The seats of a partners' game assessed: seat 0 (sees seat 2's hand), seat 2, seat 1."""


def partners(options: argparse.Namespace) -> None:
    """``--assisted`` accounts of each kind of :data:`PARTNER_KINDS`, ``--games`` games
    each: game ``n`` seats account ``n // games`` of every kind."""
    tasks = [
        {"seed": options.seed * 1_000_003 + number, "iterations": options.iterations,
         "strong": options.strong_iterations}
        for number in range(options.assisted * options.games)
    ]  # fmt: skip
    started = time.perf_counter()
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    gains: dict[str, list[float]] = defaultdict(list)
    games: dict[tuple[str, int], list[SeatAssessment]] = defaultdict(list)
    with ProcessPoolExecutor(options.workers) as pool:
        for number, results in enumerate(pool.map(play_partners, tasks, chunksize=1)):
            for result in results:
                kind, data = result["account"], result["assessment"]
                totals[kind]["telling"] += data["partner_telling"]
                totals[kind]["matched"] += data["partner_matched"]
                totals[kind][data["verdict"]] += 1
                gains[kind].append(data["partner_gain"])
                games[kind, number // options.games].append(SeatAssessment.from_json(data))
    elapsed = time.perf_counter() - started
    print(
        f"burraco for four: {options.assisted} accounts of each kind, {options.games} games"
        f" each ({len(tasks)} games), assessment {options.iterations} iterations a decision,"
        f" players strong {options.strong_iterations}; seed {options.seed};"
        f" {elapsed / 60:.1f} min on {options.workers} workers"
    )
    for kind in PARTNER_KINDS:
        counts = totals[kind]
        rate = counts["matched"] / counts["telling"] if counts["telling"] else 0.0
        mean = sum(gains[kind]) / len(gains[kind]) if gains[kind] else 0.0
        pooled = [assess_account(f"{kind}-{n}", games[kind, n]) for n in range(options.assisted)]
        evidence = sorted(round(account.partner_evidence or 0.0, 1) for account in pooled)
        verdicts = " ".join(f"{v}={counts[v]}" for v in ("unclear", "suspicious", "very_likely"))
        print(
            f"{kind:<13} partner's move played on {rate:.2f} of {counts['telling']} decisions"
            f" it changes; mean gain {mean:+.2f} points a decision; games {verdicts};"
            f" accounts reported {sum(a.reported for a in pooled)} of {len(pooled)};"
            f" pooled partner evidence {evidence}"
        )


def population(honest: int, assisted: int) -> list[Account]:
    accounts = [
        Account(f"{kind}-{n}", kind, kind, 0.0)
        for n in range(honest // len(HONEST_KINDS))
        for kind in HONEST_KINDS
    ]
    for share in ASSISTED_SHARES:
        for n in range(assisted):
            base = ("noisy", "strong")[n % 2]
            kind = f"assisted-{int(share * 100)}"
            accounts.append(Account(f"{kind}-{n}", kind, base, share))
    return accounts


def schedule(accounts: list[Account], games: int, seed: int) -> list[tuple[int, int]]:
    """Pairs of accounts, each account in ``games`` games (two seats a game)."""
    rng = random.Random(seed)
    seats = [index for index in range(len(accounts)) for _ in range(games)]
    while True:
        rng.shuffle(seats)
        pairs = list(zip(seats[::2], seats[1::2], strict=True))
        if all(a != b for a, b in pairs):
            return pairs


def wilson(hits: int, count: int) -> tuple[float, float]:
    if not count:
        return (0.0, 1.0)
    z = 1.96
    p = hits / count
    centre = (p + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="burraco", choices=("burraco", "three-thirteen"))
    parser.add_argument("--honest", type=int, default=100)
    parser.add_argument("--assisted", type=int, default=30, help="accounts per share")
    parser.add_argument("--games", type=int, default=20, help="games per account")
    parser.add_argument("--iterations", type=int, default=200, help="assessment budget")
    parser.add_argument("--helper-iterations", type=int, default=400)
    parser.add_argument("--strong-iterations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print every game's figures")
    parser.add_argument("--partners", action="store_true", help="Burraco for four, partners")
    options = parser.parse_args()
    if options.partners:
        partners(options)
        return
    accounts = population(options.honest, options.assisted)
    pairs = schedule(accounts, options.games, options.seed)
    tasks = [
        {
            "game": options.game,
            "seed": options.seed * 1_000_003 + number,
            "accounts": [vars(accounts[a]) for a in pair],
            "iterations": options.iterations,
            "helper": options.helper_iterations,
            "strong": options.strong_iterations,
        }
        for number, pair in enumerate(pairs)
    ]
    started = time.perf_counter()
    games: dict[str, list[SeatAssessment]] = defaultdict(list)
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(options.workers) as pool:
        for results in pool.map(play_and_assess, tasks, chunksize=1):
            for result in results:
                rows.append(result)
                games[result["account"]].append(SeatAssessment.from_json(result["assessment"]))
    elapsed = time.perf_counter() - started
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for account in accounts:
        verdict = assess_account(account.name, games[account.name])
        counts = by_kind[account.kind]
        counts["accounts"] += 1
        counts["reported"] += verdict.reported
        for game in games[account.name]:
            counts[game.verdict] += 1
            counts["telling"] += game.telling
            counts["telling_matched"] += game.telling_matched
    if options.json:
        print(json.dumps(rows))
    print(
        f"{options.game}: {len(accounts)} accounts, {options.games} games each,"
        f" {len(tasks)} games, assessment {options.iterations} iterations a decision,"
        f" helper {options.helper_iterations}, strong {options.strong_iterations};"
        f" seed {options.seed}; {elapsed / 60:.1f} min on {options.workers} workers"
    )
    print(f"{'kind':<14}{'accounts':>9}{'reported':>9}  games by verdict  telling matched")
    for kind, counts in by_kind.items():
        verdicts = " ".join(f"{v}={counts[v]}" for v in ("unclear", "suspicious", "very_likely"))
        rate = counts["telling_matched"] / counts["telling"] if counts["telling"] else 0.0
        print(
            f"{kind:<14}{counts['accounts']:>9}{counts['reported']:>9}  {verdicts}"
            f"  {rate:.2f} of {counts['telling']}"
        )
    honest = [by_kind[kind] for kind in HONEST_KINDS]
    false = sum(c["reported"] for c in honest)
    total = sum(c["accounts"] for c in honest)
    low, high = wilson(false, total)
    print(
        f"honest accounts reported: {false} of {total}"
        f" (95% interval {low * 100:.1f}% to {high * 100:.1f}%)"
    )


if __name__ == "__main__":
    main()
