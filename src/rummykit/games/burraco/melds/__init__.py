"""Burraco melds: which multisets of cards are sets or runs, and how melds grow.

This is the meld logic of RULES.md 1.3 and 1.4, pure and fast.  A meld is a multiset:
:func:`arrange` finds the arrangement the rules give it, :func:`extend` adds cards
to a meld on the table, :func:`candidate_melds` lists every new meld a hand can lay
and :func:`extending_cards` every card of a hand that fits a meld, :func:`additions` every
multiset of a hand's cards that a meld accepts.

A run is described by *places* ``1..14`` in its suit: place ``1`` is the low ace,
``2..13`` the ranks, ``14`` the high ace.  Among the legal arrangements of a multiset,
:func:`arrange` keeps the fewest wilds (a 2 stands at its own place whenever it can),
then the wild as high as it can stand (a wild at either end stands high if there is
room), then the lowest start (``A 2 ... K`` rather than ``2 ... K A``).

On the table (:func:`extend`, RULES.md 1.4) natural cards keep their places, the ace
too, except that a natural 2 at the bottom may turn wild; a wild at an end moves
wherever that helps; a wild filling a gap stays until its natural card replaces it.  Of
the outcomes, the same preference picks one.  So a table meld is usually ``arrange`` of
its cards, but not always: ``Ah 2c(=2h) 3h ... Jh`` plus ``Qh`` is ``Ah 2c(=2h) 3h ...
Qh`` (laid at once, ``3h ... Qh 2c(=Kh) Ah``), and ``Ah 2h ... Jh`` does not take
``Kh`` (its 2 is not at the bottom and its ace does not move), though the same cards
laid at once are ``3h ... Jh 2h(=Qh) Kh Ah``.

>>> from rummykit.cards import parse_cards
>>> arrange(parse_cards("7h 8h 9h 2c")).describe()
'7h 8h 9h 2c(=Th)'
>>> extend(arrange(parse_cards("7h 8h 9h 2c")), parse_cards("5h")).describe()
'5h 2c(=6h) 7h 8h 9h'

The package parts where the concerns do: :mod:`.arranging` (the :class:`Meld` value and
:func:`arrange`, which layouts are legal), :mod:`.extending` (adding cards to a meld on
the table, and which cards of a hand fit one) and :mod:`.candidates` (every new meld a
hand can lay).  What other modules use is imported here.

Nothing here decides turn rules (whose meld, one set per rank, closing): that is the
game state's job.  It never does I/O and imports only the standard library.
"""

from rummykit.games.burraco.melds.arranging import (
    BURRACO_SIZE,
    HIGH_ACE,
    MAX_SET,
    MAX_SET_NATURALS,
    MIN_MELD,
    Meld,
    arrange,
)
from rummykit.games.burraco.melds.candidates import (
    Candidate,
    candidate_arrangements,
    candidate_melds,
    candidates_of,
)
from rummykit.games.burraco.melds.extending import (
    additions,
    extend,
    extended,
    extending_cards,
    fitting_cards,
    hand_kin,
    kin_cards,
    openers,
)

__all__ = [
    "BURRACO_SIZE",
    "HIGH_ACE",
    "MAX_SET",
    "MAX_SET_NATURALS",
    "MIN_MELD",
    "Candidate",
    "Meld",
    "additions",
    "arrange",
    "candidate_arrangements",
    "candidate_melds",
    "candidates_of",
    "extend",
    "extended",
    "extending_cards",
    "fitting_cards",
    "hand_kin",
    "kin_cards",
    "openers",
]
