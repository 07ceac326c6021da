"""Probes for the load balancer: /healthz says the process answers, /readyz that it can reach
the database. Neither is cached, and neither redirects to HTTPS (SECURE_REDIRECT_EXEMPT)."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

# Their addresses (config/urls.py): the page cache and the site lookup step aside for them, since
# /healthz must answer with the database down.
PROBE_PATHS = ("/healthz", "/readyz")


@never_cache
@require_safe
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


@never_cache
@require_safe
def readyz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("readiness probe: the database is unreachable")
        return HttpResponse("database unreachable\n", content_type="text/plain", status=503)
    return HttpResponse("ok\n", content_type="text/plain")
