"""Who sits with whom in an event of many tables, and who leads it: Swiss pairing
(:mod:`.swiss`), single-elimination brackets (:mod:`.knockout`) and standings with their
tie-breaks (:mod:`.standings`).  Pure arithmetic on player numbers and table totals,
shared by the simulator's bot events (``sim.event``) and the server's tournaments
(``server.competition.tournaments``).  Not to be confused with each game's
``events.py``, the events an applied action yields."""
