"""Everything on the wire, as data: the table socket's messages, the HTTP bodies and the
server's error codes.

Holds the WebSocket messages (``messages.py``, whose JSON Schema the client's types are
generated from), the lobby's and the tournaments' request and response bodies
(``lobby.py``, ``tournaments.py``), the catalogue of error codes (``error_codes.py``)
and the error a table request is refused with (``refusals.py``).  Pydantic models and
constants only: nothing here reads storage or runs a table.

May import: nothing else of the server.
"""
