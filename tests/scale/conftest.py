import json
import signal
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from django.db import connection, connections

from .cluster import Cluster, Database, Editor

REPLICA_TITLE = "Cooling loops at scale (as the replica has it)"


def interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def server_url(db):
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    return f"postgres://{quote(db['USER'])}{password}@{host}:{db.get('PORT') or 5432}/postgres"


@pytest.fixture(scope="session")
def cluster(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two app servers (A, B) and two schedulers on one PostgreSQL, one Redis and one S3 store,
    plus server C whose anonymous readers read from a replica database."""
    if connection.vendor != "postgresql":
        pytest.skip("the cluster runs on PostgreSQL")
    with django_db_blocker.unblock():
        test_db = connection.settings_dict["NAME"]
        # The migrated test database is the template; no session may hold it open while copied.
        connections.close_all()
    server = server_url(connection.settings_dict)
    primary = Database(server, f"{test_db}_cluster")
    replica = Database(server, f"{test_db}_replica")
    rig = Cluster(tmp_path_factory.mktemp("cluster"), primary.url)
    # A CI timeout sends SIGTERM: turn it into KeyboardInterrupt so the finally below still
    # stops the servers, which run in their own sessions and would otherwise outlive pytest.
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        primary.create_from(test_db)
        rig.start_redis()
        rig.start_object_store()
        rig.collectstatic()
        seeded = json.loads(rig.run_python("from tests.scale.seed import seed; seed()"))
        # No streaming replication here: the replica is a copy that then drifts on purpose, so
        # a page shows which database answered.
        replica.create_from(primary.name)
        with replica.connect() as conn:
            conn.execute(
                "UPDATE wagtailcore_page SET title = %s WHERE title = %s",
                (REPLICA_TITLE, "Cooling loops at scale"),
            )
        a, b = rig.start_web("web-a"), rig.start_web("web-b")
        c = rig.start_web("web-c", workers=1, DATABASE_REPLICA_URL=replica.url)
        rig.start_scheduler("scheduler-1")
        rig.start_scheduler("scheduler-2")
        rig.wait_until_serving(a, b, c)
        yield SimpleNamespace(rig=rig, db=primary, a=a, b=b, c=c, replica=replica, **seeded)
    finally:
        rig.close()
        primary.drop()
        replica.drop()
        signal.signal(signal.SIGTERM, previous)


@pytest.fixture(scope="session")
def editor(cluster):
    """The editor signs in once, on server A; every server shares the session."""
    person = Editor()
    person.log_in(cluster.a)
    return person
