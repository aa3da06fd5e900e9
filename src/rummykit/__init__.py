"""rummykit: rummy-family card games with an exact engine, bots and tools.

The engine (``rummykit.cards`` and ``rummykit.games``) uses the standard library
alone; the command line, simulator and server build on it.
"""

__version__ = "0.1.0"
