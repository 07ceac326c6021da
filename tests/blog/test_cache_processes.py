"""The page cache is shared by every process: two app servers with a warm cache both serve the
new listing on the next request after a separate scheduler process publishes a post."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import requests
import time_machine
from django.db import connection
from django.utils import timezone

from tests.factories import publish_post
from tests.services import redis_location

from .scheduling import schedule_post

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

PROJECT_DIR = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url():
    database = connection.settings_dict
    return (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}"
        f":{database['PORT'] or 5432}/{database['NAME']}"
    )


def server_env(tmp_path, cache_env):
    """Development settings, as they serve static files without a collectstatic run; the page
    cache, its middleware and the cache backends are the ones production uses."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "REDIS_", "CACHE_", "PAGE_CACHE"))
    }
    return {
        **env,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": database_url(),
        "PAGE_CACHE": "on",
        "STATIC_ROOT": str(tmp_path / "static"),
        "MEDIA_ROOT": str(tmp_path / "media"),
        "PYTHONUNBUFFERED": "1",
        **cache_env,
    }


@contextlib.contextmanager
def app_servers(env, count, log_dir):
    servers = []
    try:
        for n in range(count):
            port = free_port()
            log = open(log_dir / f"web{n}.log", "wb")  # noqa: SIM115 - closed below
            process = subprocess.Popen(  # noqa: S603 - our own gunicorn with fixed arguments
                [str(GUNICORN), "-c", "config/gunicorn.py", "config.wsgi"],
                cwd=PROJECT_DIR,
                env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            servers.append((f"http://127.0.0.1:{port}", process, log))
        for base, process, log in servers:
            wait_until_serving(base, process, Path(log.name))
        yield [base for base, _process, _log in servers]
    finally:
        for _base, process, log in servers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
            log.close()


def wait_until_serving(base, process, log_path):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, log_path.read_text(errors="replace")
        with contextlib.suppress(requests.ConnectionError):
            if requests.get(f"{base}/blog/", timeout=10).status_code == 200:
                return
        time.sleep(0.3)
    pytest.fail(f"{base} never served /blog/")


def file_cache(tmp_path):
    return {"CACHE_DIR": str(tmp_path / "cache")}


def redis_cache(tmp_path):
    location = redis_location(14)
    # Shared with other runs: keys hold the content generation, which the first publish of each
    # test database sets to a random number.
    return {"REDIS_URL": location}


@pytest.mark.parametrize(
    "shared_cache", [file_cache, pytest.param(redis_cache, marks=pytest.mark.redis)]
)
def test_a_scheduled_publish_reaches_every_server_on_the_next_request(blog, tmp_path, shared_cache):
    publish_post(blog, "Already out")
    go_live = timezone.now() - timedelta(seconds=1)
    with time_machine.travel(go_live - timedelta(hours=1), tick=False):
        schedule_post(blog, "Scheduled for the morning", go_live)
    env = server_env(tmp_path, shared_cache(tmp_path))

    with app_servers(env, 2, tmp_path) as servers:
        for base in servers:
            requests.get(f"{base}/blog/", timeout=10)
            warm = requests.get(f"{base}/blog/", timeout=10)
            assert warm.headers["X-Cache"] == "HIT", base
            assert "Already out" in warm.text
            assert "Scheduled for the morning" not in warm.text

        scheduler = subprocess.run(  # noqa: S603 - our own manage.py with fixed arguments
            [sys.executable, "manage.py", "run_scheduler", "--once"],
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert scheduler.returncode == 0, scheduler.stdout + scheduler.stderr
        assert "published 1" in scheduler.stdout + scheduler.stderr

        for n, base in enumerate(servers):
            fresh = requests.get(f"{base}/blog/", timeout=10)
            assert fresh.status_code == 200
            assert "Scheduled for the morning" in fresh.text, base
            # Both servers serve one site at different ports: the first renders the new listing,
            # the other serves that copy.
            assert fresh.headers["X-Cache"] == ("MISS" if n == 0 else "HIT")
