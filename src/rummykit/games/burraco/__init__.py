"""Burraco for two players, or four in two partnerships (RULES.md sections 1 and 3):
the rules, pure.

A turn draws (``DrawStock`` or ``TakePile``), then lays new melds (``Meld``) and adds
to the player's own melds (``Extend``) in any number, then discards (``Discard``).
Melds and their arrangement are in :mod:`.melds`, hand scores in :mod:`.scoring`.

Play goes through :class:`State` (``State.new(Rules(), seed)``, or
``State.new(Rules(players=4), seed)`` for partners), whose
``legal_actions``/``check``/``apply`` are the single source of legality; ``GAME``
describes the game to generic code (records, bots, the simulator).

Modules: ``rules`` (options), ``actions``, ``events``, ``notation`` (action text),
``state`` (turn flow and hand ends), ``legality`` (every check), ``table`` (the cards
in play), ``teams`` (who plays with whom), ``dealing``, ``results`` (hand results,
winners), ``observation``, ``determinize``, ``melds``, ``scoring``.  Nothing here
does I/O, reads a clock, uses the global ``random`` module or imports a third-party
package.
"""

from __future__ import annotations

from typing import Final

from rummykit.games.burraco.actions import Action, Discard, DrawStock, Extend, Meld, TakePile
from rummykit.games.burraco.determinize import determinize
from rummykit.games.burraco.events import Event
from rummykit.games.burraco.notation import format_action, parse_action
from rummykit.games.burraco.observation import Observation, TableMeld
from rummykit.games.burraco.points import POINT_TABLES
from rummykit.games.burraco.results import HandResult
from rummykit.games.burraco.rules import Rules
from rummykit.games.burraco.state import State
from rummykit.games.burraco.teams import TEAMS, partner_of, seats_of, team_of
from rummykit.games.core import GameInfo

GAME: Final[GameInfo[Rules, State, Action, Observation]] = GameInfo(
    name="burraco",
    title="Burraco",
    rules_type=Rules,
    new_state=State.new,
    parse_action=parse_action,
    format_action=format_action,
    observation_from_json=Observation.from_json,
    determinize=determinize,
    # two players, or four in two partnerships (``Rules(players=4)``, RULES.md section 3)
    player_counts=(2, 4),
    point_tables=POINT_TABLES,
    takes_whole_pile=True,
    team_of=team_of,
    # rated at two players only before four came: that pool keeps its name
    named_pool_size=2,
)

__all__ = [
    "GAME",
    "TEAMS",
    "Action",
    "Discard",
    "DrawStock",
    "Event",
    "Extend",
    "HandResult",
    "Meld",
    "Observation",
    "Rules",
    "State",
    "TableMeld",
    "TakePile",
    "determinize",
    "format_action",
    "parse_action",
    "partner_of",
    "seats_of",
    "team_of",
]
