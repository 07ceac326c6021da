"""The site a request is for, its root page and its header and footer settings, without a query
each.

Wagtail looks both up on every request (Site.find_for_request, SiteSettings.for_request) and
keeps them on the request. This middleware puts them there first, from the content cache, where
they stay until a site or a setting changes (both bump the content generation). Every site is
remembered as one entry, and the request's picked from it as Wagtail would: a Host header, in
whatever spelling, port or alias, adds no entry. Without the content cache it steps aside and
Wagtail looks them up as usual, only when a page needs them."""

from contextlib import suppress

from django.db import DatabaseError
from wagtail.models import Site

from blog.caching.generation import shared_cache_enabled
from blog.caching.remembered import remember

from .health import PROBE_PATHS
from .library_adapters import (
    give_site,
    matching_site,
    request_hostname,
    settings_for_request,
    site_known,
)
from .models import SiteSettings


def every_site_and_settings():
    """Each site, with its settings."""
    sites = {}
    for site in Site.objects.select_related("root_page"):
        # Routing starts from the root page as itself (site.root_page.specific, a query each
        # time); fetched here, it is kept with the site.
        site.root_page.specific  # noqa: B018
        sites[site] = SiteSettings.for_site(site)
    return sites


def find_site(request):
    """Site.find_for_request, from the content cache when it is on (no query)."""
    if shared_cache_enabled() and not site_known(request):
        sites = remember("sites", every_site_and_settings)
        site = matching_site(list(sites), request_hostname(request), request.get_port())
        give_site(request, site)
    return Site.find_for_request(request)


def site_id(request):
    """The site that serves this request (0 for none), for keys to name instead of the Host
    header: any port, letter case or alias in it reaches the same site, and must not make another
    copy of what is cached for it."""
    site = find_site(request)
    return site.pk if site else 0


class SharedSiteMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if shared_cache_enabled() and request.path not in PROBE_PATHS:
            # In an outage the view meets the database error itself and answers it
            # (home/errors.py); this lookup only saves queries.
            with suppress(DatabaseError):
                self.attach_site(request)
        return self.get_response(request)

    def attach_site(self, request):
        site = find_site(request)  # found already if the page cache looked for it
        site_settings = remember("sites", every_site_and_settings).get(site)
        if site_settings is not None:
            # The remembered settings are one object for every request this process serves:
            # this request's copy alone learns the request, as for_request() does for page URLs.
            site_settings = settings_for_request(site_settings, request)
            setattr(request, SiteSettings.get_cache_attr_name(), site_settings)
