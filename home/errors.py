"""The server-error page: a lost database connection is an outage readers wait out (503 with
Retry-After), anything else is our bug (500). A number too large for the database is the
request's fault (400)."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseServerError
from django.template import loader
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import requires_csrf_token

# Long enough for PostgreSQL to restart or fail over; short enough that a reader retries soon.
DATABASE_OUTAGE_RETRY_AFTER = 30


def database_is_unreachable(error):
    # Django wraps the driver's connection errors in these two; other DatabaseErrors (bad SQL,
    # integrity) are bugs and stay 500s.
    return isinstance(error, OperationalError | InterfaceError)


@requires_csrf_token
def server_error(request):
    """handler500: Django calls it inside its except block, so the error is still at hand."""
    error = sys.exc_info()[1]
    if database_is_unreachable(error):
        # Rendered without the request: context processors would query the database again.
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
        response["Retry-After"] = str(DATABASE_OUTAGE_RETRY_AFTER)
        # A proxy or CDN must not keep serving the outage page once the database is back.
        add_never_cache_headers(response)
        return response
    return HttpResponseServerError(loader.get_template("500.html").render())


class NumberOutOfRangeMiddleware:
    """400, not 500, for a number in a request too large for SQLite (OverflowError).

    Django's and Wagtail's admin filters hand a hand-edited `?owner=99999999999999999999999`
    to the database as it is; PostgreSQL finds nothing, SQLite's driver raises.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OverflowError):
            return HttpResponseBadRequest(loader.get_template("400.html").render())
        return None
