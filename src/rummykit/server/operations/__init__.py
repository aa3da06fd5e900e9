"""What a host watches while the server runs: its log lines, its loop, its memory.

Holds the one-line event log naming the table (``events_log.py``) and its form as JSON
lines for a log collector (``json_lines.py``), the watch on the event loop's lag
(``loop_lag.py``), the log of failed or dropped requests (``request_log.py``), the
garbage collector's settings for a long-running process (``collector.py``) and the guard
on connections below the application: header deadlines and a ceiling on open connections
(``connection_guard.py``).  Nothing here changes a table.

May import: nothing else of the server.
"""
