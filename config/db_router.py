"""Reader traffic on the read replica, everything else on the primary.

Only a request the middleware recognises as an anonymous reader's (GET or HEAD, not the admin,
not signed in) reads from DATABASES["replica"]. Editors always read their own writes from the
primary; writes, and reads inside a transaction, always go to the primary. Both pieces are only
installed when DATABASE_REPLICA_URL is set (see config/settings/base.py).
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA_ALIAS = "replica"
READER_METHODS = frozenset({"GET", "HEAD"})

_reading_for_reader = ContextVar("reading_for_reader", default=False)


@contextmanager
def reader_reads():
    """Send this block's reads to the replica, as during an anonymous reader's request."""
    token = _reading_for_reader.set(True)
    try:
        yield
    finally:
        _reading_for_reader.reset(token)


def is_reader_request(request):
    if request.method not in READER_METHODS:
        return False
    admin_prefix = "/" + getattr(settings, "WAGTAILADMIN_PATH", "admin/").lstrip("/")
    if request.path.startswith((admin_prefix, "/django-admin/")):
        return False
    # Session and user are read before the switch, so they come from the primary.
    return not request.user.is_authenticated


class ReaderReplicaMiddleware:
    """Marks anonymous readers' requests; place it after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_reader_request(request):
            return self.get_response(request)
        with reader_reads():
            # TemplateResponses render inside get_response, so their queries are covered too.
            return self.get_response(request)


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        if not _reading_for_reader.get():
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            # A transaction reads what it is about to write: stay on the primary.
            return DEFAULT_DB_ALIAS
        return REPLICA_ALIAS

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        # Both aliases hold the same data, so objects from either may be related.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # The replica receives the schema through replication, never through migrate.
        return db != REPLICA_ALIAS
