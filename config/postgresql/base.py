"""Django's PostgreSQL backend, with a health check that costs no round trip while the
connection is idle and the server has said nothing.

Django checks a kept connection (CONN_HEALTH_CHECKS) before each request's first query with a
`SELECT 1`: a round trip, and a statement for the server to run, on every request that reads
the database. A connection the server ended (a restart, an idle timeout, an administrator)
is told so: the server sends its reason and closes the socket, which makes the socket
readable. So while the connection sits idle with nothing to read, it is sound as far as
anything can tell without asking, and the check is skipped; anything to read, or a
connection not idle, gets Django's own check. A server that vanished without a word fails
the request's first query either way (Django's `SELECT 1` would wait on it just the same).
"""

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        idle = connection.info.transaction_status == TransactionStatus.IDLE
        if idle and not has_something_to_read(connection.fileno()):
            return True
        return super().is_usable()


def has_something_to_read(fd):
    """Whether the socket has data, an end or an error waiting, without waiting for any."""
    poller = select.poll()
    # Hang-ups and errors are reported whatever is asked for.
    poller.register(fd, select.POLLIN | select.POLLPRI)
    return bool(poller.poll(0))
