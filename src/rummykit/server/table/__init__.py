"""A live table: its one owner (the host) and the collaborators the host hands work to.

Holds the host (``host.py``: the inbox, play, invariants), its collaborators, each in
its own module (seating, presence, joining, turn clock, bot driver, talk, ending,
broadcast and views), the commands of its inbox, a connection, the stand-in's moves,
the fair deal and its check (``committed_deal.py``, ``verify.py``), the stand-in for a table
hosted by another process (``remote.py``), and the registry of this process's tables
(``registry.py``).  A collaborator never imports the host: it names the part it uses
(``parts.py``).

May import: bots, accounts, storage, protocol, operations, settings, clock.
"""
