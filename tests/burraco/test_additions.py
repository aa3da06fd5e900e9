"""Every addition of several cards at once, against brute force.

``melds.additions`` lists in one search every multiset of a hand's cards that
``melds.extend`` accepts onto a meld; here every sub-multiset of small hands is asked of
``extend`` directly.  ``State.legal_additions`` is checked the same way against
``State.check(Extend(...))`` on positions of random games, where the hand's cards that
could join a meld (its suit or rank, and the wilds) are few enough to try every
sub-multiset, and on hands of two and three cards, where ending the turn decides; and
``State.addition_openers`` against the first cards of the additions so listed.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Iterator

from rummykit.cards import JOKER, RANK_OF, SUIT_OF, format_cards, parse_cards
from rummykit.games.burraco import Extend, Rules, State
from rummykit.games.burraco.melds import (
    Meld,
    additions,
    arrange,
    candidate_melds,
    extend,
    extending_cards,
    kin_cards,
)
from rummykit.games.core import MeldError
from tests.burraco.support import table_of

WILDS = (JOKER, 1, 14, 27, 40)


def sub_multisets(cards: list[int]) -> Iterator[tuple[int, ...]]:
    """Every non-empty sub-multiset of ``cards``, in code order."""
    counts = sorted(Counter(cards).items())
    for copies in itertools.product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(card for (card, _), k in zip(counts, copies, strict=True) for _ in range(k))
        if chosen:
            yield chosen


def brute_force(meld: Meld, hand: list[int]) -> list[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []
    for cards in sub_multisets(hand):
        with contextlib.suppress(MeldError):
            extend(meld, cards)
            found.append(cards)
    return sorted(found)


def table_melds(rng: random.Random, count: int) -> Iterator[Meld]:
    """Melds as tables have them: laid from random hands, then grown card by card (so
    wilds move, fill gaps, and 2s turn wild and go home)."""
    made = 0
    while made < count:
        for cards in candidate_melds(rng.sample(range(53), 12)):
            meld = arrange(cards)
            for _ in range(rng.randint(0, 5)):
                fits = sorted(extending_cards(meld, range(53)))
                if not fits:
                    break
                meld = extend(meld, [rng.choice(fits)])
            made += 1
            yield meld


def near_hand(rng: random.Random, meld: Meld) -> list[int]:
    """A few cards, most of which could join ``meld``, some two copies, one or two not."""
    kin = sorted(kin_cards(meld))
    hand = [rng.choice(kin) for _ in range(rng.randint(1, 7))]
    hand += [rng.randrange(53) for _ in range(rng.randint(0, 2))]
    return hand


def test_additions_equal_extend_on_every_sub_multiset() -> None:
    rng = random.Random(20260101)
    several = 0
    for meld in table_melds(rng, 800):
        hand = near_hand(rng, meld)
        expected = brute_force(meld, hand)
        got = additions(meld, hand)
        assert got == expected, f"{meld.describe()} + {format_cards(hand)}"
        several += sum(len(cards) > 1 for cards in got)
    assert several > 400


def test_run_additions_with_both_copies_of_wilds_and_far_cards() -> None:
    """Runs and hands with both copies of the suit's 2 and of a joker, and naturals
    beyond one or two missing places (which no addition can reach)."""
    rng = random.Random(77)
    checked = 0
    for meld in table_melds(rng, 3000):
        if meld.kind != "run" or meld.suit is None:
            continue
        suit_two = meld.suit * 13 + 1
        suited = [meld.suit * 13 + rank for rank in range(13)]
        hand = [suit_two, suit_two, JOKER, JOKER, *rng.sample(suited, rng.randint(1, 4))]
        hand = rng.sample(hand, rng.randint(2, len(hand)))
        assert additions(meld, hand) == brute_force(meld, hand), (
            f"{meld.describe()} + {format_cards(hand)}"
        )
        checked += 1
        if checked == 300:
            break
    assert checked == 300


def test_kin_cards_hold_every_card_that_ever_fits() -> None:
    rng = random.Random(5)
    for meld in table_melds(rng, 400):
        assert set(extending_cards(meld, range(53))) <= kin_cards(meld)
        naturals = [c for c in meld.cards if c != JOKER and RANK_OF[c] != 2]
        if meld.kind == "set":
            same = {c for c in range(52) if RANK_OF[c] == RANK_OF[naturals[0]]}
        else:
            same = {c for c in range(52) if SUIT_OF[c] == SUIT_OF[naturals[0]]}
        assert kin_cards(meld) == same | set(WILDS)


def test_additions_known_answers() -> None:
    def found(meld: str, hand: str) -> list[str]:
        listed = additions(arrange(parse_cards(meld)), parse_cards(hand))
        return sorted(format_cards(cards) for cards in listed)

    # Kc replaces the wild filling the gap, which then moves below Jc or above.
    assert "Jc Kc" in found("Qc 2s Ac", "Jc Kc")
    assert found("4s 5s 6s", "2c 3s") == ["2c", "2c 3s", "3s"]
    assert found("Th Th Ts", "Td Ts") == ["Td", "Td Ts", "Ts"]
    assert found("Th Th Ts Td Td Tc Tc Jk", "Ts Ts 2c") == ["Ts"]  # room for one natural
    assert found("Th Th Ts Td Td Tc Tc", "Ts Ts 2c 2d") == ["2c", "2c Ts", "2d", "2d Ts", "Ts"]
    assert found("5h 6h 7h", "3h 4h 4h") == ["3h 4h", "4h"]
    assert found("5h 6h 7h", "Kc Qd") == []
    # The wild fills 8h; with Jh two places are missing; 2h both natural and wild.
    assert found("5h 6h 7h", "9h Th 2c") == ["2c", "2c 9h", "2c 9h Th"]
    assert found("5h 6h 7h", "9h Jh 2c") == ["2c", "2c 9h"]
    assert found("5h 6h 7h", "2h 2h 3h") == ["2h", "2h 2h 3h", "2h 3h"]


def brute_force_legal(state: State) -> set[tuple[int, tuple[int, ...]]]:
    """Every ``(meld id, cards)`` that ``check`` accepts, trying every sub-multiset of
    the hand's cards that could join each of the player's melds."""
    player = state.current_player
    assert player is not None
    observation = state.observation(player)
    found: set[tuple[int, tuple[int, ...]]] = set()
    for table_meld in observation.melds:
        if table_meld.owner != player:
            continue
        kin = kin_cards(table_meld.meld)
        for cards in sub_multisets([c for c in observation.hand if c in kin]):
            if state.check(Extend(table_meld.meld_id, cards)) is None:
                found.add((table_meld.meld_id, cards))
    return found


def test_legal_additions_equal_check_in_random_games() -> None:
    rng = random.Random(11)
    positions = several = opened = 0
    for seed in range(40):
        rules = Rules(jokers=4, one_set_per_rank=False) if seed % 2 else Rules()
        state = State.new(rules, seed)
        while not state.game_over and positions < 1200:
            if state.phase == "play":
                listed = state.legal_additions()
                assert len(listed) == len(set(listed))
                assert set(listed) == brute_force_legal(state)
                alone = {cards[0] for _, cards in listed if len(cards) == 1}
                firsts = {cards[0] for _, cards in listed if len(cards) > 1}
                assert state.addition_openers() == firsts - alone
                opened += bool(firsts - alone)
                positions += 1
                several += sum(len(cards) > 1 for _, cards in listed)
            state.apply(rng.choice(list(state.legal_actions())))
    assert positions == 1200 and several > 200 and opened > 10


def test_legal_additions_with_the_end_of_the_turn_at_stake() -> None:
    """Hands of two and three cards: an addition that leaves no card, or a card that may
    not be discarded, is legal only as ``check`` says (RULES.md 1.6)."""
    checked = 0
    for hand, took, restricted in [
        ("8h 9h", (False, False), "9h"),
        ("8h 9h", (True, False), ""),
        ("8h 2c", (True, False), ""),
        ("4h 8h 9h", (True, False), "4h"),
        ("Jk 8h", (True, False), ""),
        ("8h 9h Th", (True, False), ""),
        ("8h 9h Kd", (True, False), "Kd"),
    ]:
        for burraco in (False, True):
            melds = [(0, "5h 6h 7h")]
            if burraco:
                melds.append((0, "3c 4c 5c 6c 7c 8c 9c"))
            table = table_of(
                hands=[hand, "3d 4d 5d 9d"], melds=melds, pozzetti=(not took[0], True), took=took
            )
            if restricted:
                table.restricted_card = parse_cards(restricted)[0]
                table.restricted = 1
            state = State.from_parts(
                rules=Rules(), seed=1, table=table, totals=(0, 0), hand_results=()
            )
            listed = state.legal_additions()
            assert set(listed) == brute_force_legal(state)
            alone = {cards[0] for _, cards in listed if len(cards) == 1}
            firsts = {cards[0] for _, cards in listed if len(cards) > 1}
            assert state.addition_openers() == firsts - alone
            checked += 1
    assert checked == 14
