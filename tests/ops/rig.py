"""A private PostgreSQL cluster, Redis and gunicorn on loopback for the fault and load scripts
(tests/ops/faults.py, tests/ops/load.py). Nothing here touches the machine's shared services:
PostgreSQL is initdb'd into a temporary directory and runs on a free port, so it can be stopped
and started at will.
"""

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from tests.scale.cluster import Cluster, ClusterError, free_port, wait_for

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))


class PrivatePostgres:
    """initdb into a temporary directory; as root (initdb refuses root) the server runs as the
    `postgres` OS user."""

    def __init__(self):
        if not (PG_BIN / "initdb").exists():
            raise ClusterError(f"PostgreSQL server binaries not found in {PG_BIN} (set PG_BIN)")
        self.port = free_port()
        self.home = Path(tempfile.mkdtemp(prefix="ops-pg-"))
        self.data = self.home / "data"
        self.log = self.home / "postgres.log"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            owner = pwd.getpwnam("postgres")
            os.chown(self.home, owner.pw_uid, owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self.started = False

    @property
    def url(self):
        return f"postgres://postgres@127.0.0.1:{self.port}/blog"

    def _run(self, tool, *args, timeout=120):
        argv = [str(PG_BIN / tool), *args]
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        result = subprocess.run(  # noqa: S603 - fixed argv
            argv, capture_output=True, text=True, timeout=timeout, check=False
        )
        if result.returncode:
            raise ClusterError(f"{tool} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        return result.stdout

    def start(self):
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.log), "-o", options)
        self.started = True
        wait_for(self.answers, "private PostgreSQL", timeout=30)

    def stop(self):
        """What an outage looks like to the app: the server goes away, connections drop."""
        self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.data))
        self.started = False

    def answers(self):
        with psycopg.connect(self.admin_url, connect_timeout=2) as conn:
            return conn.execute("SELECT 1").fetchone() == (1,)

    @property
    def admin_url(self):
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def create_database(self):
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE blog")

    def connect(self):
        return psycopg.connect(self.url, autocommit=True)

    def close(self):
        if self.started:
            with contextlib.suppress(ClusterError, subprocess.TimeoutExpired):
                self.stop()
        shutil.rmtree(self.home, ignore_errors=True)


class OpsRig(Cluster):
    """tests/scale's Cluster on the private PostgreSQL, with media on local disk instead of S3."""

    def __init__(self, workdir, postgres):
        super().__init__(workdir, postgres.url)
        self.postgres = postgres
        self.media_root = Path(workdir) / "media"

    def env(self, **extra):
        env = super().env(MEDIA_ROOT=str(self.media_root), **extra)
        for key in [key for key in env if key.startswith("AWS_")]:
            del env[key]
        if self.redis is None and "REDIS_URL" not in extra:
            # No Redis running: the file cache every process on the machine shares.
            del env["REDIS_URL"]
            env["CACHE_DIR"] = str(Path(self.workdir) / "cache")
        return env

    def prepare(self, posts):
        """Migrate the private database and publish `posts` posts (plus the scale seed's)."""
        self.postgres.start()
        self.postgres.create_database()
        self.manage("migrate", "--noinput", "-v0", timeout=900)
        self.collectstatic()
        return json.loads(
            self.run_python(f"from tests.ops.seed import seed; seed(posts={int(posts)})")
        )


@contextlib.contextmanager
def running_rig(posts=20, redis=False):
    """The private database migrated and seeded; Redis too if asked. Always torn down."""
    postgres = PrivatePostgres()
    workdir = Path(tempfile.mkdtemp(prefix="ops-rig-"))
    rig = OpsRig(workdir, postgres)
    try:
        if redis:
            rig.start_redis()
        rig.seeded = rig.prepare(posts)
        yield rig
    finally:
        rig.close()
        postgres.close()
        shutil.rmtree(workdir, ignore_errors=True)


def worker_rss_kib(master_pid):
    """Resident memory of each gunicorn worker (the master's children), in KiB."""
    sizes = {}
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    with contextlib.suppress(OSError):
        for pid in children.read_text().split():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        sizes[int(pid)] = int(line.split()[1])
    return sizes
