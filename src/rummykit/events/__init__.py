"""Events of many tables: Swiss pairing (:mod:`.swiss`), single-elimination brackets
(:mod:`.knockout`) and standings with their tie-breaks (:mod:`.standings`).  Pure
arithmetic on player numbers and table totals, shared by the simulator's bot events
(``sim.event``) and the server's tournaments (``server.competition.tournaments``)."""
