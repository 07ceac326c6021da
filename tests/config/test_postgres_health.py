"""A kept database connection is checked before each request's first query
(config/postgresql/base.py): the check must still replace a connection the server ended, and
must cost no round trip while the server has said nothing."""

import time
from unittest import mock

import pytest
from django.db import connection, connections

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend"),
]


@pytest.fixture
def kept_connection():
    """A second connection to the test database, in autocommit, as a worker keeps one between
    requests."""
    kept = connections.create_connection("default")
    kept.ensure_connection()
    yield kept
    kept.close()


def backend_pid(wrapper):
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def next_request(wrapper):
    """What Django does when a request begins and then reads the database."""
    wrapper.health_check_done = False
    wrapper.close_if_health_check_failed()


def test_a_connection_the_server_ended_is_replaced_before_the_next_query(kept_connection):
    ended = backend_pid(kept_connection)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [ended])
        # The backend says goodbye and closes the socket as it exits.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # The test's transaction would otherwise see one snapshot of the activity.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [ended])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
    time.sleep(0.05)
    next_request(kept_connection)
    assert backend_pid(kept_connection) != ended


def test_an_idle_sound_connection_is_kept_without_a_round_trip(kept_connection):
    pid = backend_pid(kept_connection)
    with mock.patch.object(
        kept_connection.connection, "cursor", wraps=kept_connection.connection.cursor
    ) as opened:
        next_request(kept_connection)
    assert opened.call_count == 0
    assert backend_pid(kept_connection) == pid
