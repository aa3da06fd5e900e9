"""Notifications sent to players: by e-mail and Web Push, from the database's outbox.

What is sent is queued by storage (``storage/notifications.py``), in the transaction of
its cause; here a process's :class:`~.sender.Notifier` claims the due messages and sends
them (``mail.py`` through the host's SMTP server, ``push.py`` to the browsers' push
services through the guarded client of ``endpoints.py``), in the player's language
(``words.py``), with signed links (``links.py``).  The channels a host offers follow
from its settings (``channels.py``).  Nothing here decides what a player may see of a
game: a message names a table its player sits at, and its link opens it.

May import: storage, operations, settings, clock, protocol, cancelling.
"""
