"""Mixed reader traffic against gunicorn + a private PostgreSQL: post pages 70 %, listings 15 %,
search 10 %, static files 5 %, for a fixed time. Prints requests, 5xx, p50/p95/p99 and, with
--soak, each worker's resident memory at the start and end of a longer run.

`make load` (LOAD_ARGS="--duration 10 --soak 60"), or `python -m tests.ops.load`.
"""

import argparse
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin

import requests

from .rig import running_rig, worker_rss_kib

MIX = (("post", 70), ("index", 15), ("search", 10), ("static", 5))
SEARCHES = ["cooling", "rack", "gpu", "load post", "outage", "nothing matches this"]
STATIC_LINK = re.compile(r'(?:href|src)="(/static/[^"]+)"')


@dataclass
class Run:
    label: str
    seconds: float
    latencies_ms: list = field(default_factory=list)
    statuses: dict = field(default_factory=dict)
    errors: int = 0

    @property
    def requests(self):
        return len(self.latencies_ms) + self.errors

    @property
    def server_errors(self):
        return sum(n for status, n in self.statuses.items() if status >= 500) + self.errors

    def percentile(self, share):
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def addresses(base, seeded):
    home = requests.get(base, timeout=10)
    home.raise_for_status()
    statics = sorted(set(STATIC_LINK.findall(home.text))) or ["/static/css/site.css"]
    # The listing's second page only when the listing links one: past the last page is a 404.
    listing = requests.get(urljoin(base, seeded["blog_url"]), timeout=10)
    listing.raise_for_status()
    older = [seeded["blog_url"] + "?page=2"] if 'rel="next"' in listing.text else []
    return {
        "post": seeded["post_urls"],
        "index": ["/", seeded["blog_url"], *older],
        "search": [f"/search/?q={q}" for q in SEARCHES],
        "static": statics,
    }


def drive(base, paths, seconds, concurrency, label, seed=0):
    """`concurrency` readers, each requesting as fast as answers come, for `seconds`."""
    run = Run(label, seconds)
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    kinds, weights = zip(*MIX, strict=True)

    def reader(n):
        picker = random.Random(seed * 1000 + n)
        session = requests.Session()
        while time.monotonic() < stop_at:
            kind = picker.choices(kinds, weights)[0]
            url = urljoin(base, picker.choice(paths[kind]))
            started = time.perf_counter()
            try:
                status = session.get(url, timeout=30).status_code
            except requests.RequestException:
                with lock:
                    run.errors += 1
                continue
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                run.latencies_ms.append(elapsed)
                run.statuses[status] = run.statuses.get(status, 0) + 1

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return run


def table(runs):
    lines = [
        "| run | seconds | requests | req/s | 5xx | statuses | p50 ms | p95 ms | p99 ms |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        statuses = ", ".join(f"{s}×{n}" for s, n in sorted(run.statuses.items()))
        lines.append(
            f"| {run.label} | {run.seconds:g} | {run.requests} | {run.requests / run.seconds:.1f}"
            f" | {run.server_errors} | {statuses} | {run.percentile(0.50):.0f}"
            f" | {run.percentile(0.95):.0f} | {run.percentile(0.99):.0f} |"
        )
    return "\n".join(lines)


def memory_table(before, after):
    lines = ["| worker | RSS start MiB | RSS end MiB | growth MiB |", "|---|---|---|---|"]
    for pid in sorted(before):
        if pid in after:
            start, end = before[pid] / 1024, after[pid] / 1024
            lines.append(f"| {pid} | {start:.1f} | {end:.1f} | {end - start:+.1f} |")
        else:
            lines.append(f"| {pid} | {before[pid] / 1024:.1f} | (recycled) | |")
    return "\n".join(lines)


def run_load(rig, base, duration, concurrency, soak=0):
    """The timed mixed run, then optionally the soak; returns (runs, memory table or "")."""
    paths = addresses(base, rig.seeded)
    # Warm every worker's imports and the page cache, so start-of-soak memory is steady state.
    drive(base, paths, 3, concurrency, "warm-up")
    runs = [drive(base, paths, duration, concurrency, "mixed", seed=1)]
    memory = ""
    if soak:
        master = rig.webs[base].popen.pid
        before = worker_rss_kib(master)
        runs.append(drive(base, paths, soak, concurrency, "soak", seed=2))
        memory = memory_table(before, worker_rss_kib(master))
    return runs, memory


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=10, help="seconds of mixed traffic")
    parser.add_argument("--soak", type=float, default=0, help="seconds of soak (memory)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--posts", type=int, default=30)
    args = parser.parse_args()
    with running_rig(posts=args.posts, redis=True) as rig:
        # No worker recycling: the soak must show growth, not hide it behind restarts.
        base = rig.start_web("web", workers=args.workers, GUNICORN_MAX_REQUESTS="0")
        rig.wait_until_serving(base)
        runs, memory = run_load(rig, base, args.duration, args.concurrency, args.soak)
    sys.stdout.write(table(runs) + "\n")
    if memory:
        sys.stdout.write("\n" + memory + "\n")
    sys.exit(1 if any(run.server_errors for run in runs) else 0)


if __name__ == "__main__":
    main()
