"""Fair play: how closely the moves of a played game follow the strongest bot.

:mod:`.decisions` searches one decision with the played move among the candidates;
:mod:`.seat` assesses every decision of one seat of a recorded game and gives the
game's verdict for that seat; :mod:`.account` pools an account's assessed games into a
report for moderators, never into a sanction.  The thresholds and the figures they were
measured with are in ``docs/fair-play.md`` (``benchmarks/fairplay.py`` reruns them).
This layer reads records and observations only; it never opens files or a database.
"""
