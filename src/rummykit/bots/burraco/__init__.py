"""The Burraco bots: the ``greedy`` player and what the search needs of Burraco.

- :mod:`.reading`: what the observation says about the table (threats, cards that fit).
- :mod:`.planning`: which melds and additions to lay this turn.
- :mod:`.discarding`: which card to throw.
- :mod:`.greedy`: the ``greedy`` bot, made of the three above.
- :mod:`.evaluate`: the search's Burraco adapter (guide, rollout policy, position value).

The game-independent bots (``random``, the ``ismcts`` search) are in
:mod:`rummykit.bots`.  Like every bot these see one observation, never a state.
"""
