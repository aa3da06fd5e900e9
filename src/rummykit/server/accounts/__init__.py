"""Who a request comes from and what it may bring: sessions, passwords, throttles, headers.

Holds signed session cookies with a revocable epoch and Argon2 passwords (``auth.py``),
the sliding-window limits on logins, registrations and guest sessions (``throttles.py``),
the cap on each player's open table sockets (``socket_caps.py``),
and what every answer carries and no request may bring: security headers, body limits,
the shape of ids (``security.py``), and the same headers on uvicorn's own 400 for a
malformed request (``malformed_http.py``).  The routes that use them are in ``api``.

May import: settings.
"""
