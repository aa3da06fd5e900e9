"""The tests' one kit of helpers: databases, servers, players, tables and waits."""
