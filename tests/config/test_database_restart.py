"""A worker keeps its database connection between requests (DB_CONN_MAX_AGE). When the server
ends it (a restart, an idle timeout, an administrator), the next reader still gets the page:
Django checks a kept connection before a request's first query (DB_CONN_HEALTH_CHECKS) and
opens a new one."""

import time
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL server"),
]


def serve(path):
    """The status of a page asked for as a WSGI server asks: through Django's handler, with
    the signals that start and finish a request."""
    environ = {"PATH_INFO": path}
    setup_testing_defaults(environ)
    statuses = []
    response = get_wsgi_application()(environ, lambda status, headers: statuses.append(status))
    response.close()
    return statuses[0]


def backend_pid(wrapper):
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def end_backend(pid):
    """End a server process from another connection, as a restart would, and wait until it
    is gone."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
                if cursor.fetchone()[0] == 0:
                    return
                time.sleep(0.05)
        raise AssertionError(f"backend {pid} did not end")
    finally:
        other.close()


def test_a_reader_gets_the_page_after_the_server_ended_the_workers_connection(blog):
    assert serve("/blog/") == "200 OK"
    kept = backend_pid(connection)
    end_backend(kept)
    assert serve("/blog/") == "200 OK"
    assert backend_pid(connection) != kept
