"""The full-page cache for anonymous readers.

Two middlewares share the work, as Django's own cache middleware does: the fetch half sits last
in MIDDLEWARE so a hit still passes through the security and CSP middlewares on its way out
(fresh headers, fresh nonces), and the update half sits near the top so it only ever stores the
final response, after every middleware that might add a cookie.

Correctness comes from the key, not from purging: every key holds the content generation
(generation.py), which moves whenever something readers can see changes (invalidation.py). One
bump and every cached page is a miss, so a reader never sees a listing older than the last
publish; a page showing a post that expires is not served past that moment.
"""

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from wagtail import hooks

from blog.visibility import is_visible_to_readers
from home.health import PROBE_PATHS
from home.middleware import site_id

from .generation import content_key
from .remembered import lifetime_until_next_expiry

KEY_PREFIX = "pagecache"
# Never cached, whatever the page says: editors' screens, share links to drafts, and search,
# whose every query must reach the view to be counted for the popular-searches report.
# The load balancer's probes too.
EXCLUDED_PREFIXES = (
    "/admin/",
    "/django-admin/",
    "/share/",
    "/search/",
    "/documents/",
    *PROBE_PATHS,
)
# Cacheable responses that are not Wagtail pages (so the before_serve_page hook never sees them).
PUBLIC_PATHS = frozenset({"/sitemap.xml", "/robots.txt"})
# Query parameters that change nothing on the page; any other parameter bypasses the cache.
IGNORED_PARAM_PREFIXES = ("utm_", "mc_", "_hs")
IGNORED_PARAMS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "ref", "source"})
# Headers that belong to one response and must not be replayed to the next reader.
UNSTORED_HEADERS = frozenset(
    {"content-security-policy", "content-security-policy-report-only", "x-cache", "set-cookie"}
)


def cache_enabled():
    return getattr(settings, "PAGE_CACHE", False)


# Which requests and responses qualify -----------------------------------------------------


def cache_variant(request):
    """The part of the query string a page depends on ("page=N"), "" for none, or None when
    the query holds something the cache cannot stand for."""
    page = ""
    for name, values in request.GET.lists():
        if name == "page":
            value = values[0] if len(values) == 1 else ""
            if not (value.isascii() and value.isdigit() and len(value) <= 6):
                return None
            # The first page is the page without a number: one entry for both.
            page = f"page={int(value)}" if int(value) != 1 else ""
        elif not (name in IGNORED_PARAMS or name.startswith(IGNORED_PARAM_PREFIXES)):
            return None
    return page


def cache_key_for(request):
    """The key for an anonymous reader's GET or HEAD, or None if this request is not one."""
    if request.method not in ("GET", "HEAD") or getattr(request, "is_dummy", False):
        return None
    # A session cookie means an editor or a reader who unlocked a private page: never cached,
    # and checking the cookie rather than request.user costs no session lookup.
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    if request.path.startswith(EXCLUDED_PREFIXES):
        return None
    variant = cache_variant(request)
    if variant is None:
        return None
    # The site, not the Host header: a page names only its site's configured address.
    address = f"{request.scheme}://{site_id(request)}{request.path}?{variant}"
    digest = hashlib.sha256(address.encode()).hexdigest()
    return f"{content_key(KEY_PREFIX)}:{digest}"


@hooks.register("before_serve_page")
def mark_public_page(page, request, serve_args, serve_kwargs):
    """Only a page every reader may see may be stored."""
    if getattr(request, "_page_cache_key", None) is None:
        return
    if is_visible_to_readers(page):
        request._page_cache_public = True


def reads_page_number(request):
    """Called by a view whose answer depends on ?page=: only its numbered pages are stored."""
    request._page_cache_reads_page = True


def is_storable(request, response):
    if request.method != "GET" or getattr(request, "is_preview", False):
        return False
    # Elsewhere ?page=2…999999 would each store one more copy of the same page.
    if cache_variant(request) and not getattr(request, "_page_cache_reads_page", False):
        return False
    if not (getattr(request, "_page_cache_public", False) or request.path in PUBLIC_PATHS):
        return False
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    control = response.get("Cache-Control", "").lower()
    if "private" in control or "no-store" in control or "no-cache" in control:
        return False
    # A page whose body carries this response's CSP nonce can't be replayed to anyone else.
    # django-csp's lazy request.csp_nonce is true once something has used it.
    if getattr(request, "csp_nonce", None):
        return False
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


def mark_for_readers(response):
    # Browsers and shared caches revalidate every time: only this cache knows about publishes.
    patch_cache_control(response, public=True, max_age=0)
    return response


# The middlewares --------------------------------------------------------------------------


class PageCacheFetchMiddleware:
    """Last in MIDDLEWARE: answers a reader's request from the cache when it can."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if cache_enabled():
            key = cache_key_for(request)
            request._page_cache_key = key
            entry = cache.get(key) if key else None
            if entry is not None and entry["until"] > time.time():
                request._page_cache_hit = True
                response = HttpResponse(entry["content"], status=entry["status"])
                for name, value in entry["headers"]:
                    response[name] = value
                response["X-Cache"] = "HIT"
                return response
        return self.get_response(request)


class PageCacheUpdateMiddleware:
    """Near the top of MIDDLEWARE: stores the final response of a cacheable miss."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not cache_enabled() or getattr(request, "_page_cache_hit", False):
            return response
        key = getattr(request, "_page_cache_key", None)
        if key is None or not is_storable(request, response):
            response["X-Cache"] = "BYPASS"
            return response
        mark_for_readers(response)
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        headers = [
            (name, value)
            for name, value in response.headers.items()
            if name.lower() not in UNSTORED_HEADERS
        ]
        lifetime = lifetime_until_next_expiry(settings.PAGE_CACHE_TTL)
        entry = {
            "status": response.status_code,
            "headers": headers,
            "content": response.content,
            "until": time.time() + lifetime,
        }
        cache.set(key, entry, math.ceil(lifetime))
        response["X-Cache"] = "MISS"
        return response
