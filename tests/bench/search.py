"""Search latency benchmark through the real view, on whatever DATABASE_URL points at.

Adds synthetic posts with the demo generator (use a fresh database: the counts are cumulative;
the generator writes and indexes only the posts not there yet, and the write and index times
shown are for those), then times a fixed set of queries and prints a markdown table: each
query ranked afresh (what a search costs the first time after a publish) and remembered (the
same search again, served from the shared content cache's ranking).
"""

import io
import re
import statistics
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from blog.caching.generation import forget
from blog.models import BlogPage
from search.query import ReaderQuery
from search.views import ranking_name

QUERIES = {
    "one word": "checkpoint",
    "two words": "restore latency",
    "phrase": '"spot instance"',
    "rare word": "jupyter",
    "word in every post": "note",
}
GENERATOR_REPORT = re.compile(r"Wrote (\d+) posts in ([\d.]+) s, indexed them in ([\d.]+) s")
TARGETS_MS = {10_000: 50, 100_000: 150}


def generator_times(report):
    """Posts added, seconds writing them and seconds indexing them, from load_demo's report."""
    found = GENERATOR_REPORT.search(report)
    if found is None:  # nothing was missing
        return 0, 0.0, 0.0
    return int(found[1]), float(found[2]), float(found[3])


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Command(BaseCommand):
    help = "Time reader searches at growing numbers of posts and print a markdown table."

    def add_arguments(self, parser):
        parser.add_argument(
            "--posts",
            default="1000,10000",
            help="Comma-separated numbers of synthetic posts to measure at, smallest first.",
        )
        parser.add_argument("--huge", action="store_true", help="Also measure at 100,000 posts.")
        parser.add_argument("--repeat", type=int, default=30, help="Timed requests per query.")
        parser.add_argument(
            "--explain",
            action="store_true",
            help="Print EXPLAIN ANALYZE of the slowest statement of each query (PostgreSQL).",
        )

    def handle(self, *args, posts, huge, repeat, explain, **options):
        sizes = [int(size) for size in posts.split(",") if size.strip()]
        if huge:
            sizes.append(100_000)
        client = Client(HTTP_HOST="localhost")
        plans = []
        # Rows are printed as they are measured: a long run cut short still shows its figures.
        self.stdout.write(
            "| backend | posts | query | ranked afresh p50 / p95 ms | target | SQL "
            "| remembered p50 / p95 ms | SQL | posts added | write s | index s |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|"
        )
        for size in sizes:
            report = io.StringIO()
            call_command("load_demo", posts=size, no_admin=True, stdout=report)
            added, load_seconds, index_seconds = generator_times(report.getvalue())
            total = BlogPage.objects.count()
            for shape, q in QUERIES.items():
                fresh, fresh_sql, slowest = self.measure(client, q, repeat, afresh=True)
                remembered, remembered_sql, _ = self.measure(client, q, repeat, afresh=False)
                p95 = percentile(fresh, 0.95)
                target = TARGETS_MS.get(size)
                self.stdout.write(
                    f"| {connection.vendor} | {total:,} | {shape} `{q}` "
                    f"| {statistics.median(fresh):.1f} / {p95:.1f} "
                    f"| {'' if target is None else ('ok' if p95 <= target else f'over {target}')} "
                    f"| {fresh_sql} "
                    f"| {statistics.median(remembered):.1f} / {percentile(remembered, 0.95):.1f} "
                    f"| {remembered_sql} | {added:,} | {load_seconds:.1f} | {index_seconds:.1f} |"
                )
                self.stdout.flush()
                if explain and connection.vendor == "postgresql":
                    plans.append((total, shape, slowest))
        for total, shape, sql in plans:
            self.stdout.write(f"\n### {shape} at {total:,} posts, slowest statement\n")
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN ANALYZE " + sql)
                self.stdout.write("\n".join(row[0] for row in cursor.fetchall()))

    def measure(self, client, q, repeat, afresh):
        """Timings of `repeat` searches for q. Afresh, the ranking that the content cache
        remembers between searches is dropped before each one: a query no reader has asked
        since the last publish. The site, its settings and the like stay remembered."""
        client.get("/search/", {"q": q})  # warm caches and create the query's hit rows
        timings = []
        for _ in range(repeat):
            if afresh:
                forget(ranking_name(ReaderQuery.parse(q), None, 0))
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get("/search/", {"q": q})
                timings.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code  # noqa: S101
        slowest = max(captured.captured_queries, key=lambda query: float(query["time"]))
        return timings, len(captured.captured_queries), slowest["sql"]
