"""Three-Thirteen rummy for 2 to 4 players (RULES.md section 2): the rules, pure.

Eleven rounds; round ``r`` deals ``r + 2`` cards and its wild rank is ``r + 2``.  A turn
draws (``DrawStock`` or ``TakeDiscard``) then discards (``Discard``) or goes out
(``GoOut``); after someone goes out every other player has one last turn.  Each round
scores the least deadwood of every hand (:mod:`.arrange`); the lowest total wins.

>>> state = State.new(Rules(players=3), seed=42)
>>> state.apply(parse_action("draw"))[0].player == state.current_player
True

Modules: ``rules`` (options), ``actions``, ``events``, ``state`` (legality and turn
flow), ``dealing``, ``scoring``, ``observation``, ``determinize``, ``notation``,
``arrange`` (the deadwood optimiser).  Nothing here does I/O, reads a clock, uses the
global ``random`` module or imports a third-party package.
"""

from __future__ import annotations

from typing import Final

from rummykit.games.core import GameInfo
from rummykit.games.three_thirteen.actions import Action, Discard, DrawStock, GoOut, TakeDiscard
from rummykit.games.three_thirteen.determinize import determinize
from rummykit.games.three_thirteen.events import Event
from rummykit.games.three_thirteen.notation import format_action, parse_action
from rummykit.games.three_thirteen.observation import Observation
from rummykit.games.three_thirteen.own_arrangement import own_arrangement
from rummykit.games.three_thirteen.rules import Rules
from rummykit.games.three_thirteen.scoring import PlayerRoundResult, RoundResult
from rummykit.games.three_thirteen.state import State
from rummykit.games.three_thirteen.table import PileMove, TableMeld

GAME: Final[GameInfo[Rules, State, Action, Observation]] = GameInfo(
    name="three-thirteen",
    title="Three-Thirteen",
    rules_type=Rules,
    new_state=State.new,
    parse_action=parse_action,
    format_action=format_action,
    observation_from_json=Observation.from_json,
    determinize=determinize,
    player_counts=(2, 3, 4),
    lower_is_better=True,
    own_arrangement=own_arrangement,
)

__all__ = [
    "GAME",
    "Action",
    "Discard",
    "DrawStock",
    "Event",
    "GoOut",
    "Observation",
    "PileMove",
    "PlayerRoundResult",
    "RoundResult",
    "Rules",
    "State",
    "TableMeld",
    "TakeDiscard",
    "determinize",
    "format_action",
    "parse_action",
]
