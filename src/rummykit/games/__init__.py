"""The games: pure rules, one sub-package per game.

Nothing here does I/O, reads a clock, uses the global ``random`` module or imports a
third-party package.  What both games share (refusals, the state protocol, the game
record and its notation) lives in the modules beside the game packages.
"""
