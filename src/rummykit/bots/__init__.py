"""Players that see only an observation and the legal actions.

A bot never receives a game state: it is handed one player's observation, the legal
actions and a random generator, and returns one of those actions.
"""
