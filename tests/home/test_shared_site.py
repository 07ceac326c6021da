"""The site and its settings come from the content cache, one object per process for every
request: each request must still get settings of its own."""

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

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
