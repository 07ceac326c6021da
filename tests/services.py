"""Real services a test needs: missing in CI (CI=true) is a failure, elsewhere a skip."""

import os

import pytest
import redis


def require(available, what):
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing (.ci/services.sh provides it in CI)")
    pytest.skip(f"{what} is missing")


def redis_location(db, flush=False):
    """The machine's Redis at database `db` (emptied first when `flush`). pytest-xdist workers
    count down from it in steps of two, so parallel workers never flush each other's data."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    location = f"redis://127.0.0.1:6379/{db - 2 * worker}"
    client = redis.Redis.from_url(location, socket_connect_timeout=0.5)
    try:
        client.flushdb() if flush else client.ping()
    except redis.ConnectionError:
        require(False, "Redis on 127.0.0.1:6379")
    return location
