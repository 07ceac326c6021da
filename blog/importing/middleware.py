"""Old WordPress addresses that are only a query on the site's root (`/?p=123`).

Wagtail's redirect middleware looks for a redirect only when a page answers 404, and the home
page answers `/?p=123` with 200. This looks such an address up among the redirects before the
page is served; any other request passes untouched without a query.
"""

from django.http import HttpResponsePermanentRedirect, HttpResponseRedirect
from wagtail.contrib.redirects.middleware import get_redirect
from wagtail.contrib.redirects.models import Redirect

# What WordPress puts after "/?" for a post, a page, a category or a tag.
OLD_QUERY_KEYS = {"p", "page_id", "cat", "tag"}


class OldQueryAddressRedirectMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == "/" and request.GET and OLD_QUERY_KEYS.intersection(request.GET):
            path = Redirect.normalise_path(request.get_full_path(), decode_unicode=False)
            redirect = get_redirect(request, path)
            if redirect is not None and redirect.link:
                kind = (
                    HttpResponsePermanentRedirect if redirect.is_permanent else HttpResponseRedirect
                )
                return kind(redirect.link)
        return self.get_response(request)
