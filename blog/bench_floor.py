"""The benchmark's floor: a fixed page as big as the blog index, through the same server and
middleware, so each page's requests/s can be read as a share of what Django itself allows.
Mounted only when BENCH_FLOOR=1 (config/urls.py); never in a normal deployment."""

from django.http import HttpResponse

FLOOR_BYTES = 22_000
FLOOR_PAGE = ("<!doctype html><title>floor</title>" + "x" * FLOOR_BYTES).encode()


def floor(request):
    return HttpResponse(FLOOR_PAGE)
