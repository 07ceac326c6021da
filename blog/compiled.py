"""Listing queries compiled to SQL once per process.

A page of a listing runs one query: the ids of its posts. Building that query with the ORM
(the blog's children, the expiry test, the restriction subquery, the order) and compiling it
costs three times what the database takes to answer it: ~3 ms of Python against ~1 ms of
PostgreSQL at 10,000 posts. Its SQL depends only on the listing's shape (which blog, which
topic, which post is featured); what changes from one request to the next is the time the
expiry is tested against and the page's slice. So each shape is compiled once per process and
run with those filled in. The queryset stays the one definition of what a listing shows.

On PostgreSQL the shape's constants and the page's window are written into the SQL as literals,
leaving the time as its one parameter. PostgreSQL keeps a prepared statement's plan only when
knowing the parameters could not better it; with the blog's path and the LIMIT as parameters it
never could, so it planned the statement afresh on every run: 0.6 ms of planning for 0.15 ms
of work. With them as literals its one plan is kept (config/settings: prepared statements).
"""

import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connections
from django.utils import timezone

# Stands for the request's time while a query is compiled; the compiled SQL takes the real
# time in its place. No query compares a post against this instant for any other reason.
REQUEST_TIME = datetime(2001, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)
# A process sees a handful of shapes (a blog's topics, its featured post); this only bounds a
# process that somehow sees many.
MAX_SHAPES = 512


@dataclass(frozen=True)
class CompiledIds:
    """A queryset's SQL, selecting ids, with the places REQUEST_TIME took among its
    parameters."""

    sql: str
    params: tuple
    time_slots: tuple

    def ids(self, using, now, offset, limit):
        """The ids from `offset` on, at most `limit`, as of `now`."""
        connection = connections[using]
        params = list(self.params)
        for slot in self.time_slots:
            params[slot] = connection.ops.adapt_datetimefield_value(now)
        # Literal, so that each page of a listing is a statement PostgreSQL plans once.
        window = f" LIMIT {int(limit)} OFFSET {int(offset)}"
        with connection.cursor() as cursor:
            cursor.execute(self.sql + window, params)
            return [row[0] for row in cursor.fetchall()]


def compile_ids(queryset):
    """The queryset's ids as CompiledIds. The queryset must be ordered and unsliced, and test
    the time against REQUEST_TIME: SQL compiled with the time of one request would list, for
    the rest of the process, what was live then."""
    if queryset.query.is_sliced or not queryset.ordered:
        raise ValueError("compile_ids wants an ordered, unsliced queryset")
    ids = queryset.values_list("pk", flat=True)
    connection = connections[ids.db]
    sql, params = ids.query.get_compiler(ids.db).as_sql()
    stand_in = connection.ops.adapt_datetimefield_value(REQUEST_TIME)
    slots = tuple(i for i, param in enumerate(params) if param == stand_in)
    if not slots:
        raise ValueError("compile_ids wants a queryset that tests the time against REQUEST_TIME")
    return with_constants_inlined(connection, sql, tuple(params), slots)


def with_constants_inlined(connection, sql, params, time_slots):
    """CompiledIds whose SQL holds every parameter but the time as a literal, quoted by the
    database driver, where the backend can quote (PostgreSQL). SQLite plans in microseconds
    and keeps the parameters."""
    compose = getattr(connection.ops, "compose_sql", None)
    if compose is None:
        return CompiledIds(sql, params, time_slots)
    marker = f"request-time-{uuid.uuid4().hex}"
    quoted_marker = compose("%s", [marker])
    marked = [marker if slot in time_slots else param for slot, param in enumerate(params)]
    # Literal percent signs (a path's LIKE pattern) are doubled: the SQL is run with parameters.
    literal = compose(sql, marked).replace("%", "%%")
    if literal.count(quoted_marker) != len(time_slots):
        return CompiledIds(sql, params, time_slots)
    times = tuple(range(len(time_slots)))
    return CompiledIds(literal.replace(quoted_marker, "%s"), (REQUEST_TIME,) * len(times), times)


class CompiledShapes:
    """CompiledIds by shape, for this process. A shape must name everything the SQL depends
    on (the database alias among it), so an entry never goes stale and nothing clears it."""

    def __init__(self):
        self.compiled = {}
        self.lock = threading.Lock()

    def get(self, shape, build):
        """The CompiledIds of `shape`, compiled from build() the first time."""
        found = self.compiled.get(shape)
        if found is None:
            found = compile_ids(build())
            with self.lock:
                if len(self.compiled) >= MAX_SHAPES:
                    self.compiled.clear()
                self.compiled[shape] = found
        return found


listing_shapes = CompiledShapes()


class PagedIds:
    """CompiledIds as the sequence a Paginator slices: each slice is one query, as of the time
    it is taken. It has no length: the listing knows its counts and gives them to the
    Paginator."""

    def __init__(self, compiled, using):
        self.compiled = compiled
        self.using = using

    def __getitem__(self, window):
        if not isinstance(window, slice) or window.step is not None or window.stop is None:
            raise TypeError("PagedIds only gives a bounded slice")
        start = window.start or 0
        limit = window.stop - start
        if limit <= 0:
            return []
        return self.compiled.ids(self.using, timezone.now(), start, limit)
