"""What PostgreSQL plans with: the values a query is run with, and the tables' row counts.

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


def count_rows_for_the_planner(using):
    """ANALYZE every table, after a bulk load (PostgreSQL; elsewhere nothing happens).

    PostgreSQL plans with the row counts and value statistics ANALYZE gathers, and autovacuum
    analyzes a table only after some fifty rows of it change: a table of one row (the blog,
    the home page, the site) is never analyzed, and the planner guesses about a hundred rows.
    Guessing a hundred blogs, it found the blogs below the home page by reading every page
    of the site instead of looking the one blog up: 1.7 ms on each uncached request at 10,000
    posts, 0.14 ms once analyzed. Returns whether it ran."""
    database = connections[using]
    if database.vendor != "postgresql":
        return False
    with database.cursor() as cursor:
        cursor.execute("ANALYZE")
    return True
