"""A small production rehearsal on loopback: SeaweedFS (S3), a private Redis, PostgreSQL, several
gunicorn app servers and scheduler replicas, all started from this project's own settings.

Used by tests/scale/ and by `make scale-proof` (tests/scale/proof.py). Everything binds to
127.0.0.1, every process is started in its own session and stopped (SIGTERM, then SIGKILL) by
Cluster.close(), which the callers run in a finally block.
"""

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

import boto3
import psycopg
import requests
from botocore.config import Config
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
BUCKET = "cedana-media"
EDITOR = ("scale-editor", "a-long-loopback-only-password")


class ClusterError(RuntimeError):
    """Something the rehearsal needs is missing or did not come up."""


def free_port():
    """A loopback port that is free, and whose +10000 twin (SeaweedFS's gRPC port) is free too."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + 10000 < 65535 and port_is_free(port + 10000):
            return port
    raise ClusterError("no free loopback port pair")


def port_is_free(port):
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_for(check, what, timeout=60.0, interval=0.25):
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            result = check()
        except (OSError, requests.RequestException, psycopg.Error) as error:
            last_error, result = error, None
        except Exception as error:  # noqa: BLE001 - boto3 raises many kinds while SeaweedFS boots
            last_error, result = error, None
        if result:
            return result
        time.sleep(interval)
    raise ClusterError(f"{what} not ready after {timeout:g}s (last error: {last_error})")


def require_binary(path_or_name):
    found = shutil.which(str(path_or_name))
    if not found:
        raise ClusterError(f"{path_or_name} is not installed; tests/scale need it")
    return found


class Process:
    def __init__(self, name, argv, env, log_dir, cwd=ROOT):
        self.name = name
        self.log_path = Path(log_dir) / f"{name}.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(  # noqa: S603 - argv built here, never from input
            argv,
            env=env,
            cwd=cwd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def running(self):
        return self.popen.poll() is None

    def terminate(self):
        if self.running:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)

    def stop(self, timeout=8):
        """SIGTERM, then SIGKILL: SeaweedFS can hang for a while in its graceful gRPC stop."""
        self.terminate()
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(5)
        if not self.log.closed:
            self.log.close()

    def tail(self, lines=30):
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""


class Database:
    """A throwaway PostgreSQL database on the server of `base_url`, copied from a template."""

    def __init__(self, base_url, name):
        parts = urlsplit(base_url)
        self.name = name
        self.url = urlunsplit(parts._replace(path=f"/{name}"))
        self.admin_url = urlunsplit(parts._replace(path="/postgres"))

    def connect(self):
        return psycopg.connect(self.url, autocommit=True)

    def create_from(self, template):
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )
            admin.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(self.name), sql.Identifier(template)
                )
            )

    def drop(self):
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )

    def scalar(self, query, params=()):
        with self.connect() as conn:
            row = conn.execute(query, params).fetchone()
        return row[0] if row else None


class Cluster:
    def __init__(self, workdir, database_url):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.database_url = database_url
        self.processes = []
        self.webs = {}
        self.weed = self.redis = None
        self.weed_ports = {role: free_port() for role in ("master", "volume", "filer", "s3")}
        self.redis_port = free_port()
        self.s3_key, self.s3_secret = "scale" + secrets.token_hex(4), secrets.token_hex(16)
        self.secret_key = secrets.token_urlsafe(40)
        # One folder per pytest-xdist worker: two workers' collectstatic --clear would collide.
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.static_root = ROOT / "var" / "scale" / f"static-{worker}"

    # -- shared services ------------------------------------------------------------------------

    def start_object_store(self):
        weed = require_binary(BIN / "weed")
        data = self.workdir / "seaweedfs"
        data.mkdir(exist_ok=True)
        config = self.workdir / "s3.json"
        identity = {"accessKey": self.s3_key, "secretKey": self.s3_secret}
        config.write_text(
            json.dumps(
                {
                    "identities": [
                        {
                            "name": "cedana",
                            "credentials": [identity],
                            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
                        }
                    ]
                }
            )
        )
        ports = self.weed_ports
        argv = [
            weed, "server", f"-dir={data}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            f"-master.port={ports['master']}", f"-volume.port={ports['volume']}",
            f"-filer.port={ports['filer']}", "-s3", f"-s3.port={ports['s3']}",
            f"-s3.config={config}", "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-volume.max=8", "-master.volumeSizeLimitMB=64",
        ]  # fmt: skip
        self.weed = self._start("seaweedfs", argv, os.environ.copy())
        client = self.s3_client()

        def bucket_ready():
            with contextlib.suppress(client.exceptions.BucketAlreadyOwnedByYou):
                client.create_bucket(Bucket=BUCKET)
            client.put_object(Bucket=BUCKET, Key="ready.txt", Body=b"ok")
            return client.get_object(Bucket=BUCKET, Key="ready.txt")["Body"].read() == b"ok"

        wait_for(bucket_ready, "SeaweedFS S3 gateway", timeout=90, interval=1)

    def stop_object_store(self):
        self.weed.stop(timeout=3)
        self.weed = None

    def s3_client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.s3_endpoint,
            aws_access_key_id=self.s3_key,
            aws_secret_access_key=self.s3_secret,
            region_name="us-east-1",
            config=Config(connect_timeout=2, read_timeout=5, retries={"max_attempts": 1}),
        )

    @property
    def s3_endpoint(self):
        return f"http://127.0.0.1:{self.weed_ports['s3']}"

    def start_redis(self):
        redis = require_binary("redis-server")
        argv = [
            redis, "--bind", "127.0.0.1", "--port", str(self.redis_port), "--save", "",
            "--appendonly", "no", "--dir", str(self.workdir),
        ]  # fmt: skip
        self.redis = self._start("redis", argv, os.environ.copy())
        wait_for(lambda: self.redis_command("PING") == "+PONG", "private Redis", timeout=20)

    def stop_redis(self):
        self._stop(self.redis)
        self.redis = None

    def redis_command(self, *words):
        with socket.create_connection(("127.0.0.1", self.redis_port), timeout=2) as conn:
            conn.sendall((" ".join(words) + "\r\n").encode())
            return conn.recv(256).decode().strip()

    def redis_keys(self):
        return int(self.redis_command("DBSIZE").lstrip(":"))

    # -- the app --------------------------------------------------------------------------------

    def env(self, **extra):
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "DATABASE_", "AWS_", "REDIS_", "PYTEST", "COV_"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.production",
            SECRET_KEY=self.secret_key,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=self.database_url,
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            SECURE_SSL_REDIRECT="false",
            SESSION_COOKIE_SECURE="false",
            CSRF_COOKIE_SECURE="false",
            SECURE_HSTS_SECONDS="0",
            STATIC_ROOT=str(self.static_root),
            AWS_STORAGE_BUCKET_NAME=BUCKET,
            AWS_S3_ENDPOINT_URL=self.s3_endpoint,
            AWS_ACCESS_KEY_ID=self.s3_key,
            AWS_SECRET_ACCESS_KEY=self.s3_secret,
            AWS_S3_REGION_NAME="us-east-1",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        env.update(extra)
        return env

    def manage(self, *args, env=None, timeout=300):
        result = subprocess.run(  # noqa: S603 - fixed argv
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env or self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if result.returncode:
            raise ClusterError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
        return result.stdout

    def collectstatic(self):
        """Hashed static files for the production settings, rebuilt only when static/ changes."""
        stamp = self.static_root / ".fingerprint"
        sources = [ROOT / "requirements.lock", *sorted((ROOT / "static").rglob("*"))]
        fingerprint = str(max(path.stat().st_mtime_ns for path in sources if path.is_file()))
        if stamp.is_file() and stamp.read_text() == fingerprint:
            return
        self.manage("collectstatic", "--noinput", "--clear", "-v0", timeout=600)
        stamp.write_text(fingerprint)

    def run_python(self, code, env=None):
        """Run a snippet inside Django (production settings) and return its last output line."""
        output = self.manage("shell", "-c", code, env=env)
        return output.strip().splitlines()[-1] if output.strip() else ""

    def start_web(self, name, workers=2, **extra_env):
        port = free_port()
        env = self.env(
            GUNICORN_BIND=f"127.0.0.1:{port}",
            WEB_CONCURRENCY=str(workers),
            GUNICORN_ACCESS_LOG=str(self.workdir / f"{name}.access.log"),
            **extra_env,
        )
        argv = [str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi"]
        self.webs[f"http://127.0.0.1:{port}"] = self._start(name, argv, env)
        return f"http://127.0.0.1:{port}"

    def wait_until_serving(self, *bases):
        for base in bases:
            process = self.webs[base]

            def answers(base=base, process=process):
                if not process.running:
                    raise ClusterError(f"{process.name} exited:\n{process.tail()}")
                return requests.get(health_url(base), timeout=5).status_code < 500

            wait_for(answers, f"app server {process.name}", timeout=120, interval=0.5)

    def start_scheduler(self, name, interval=1):
        argv = [sys.executable, "manage.py", "run_scheduler", "--interval", str(interval)]
        # The outage test needs a picture nobody has rendered yet; the schedulers would make it.
        return self._start(name, argv, self.env(SCHEDULER_PREPARES_PICTURES="off"))

    # -- bookkeeping ----------------------------------------------------------------------------

    def _start(self, name, argv, env):
        process = Process(name, argv, env, self.workdir)
        self.processes.append(process)
        return process

    def _stop(self, process):
        if process is not None:
            process.stop()

    def close(self):
        for process in self.processes:
            process.terminate()
        for process in reversed(self.processes):
            process.stop()

    def logs(self):
        return "\n\n".join(f"--- {p.name} ---\n{p.tail()}" for p in self.processes)


def health_url(base):
    """/healthz when the server has one (branch harden), else the home page."""
    with contextlib.suppress(requests.RequestException):
        if requests.get(urljoin(base, "/healthz"), timeout=5).status_code == 200:
            return urljoin(base, "/healthz")
    return urljoin(base, "/")


class Editor:
    """An editor in a browser: one cookie jar, used against whichever server the balancer picks."""

    def __init__(self, username=EDITOR[0], password=EDITOR[1]):
        self.username, self.password = username, password
        self.http = requests.Session()

    def log_in(self, base):
        login = urljoin(base, "/admin/login/")
        self.http.get(login, timeout=10).raise_for_status()
        response = self.http.post(
            login,
            data={
                "username": self.username,
                "password": self.password,
                "csrfmiddlewaretoken": self.http.cookies["csrftoken"],
                "next": "/admin/",
            },
            headers={"Referer": login},
            timeout=20,
        )
        response.raise_for_status()
        if urlsplit(response.url).path.startswith("/admin/login"):
            raise ClusterError(f"login refused on {base}")
        return response

    def get(self, base, path):
        return self.http.get(urljoin(base, path), timeout=20)

    def post_form(self, base, path, data, files=None):
        url = urljoin(base, path)
        token = self.http.cookies.get("csrftoken")
        return self.http.post(
            url,
            data={"csrfmiddlewaretoken": token, **data},
            files=files,
            headers={"Referer": url},
            timeout=30,
        )

    def publish(self, base, page_id):
        """The "Publish" bulk action of the page listing."""
        path = f"/admin/bulk/wagtailcore/page/publish/?id={page_id}&next=/admin/"
        self.get(base, path).raise_for_status()
        return self.post_form(base, path, {"include_descendants": ""})

    def upload_image(self, base, title, content, filename, collection_id):
        return self.post_form(
            base,
            "/admin/images/add/",
            {"title": title, "collection": str(collection_id), "description": title},
            files={"file": (filename, content, "image/png")},
        )


IMG_SRC = re.compile(r'<img\b[^>]*\bsrc="([^"]+)"', re.IGNORECASE)


def image_sources(html):
    return [src.replace("&amp;", "&") for src in IMG_SRC.findall(html)]


def object_key(url):
    """The bucket key of a (signed) S3 URL: the same picture has the same key on every server."""
    return urlsplit(url).path.split(f"/{BUCKET}/", 1)[-1]
