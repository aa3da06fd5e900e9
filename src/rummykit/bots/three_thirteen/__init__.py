"""The Three-Thirteen bots: the ``greedy`` player and what the search needs of the game.

- :mod:`.card_use`: how much a card is worth to an opponent or to the bot's own hand.
- :mod:`.solver_memo`: the arrangement solver, memoised, with a cheap exact route.
- :mod:`.greedy`: the ``greedy`` bot.
- :mod:`.evaluate`: the search's Three-Thirteen adapter (guide, rollouts, reward).

The game-independent bots (``random``, the ``ismcts`` search) are in
:mod:`rummykit.bots`.  Like every bot these see one observation, never a state.
"""
