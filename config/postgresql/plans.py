"""Queries that PostgreSQL must plan for the values they are run with.

Connections prepare the statements they run often (DB_PREPARED_STATEMENTS), and after five
runs PostgreSQL may keep one generic plan for a prepared statement, chosen without the
parameters' values. For a query that reads every post, the generic plan guesses one row where
there are thousands: the blog's topic counts went from hash joins to nested loops, 7 ms to
35 ms at 10,000 posts (3 to 1.2 ms at 1,000). Such a query is sent unprepared, and is planned
for its values each time; every other statement keeps its prepared plan.
"""

from contextlib import contextmanager

from django.db import connections


@contextmanager
def planned_for_their_values(using):
    """Within the block, queries on database `using` are not prepared (PostgreSQL; elsewhere
    nothing changes). Costs no round trip: psycopg's `prepare_threshold` is the connection's
    own setting, None for "never prepare"."""
    database = connections[using]
    if database.vendor != "postgresql":
        yield
        return
    database.ensure_connection()
    connection = database.connection
    kept = connection.prepare_threshold
    connection.prepare_threshold = None
    try:
        yield
    finally:
        connection.prepare_threshold = kept
