"""The fault rehearsals of tests/ops/faults.py and a short tests/ops/load.py run under pytest, on a private PostgreSQL cluster and
Redis (never the machine's shared ones). Marked `faults`: they start real servers and take a
few minutes."""

import shutil
from types import SimpleNamespace

import pytest

from tests.scale.cluster import ClusterError
from tests.services import require

from . import faults, load
from .rig import PG_BIN, running_rig

pytestmark = pytest.mark.faults


@pytest.fixture(scope="module")
def served():
    require(
        (PG_BIN / "initdb").exists() and shutil.which("redis-server"),
        f"PostgreSQL server binaries in {PG_BIN} or redis-server",
    )
    try:
        with running_rig(posts=5, redis=True) as rig:
            base = faults.start_app_server(rig)
            rig.wait_until_serving(base)
            yield SimpleNamespace(rig=rig, base=base)
    except ClusterError as error:
        pytest.fail(f"the rehearsal did not come up: {error}")


# Run in this order: the PostgreSQL outage goes last, Redis is not restarted.
def test_ten_seconds_of_mixed_reader_traffic_get_no_server_error(served):
    (run,), _ = load.run_load(served.rig, served.base, duration=10, concurrency=4)
    assert run.requests > 50, "too few requests to say anything"
    assert run.server_errors == 0, run.statuses
    assert set(run.statuses) == {200}, run.statuses


def test_killing_the_scheduler_mid_batch_publishes_every_post_exactly_once(served):
    faults.scheduler_killed(served.rig, served.base, count=30)


def test_pages_are_served_with_redis_stopped(served):
    faults.redis_stopped(served.rig, served.base)


def test_a_postgresql_restart_gives_503s_then_recovers_without_restarting_the_app(served):
    faults.postgres_restart(served.rig, served.base)
