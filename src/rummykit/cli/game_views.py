"""What the terminal shows of each game, by the game's name: the one place in the
command line that names the games.

A :class:`TerminalGame` gathers one game's renderers (:mod:`views`,
:mod:`screen_parts`) and its help page; :mod:`session`, :mod:`plain` and
:mod:`screen` look the game up here instead of asking which game it is.  The
renderers import their game's engine only when they run, so a game of one loads
nothing of the other.  A new game adds its renderers and one entry to
:data:`TERMINAL_GAMES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from rummykit.cli import screen_parts, views

if TYPE_CHECKING:
    from rummykit.cli.scene import Lines, Scene


@dataclass(frozen=True, slots=True, kw_only=True)
class TerminalGame:
    """One game in the terminal.

    - ``help``: the moves in the game's notation, one line each (``help`` in play).
    - ``table(observation, names)``: the table as lines, for the plain log.
    - ``hand_result(result, totals, names)``: the end of a hand or round.
    - ``game_over(winners, totals, names)``: the game's last line, by side.
    - ``mode(observation)`` and ``where(observation)``: the screen's title.
    - ``screen(scene, lines)``: the middle of the full-screen table.
    - ``deal_header(event)``, ``deal_extras(event)`` and ``hand_ended(event, names)``:
      a replay's deal (its title; lines shown after the hands) and end of a hand.
    """

    help: tuple[str, ...]
    table: Callable[[Any, Sequence[str]], list[str]]
    hand_result: Callable[[Any, Sequence[int], Sequence[str]], list[str]]
    game_over: Callable[[Sequence[int], Sequence[int], Sequence[str]], str]
    mode: Callable[[Any], str]
    where: Callable[[Any], str]
    screen: Callable[[Scene, Lines], None]
    deal_header: Callable[[Any], str]
    deal_extras: Callable[[Any], list[str]]
    hand_ended: Callable[[Any, Sequence[str]], list[str]]


_CARDS = "Cards: rank A 2-9 T J Q K (10 for T), suit c d h s, joker Jk; any case."


def _burraco_result(result: Any, totals: Sequence[int], names: Sequence[str]) -> list[str]:
    return views.burraco_hand_result(result, names)  # the result shows the totals


def _three_thirteen_result(result: Any, totals: Sequence[int], names: Sequence[str]) -> list[str]:
    return [*views.three_thirteen_round_result(result, names), views.totals_line(totals, names)]


def _burraco_deal(event: Any) -> str:
    return f"[bold]Hand {event.hand_number + 1}[/]"


def _three_thirteen_deal(event: Any) -> str:
    return f"[bold]Round {event.round_number}[/] · wild rank [bold]{views.wild_name(event)}[/]"


def _pozzetti(event: Any) -> list[str]:
    return [
        f"  pozzetto {number}: {views.hand_markup(pozzetto)}"
        for number, pozzetto in enumerate(event.pozzetti, start=1)
        if pozzetto is not None
    ]


def _nothing(event: Any) -> list[str]:
    return []


def _burraco_hand_ended(event: Any, names: Sequence[str]) -> list[str]:
    return views.burraco_hand_result(event.result, names)


def _three_thirteen_hand_ended(event: Any, names: Sequence[str]) -> list[str]:
    return _three_thirteen_result(event.result, event.totals, names)


TERMINAL_GAMES: Final[Mapping[str, TerminalGame]] = {
    "burraco": TerminalGame(
        help=(
            "[bold]draw[/]            take the top card of the stock",
            "[bold]take[/]            take the whole discard pile",
            "[bold]meld 3h 4h 5h[/]   lay a new meld (a run or a set, wilds 2 and Jk)",
            "[bold]extend 2 5h[/]     add cards to your meld number 2 as the table shows it",
            "                 (also replaces a wild by its natural card)",
            "[bold]discard Qh[/]      end the turn",
            _CARDS,
        ),
        table=views.burraco_table,
        hand_result=_burraco_result,
        game_over=views.burraco_game_over_line,
        mode=screen_parts.burraco_mode,
        where=screen_parts.burraco_where,
        screen=screen_parts.burraco_screen,
        deal_header=_burraco_deal,
        deal_extras=_pozzetti,
        hand_ended=_burraco_hand_ended,
    ),
    "three-thirteen": TerminalGame(
        help=(
            "[bold]draw[/]            take the top card of the stock",
            "[bold]take[/]            take the top discard",
            "[bold]discard Qh[/]      end the turn",
            "[bold]out Qh[/]          go out: every other card in melds, Qh discarded",
            _CARDS,
        ),
        table=views.three_thirteen_table,
        hand_result=_three_thirteen_result,
        game_over=views.game_over_line,
        mode=screen_parts.no_mode,
        where=screen_parts.three_thirteen_where,
        screen=screen_parts.three_thirteen_screen,
        deal_header=_three_thirteen_deal,
        deal_extras=_nothing,
        hand_ended=_three_thirteen_hand_ended,
    ),
}


def terminal_game(name: str) -> TerminalGame:
    """How the terminal shows the game ``name``; ``ValueError`` for a game it cannot."""
    shown = TERMINAL_GAMES.get(name)
    if shown is None:
        raise ValueError(f"the terminal cannot show the game {name!r}")
    return shown
