"""The site and its settings come from the content cache, one object per process for every
request: each request must still get settings of its own."""

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from wagtail.models import Site

from home.middleware import SharedSiteMiddleware
from home.models import SiteSettings

pytestmark = pytest.mark.django_db


def test_two_requests_in_one_process_each_keep_settings_that_know_them(content_cache):
    seen = []
    middleware = SharedSiteMiddleware(
        lambda request: seen.append(SiteSettings.for_request(request)) or HttpResponse()
    )
    first, second = RequestFactory().get("/blog/"), RequestFactory().get("/blog/")
    middleware(first)
    middleware(second)  # served from what the first request remembered
    assert seen[0].brand_name == seen[1].brand_name
    assert (seen[0]._request, seen[1]._request) == (first, second)


@pytest.mark.parametrize("with_default", [True, False], ids=["a default site", "no default"])
def test_each_host_and_port_gets_the_site_wagtail_would_find(content_cache, home, with_default):
    Site.objects.filter(is_default_site=True).update(is_default_site=with_default)
    for hostname, port in [("blog.example", 80), ("blog.example", 8080), ("one.example", 80)]:
        Site.objects.create(hostname=hostname, port=port, root_page=home)
    Site.objects.create(hostname="localhost", port=8000, root_page=home)
    Site.objects.create(hostname="two.example", port=81, root_page=home)
    Site.objects.create(hostname="two.example", port=82, root_page=home)
    middleware = SharedSiteMiddleware(lambda request: HttpResponse())
    for host in ("localhost", "blog.example", "one.example", "two.example", "else.example"):
        for port in ("80", "81", "443", "8000", "8080"):
            request = RequestFactory().get("/", HTTP_HOST=host, SERVER_PORT=port)
            middleware(request)
            wagtails = Site.find_for_request(
                RequestFactory().get("/", HTTP_HOST=host, SERVER_PORT=port)
            )
            assert request._wagtail_site == wagtails, (host, port)
