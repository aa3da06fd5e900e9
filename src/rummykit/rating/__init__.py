"""Ratings of players and bots on one scale, from OpenSkill's Plackett-Luce model.

This package holds the only third-party rating code (``openskill``); the engine layers
(``cards``, ``games``, ``bots``, ``sim``) never import it.  It knows nothing of the
games: it rates finishing places at a table and turns ratings into ladders.
"""
