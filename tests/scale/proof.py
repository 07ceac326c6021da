# ruff: noqa: T201, S607 - a command-line report that runs wrk from PATH
"""`make scale-proof`: bring up the loopback cluster, show that two servers share everything, and
measure requests/s of one app server against two under the same wrk load.

    python -m tests.scale.proof [--seconds 10] [--connections 8]

DATABASE_URL names the PostgreSQL server (its database part is ignored): a template database
`cedana_scale_template` is migrated there on the first run and copied for every later run.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import psycopg
import requests
from psycopg import sql

from .cluster import Cluster, ClusterError, Database, Editor, image_sources, object_key

TEMPLATE = "cedana_scale_template"


def prepare_template(server_url, cluster):
    template = Database(server_url, TEMPLATE)
    with psycopg.connect(template.admin_url, autocommit=True) as admin:
        exists = admin.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (TEMPLATE,)
        ).fetchone()
        if not exists:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))
    print(f"migrating {TEMPLATE} (slow only the first time)...", flush=True)
    cluster.manage("migrate", "--noinput", "-v0", env=cluster.env(DATABASE_URL=template.url))
    return template


def wrk(targets, seconds, connections):
    """Run one wrk per target at once, splitting the connections; total requests/s and errors."""
    share = max(1, connections // len(targets))
    runs = [
        subprocess.Popen(  # noqa: S603 - fixed argv
            ["wrk", "-t1", f"-c{share}", f"-d{seconds}s", "--timeout", "30s", "--latency", url],
            stdout=subprocess.PIPE,
            text=True,
        )
        for url in targets
    ]
    total, errors, p99 = 0.0, 0, []
    for run in runs:
        out, _ = run.communicate(timeout=seconds + 60)
        total += float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        found = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
        errors += int(found.group(1)) if found else 0
        found = re.search(r"Socket errors:.*timeout (\d+)", out)
        errors += int(found.group(1)) if found else 0
        found = re.search(r"99%\s+([\d.]+\w+)", out)
        p99.append(found.group(1) if found else "?")
    return total, errors, "/".join(p99)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        raise ClusterError("wrk is missing: apt-get install -y wrk")
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    workdir = tempfile.mkdtemp(prefix="scale-proof-")
    database = Database(server, "cedana_scale_proof")
    rig = Cluster(workdir, database.url)
    try:
        template = prepare_template(server, rig)
        database.create_from(template.name)
        rig.start_redis()
        rig.start_object_store()
        rig.collectstatic()
        seeded = json.loads(rig.run_python("from tests.scale.seed import seed; seed()"))
        # One sync worker per server, so "two servers" means twice the workers on two cores.
        a, b = rig.start_web("web-a", workers=1), rig.start_web("web-b", workers=1)
        rig.start_scheduler("scheduler-1")
        rig.start_scheduler("scheduler-2")
        rig.wait_until_serving(a, b)

        checks = []
        editor = Editor()
        editor.log_in(a)
        published = editor.publish(a, seeded["draft_id"]).status_code == 200
        seen_on_b = "Fresh from server A" in requests.get(b + seeded["blog_url"], timeout=30).text
        checks.append(("published on A, listed on B", published and seen_on_b))
        found = requests.get(b + "/search/?q=Fresh", timeout=30).text
        checks.append(("published on A, found by search on B", seeded["draft_url"] in found))
        post = seeded["posts"]["GPU burn-in notes"]
        pictures = image_sources(requests.get(a + post, timeout=30).text)
        on_b = image_sources(requests.get(b + post, timeout=30).text)
        # Signed URLs differ by their signature time; the object key is what must match.
        same = [object_key(src) for src in pictures] == [object_key(src) for src in on_b]
        served = all(requests.get(src, timeout=10).status_code == 200 for src in pictures)
        checks.append(
            ("rendition made on A served to B from S3", bool(pictures) and same and served)
        )
        checks.append(
            ("editor session from A valid on B", editor.get(b, "/admin/").url.endswith("/admin/"))
        )

        for base in (a, b):  # warm both servers (templates, connections, renditions)
            wrk([base + post], 2, 2)
        one = wrk([a + post], args.seconds, args.connections)
        two = wrk([a + post, b + post], args.seconds, args.connections)

        print("\nChecks")
        for name, ok in checks:
            print(f"  {'PASS' if ok else 'FAIL'}  {name}")
        print(
            f"\nRequests/s, one app server against two: wrk, {args.connections} connections, "
            f"{args.seconds}s, GET {post}\n"
            f"(loopback, one sync worker per server, {os.cpu_count()} cores shared with wrk, "
            "PostgreSQL and Redis)"
        )
        print(f"  {'servers':<8} {'workers':>7} {'req/s':>9} {'errors':>8} {'p99':>14}")
        for servers, (rate, errors, p99) in ((1, one), (2, two)):
            print(f"  {servers:<8} {servers:>7} {rate:>9.1f} {errors:>8} {p99:>14}")
        print(f"  speed-up {two[0] / one[0]:.2f}x")
        return 0 if all(ok for _, ok in checks) and not one[1] and not two[1] else 1
    except ClusterError as error:
        print(f"scale-proof: {error}\n{rig.logs()}", file=sys.stderr)
        return 2
    finally:
        rig.close()
        database.drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
