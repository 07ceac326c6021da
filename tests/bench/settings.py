"""The production settings with the benchmark's floor page mounted (tests/bench/urls.py):
the servers `make bench` starts use these, so a deployment never has the floor."""

import os

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "tests.bench.urls"

if os.environ.get("BENCH_COUNT_QUERIES"):
    # The editor-actions rows: each response says what it cost (tests/bench/querycount.py).
    MIDDLEWARE = ["tests.bench.querycount.CountQueries", *MIDDLEWARE]  # noqa: F405
