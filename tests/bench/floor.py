"""The benchmark's floor: a fixed page as big as the blog index, through the same server and
middleware, so each page's requests/s can be read as a share of what Django itself allows.
Mounted only by the benchmark's settings (tests/bench/settings.py); never in a deployment."""

import os

from django.http import HttpResponse

# tests/bench/run.py sets the size of the blog index it measured; 22 kB is the demo index's size.
FLOOR_BYTES = int(os.environ.get("BENCH_FLOOR_BYTES", "22000"))
HEAD = b"<!doctype html><title>floor</title>"
FLOOR_PAGE = HEAD + b"x" * max(0, FLOOR_BYTES - len(HEAD))


def floor(request):
    return HttpResponse(FLOOR_PAGE)
