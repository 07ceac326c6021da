"""Each response says how many SQL queries and how many milliseconds the server spent on it
(X-Bench-Queries, X-Bench-Server-Ms), for the editor-actions benchmark to add up what one
click cost. Mounted only by the benchmark's settings, and only when BENCH_COUNT_QUERIES is set:
the reader rows never carry it."""

import time

from django.db import connections


class CountQueries:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        counted = [0]

        def count(execute, sql, params, many, context):
            counted[0] += 1
            return execute(sql, params, many, context)

        started = time.perf_counter()
        wrappers = [connection.execute_wrapper(count) for connection in connections.all()]
        for wrapper in wrappers:
            wrapper.__enter__()
        try:
            response = self.get_response(request)
        finally:
            for wrapper in reversed(wrappers):
                wrapper.__exit__(None, None, None)
        response["X-Bench-Queries"] = str(counted[0])
        response["X-Bench-Server-Ms"] = f"{(time.perf_counter() - started) * 1000:.1f}"
        return response
