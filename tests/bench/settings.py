"""The production settings with the benchmark's floor page mounted (tests/bench/urls.py):
the servers `make bench` starts use these, so a deployment never has the floor."""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "tests.bench.urls"
