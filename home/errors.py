"""The server-error page: a lost database connection is an outage readers wait out (503 with
Retry-After), anything else is our bug (500). A number too large for the database, or a NUL
character or a malformed value sent to the admin, is the request's fault (400)."""

import logging
import sys

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseServerError
from django.template import loader
from django.urls import NoReverseMatch
from django.utils.cache import add_never_cache_headers
from django.views.decorators.csrf import requires_csrf_token
from modelsearch.backends.base import FilterFieldError

logger = logging.getLogger(__name__)

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
            return bad_request()
        return None


def bad_request():
    return HttpResponseBadRequest(loader.get_template("400.html").render())


class AdminBadRequestMiddleware:
    """400, not 500, for what a hand-edited admin address sends that Wagtail's views do not
    expect: a NUL character in the path, the query or a posted form (refused before any view),
    or a value a view fails to convert (an id "x", a parent page "-1", a `next` naming no
    address).

    PostgreSQL refuses NUL in text, and many admin views hand what they are sent to a query
    (a chooser's tag filter, a bulk action's ids, the tag autocomplete, an editing session's
    id …); others turn a parameter into a number or an address unchecked. No text anyone types
    holds a NUL, and uploaded files, which are binary, are not looked at. Reader pages take
    both in their stride (tests/test_fuzz.py), so only the admin is guarded. Each refusal is
    logged with its traceback: a bug of ours that raises one of these shows in the log. After
    the request body cap, which must judge a body before it is read here.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_admin(request) and (
            "\x00" in request.path_info
            or holds_nul(request.GET)
            or (request.method == "POST" and holds_nul(request.POST))
        ):
            return bad_request()
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_admin(request) and isinstance(exception, MALFORMED_INPUT):
            logger.warning("Bad admin request: %s", request.get_full_path(), exc_info=exception)
            return bad_request()
        return None


# What Wagtail's and Django's admin views raise on input they did not expect: int("x"), a
# model field's to_python, {% url %} with a parameter of the wrong shape, and the image
# chooser's search combined with a tag filter, which modelsearch cannot index.
MALFORMED_INPUT = (ValueError, ValidationError, NoReverseMatch, FilterFieldError)


def is_admin(request):
    return request.path_info.startswith(settings.ADMIN_URL_PREFIX)


def holds_nul(query):
    return any(
        "\x00" in name or any("\x00" in value for value in values) for name, values in query.lists()
    )
