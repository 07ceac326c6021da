"""Fault rehearsals on loopback: PostgreSQL restarted while serving, Redis stopped, the scheduler
killed mid-run. `make faults` (or `python -m tests.ops.faults`) prints a table and exits non-zero
if any scenario fails; tests/ops/test_faults.py runs the same scenarios under pytest.
"""

import argparse
import json
import os
import signal
import sys
import time
from urllib.parse import urljoin

import requests

from .rig import running_rig, worker_rss_kib

READABLE_OUTAGE_TEXT = "The blog is briefly unavailable."


class ScenarioFailed(AssertionError):
    """A fault scenario saw behaviour a reader or operator would notice."""


def check(condition, message):
    if not condition:
        raise ScenarioFailed(message)


def get(base, path):
    return requests.get(urljoin(base, path), timeout=10)


def reader_paths(rig):
    posts = rig.seeded["post_urls"]
    return ["/", rig.seeded["blog_url"], posts[0], posts[-1], "/search/?q=cooling"]


def postgres_restart(rig, base):
    """PostgreSQL stops while the app serves: 503 pages (never 500), /readyz 503, then the same
    workers serve again once it is back, without restarting gunicorn."""
    paths = reader_paths(rig)
    check(all(get(base, p).status_code == 200 for p in paths), "pages not 200 before the outage")
    master = rig.webs[base].popen.pid
    workers_before = set(worker_rss_kib(master))
    rig.postgres.stop()
    outage = [get(base, p) for p in [*paths, "/readyz"] * 3]
    statuses = sorted({r.status_code for r in outage})
    check(500 not in statuses, f"a 500 during the outage: {statuses}")
    check(set(statuses) <= {200, 503}, f"unexpected statuses during the outage: {statuses}")
    unavailable = [r for r in outage if r.status_code == 503]
    check(unavailable, "no request noticed the outage (everything came from a cache?)")
    pages = [r for r in unavailable if not r.url.endswith("/readyz")]
    check(pages, "no reader page answered 503")
    check(
        all(READABLE_OUTAGE_TEXT in r.text and r.headers.get("Retry-After") for r in pages),
        "a 503 page without the readable text or Retry-After",
    )
    check(get(base, "/readyz").status_code == 503, "/readyz did not report the outage")
    outage_at = time.monotonic()
    rig.postgres.start()
    recovered_in = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if all(get(base, p).status_code == 200 for p in [*paths, "/readyz"]):
            recovered_in = time.monotonic() - outage_at
            break
        time.sleep(0.5)
    check(recovered_in is not None, "pages did not come back within 30 s of PostgreSQL's restart")
    check(rig.webs[base].running, "gunicorn exited")
    check(set(worker_rss_kib(master)) == workers_before, "gunicorn's workers were replaced")
    return (
        f"{len(outage)} requests during the outage: {len(unavailable)}×503, "
        f"{len(outage) - len(unavailable)}×200 (cached), 0×500; "
        f"all pages 200 again {recovered_in:.1f} s after PostgreSQL restarted"
    )


def redis_stopped(rig, base):
    """Redis goes away: every reader page is still served (uncached)."""
    check(rig.redis is not None, "the rig runs without Redis")
    paths = reader_paths(rig)
    check(all(get(base, p).status_code == 200 for p in paths), "pages not 200 with Redis up")
    rig.stop_redis()
    started = time.monotonic()
    responses = [get(base, p) for p in paths * 3]
    elapsed = time.monotonic() - started
    statuses = sorted({r.status_code for r in responses})
    check(statuses == [200], f"statuses with Redis stopped: {statuses}")
    return f"{len(responses)} requests with Redis stopped, all 200, {elapsed:.1f} s in total"


PUBLISH_COUNT_SQL = """
SELECT page_id, count(*) FROM wagtailcore_pagelogentry
WHERE action = 'wagtail.publish.scheduled' AND page_id = ANY(%s) GROUP BY page_id
"""


def scheduler_killed(rig, base, count=40):
    """SIGKILL the scheduler while it publishes a batch; a fresh one finishes it. Every post is
    live and has exactly one scheduled-publish log entry."""
    ids = json.loads(
        rig.run_python(f"from tests.ops.seed import schedule_due; schedule_due({count})")
    )
    with rig.postgres.connect() as conn:

        def published():
            return dict(conn.execute(PUBLISH_COUNT_SQL, (ids,)).fetchall())

        first = rig.start_scheduler("scheduler-first", interval=1)
        deadline = time.monotonic() + 120
        while not published() and time.monotonic() < deadline:
            check(first.running, f"the scheduler exited:\n{first.tail()}")
            time.sleep(0.02)
        os.killpg(first.popen.pid, signal.SIGKILL)
        first.popen.wait(10)
        at_kill = len(published())
        check(0 < at_kill < count, f"the kill did not land mid-batch ({at_kill} of {count} done)")

        second = rig.start_scheduler("scheduler-second", interval=1)
        deadline = time.monotonic() + 180
        while len(published()) < count and time.monotonic() < deadline:
            check(second.running, f"the restarted scheduler exited:\n{second.tail()}")
            time.sleep(0.5)
        second.stop()
        counts = published()
        live = conn.execute(
            "SELECT count(*) FROM wagtailcore_page WHERE live AND id = ANY(%s)", (ids,)
        ).fetchone()[0]
    check(len(counts) == count, f"only {len(counts)} of {count} posts were published")
    twice = sorted(pk for pk, n in counts.items() if n != 1)
    check(not twice, f"posts published more than once: {twice}")
    check(live == count, f"{live} of {count} posts are live")
    for url in [rig.seeded["blog_url"]]:
        check(get(base, url).status_code == 200, "the blog index fails after the batch")
    return (
        f"killed with {at_kill}/{count} published; after restart {count}/{count} live, "
        "each with exactly one publish log entry"
    )


SCENARIOS = {
    "scheduler killed mid-batch": scheduler_killed,
    "Redis stopped": redis_stopped,
    # Last: the others need the database.
    "PostgreSQL restarted while serving": postgres_restart,
}


def start_app_server(rig):
    """gunicorn as in production, minus the recycling of a worker after ~1,000 requests: the
    outage must leave the same workers serving, and a recycle would replace one for another
    reason (the load before it reaches that count on a fast machine)."""
    return rig.start_web("web", workers=2, GUNICORN_MAX_REQUESTS="0")


def run(selected=None, out=sys.stdout):
    rows, failed = [], False
    with running_rig(posts=10, redis=True) as rig:
        base = start_app_server(rig)
        rig.wait_until_serving(base)
        for name, scenario in SCENARIOS.items():
            if selected and name not in selected:
                continue
            try:
                rows.append((name, "pass", scenario(rig, base)))
            except ScenarioFailed as error:
                failed = True
                rows.append((name, "FAIL", str(error).splitlines()[0]))
                print(f"--- {name} ---\n{error}\n{rig.logs()}", file=sys.stderr)  # noqa: T201
    out.write("| scenario | result | what happened |\n|---|---|---|\n")
    for row in rows:
        out.write("| " + " | ".join(row) + " |\n")
    return not failed


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", action="append", choices=list(SCENARIOS))
    args = parser.parse_args()
    sys.exit(0 if run(args.only) else 1)


if __name__ == "__main__":
    main()
