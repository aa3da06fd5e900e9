"""The ``rummykit`` command: thin wiring of the engine, bots and tools to a terminal."""
