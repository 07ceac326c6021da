"""The site a request is for, its root page and its header and footer settings, without a query
each.

Wagtail looks both up on every request (Site.find_for_request, SiteSettings.for_request) and
keeps them on the request. This middleware puts them there first, from the content cache, where
they stay until a site or a setting changes (both bump the content generation). Without the
content cache it steps aside and Wagtail looks them up as usual, only when a page needs them."""

import copy
from contextlib import suppress

from django.db import DatabaseError
from django.http.request import split_domain_port
from wagtail.models import Site

from blog.generation import remember, shared_cache_enabled

from .health import PROBE_PATHS
from .models import SiteSettings


def site_and_settings(request):
    site = Site._find_for_request(request)
    if site is None:
        return None, None
    # Routing starts from the root page as itself (site.root_page.specific, a query each time);
    # fetched here, it is kept with the site.
    site.root_page.specific  # noqa: B018
    return site, SiteSettings.for_site(site)


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
        # The same host and port Wagtail matches sites on (the host is one ALLOWED_HOSTS let in).
        hostname = split_domain_port(request._get_raw_host())[0]
        site, site_settings = remember(
            f"site:{hostname}:{request.get_port()}", lambda: site_and_settings(request)
        )
        request._wagtail_site = site
        if site_settings is not None:
            # The remembered settings are one object for every request this process serves:
            # this request's copy alone learns the request, as for_request() does for page URLs.
            site_settings = copy.copy(site_settings)
            site_settings._request = request
            setattr(request, SiteSettings.get_cache_attr_name(), site_settings)
