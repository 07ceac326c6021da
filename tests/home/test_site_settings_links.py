"""The header's sign-in and call-to-action links go where the editor meant: a path on this site
or an http(s) address, never somewhere a browser would read as another site."""

import pytest
from django.core.exceptions import ValidationError
from wagtail.models import Site

from home.models import SiteSettings, validate_link

OFF_SITE = [
    "//evil.example",
    "/\\evil.example/",  # browsers read a backslash as a slash
    "/\t/evil.example",  # and drop tabs and newlines anywhere
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\\\t\\evil.example",  # which Django's url_has_allowed_host_and_scheme lets through
    "\x01/\\evil.example",
    "\\\\evil.example",
    "///evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " //evil.example",
    "\t//evil.example",
    "mailto:someone@example.com",  # only paths and http(s) addresses, as the help text says
]
ACCEPTED = [
    "/",
    "/admin/",
    "/blog/",
    "/blog/?topic=x",
    "/blog/#latest",
    "/%09/evil.example",  # percent-encoded, the tab stays part of this site's path
    "https://example.com/",
    "http://example.com/demo?ref=header",
]


@pytest.mark.parametrize("link", OFF_SITE)
def test_a_link_a_browser_would_take_off_site_is_refused(link):
    with pytest.raises(ValidationError):
        validate_link(link)


@pytest.mark.parametrize("link", ACCEPTED)
def test_paths_on_this_site_and_web_addresses_are_accepted(link):
    validate_link(link)


@pytest.mark.django_db
def test_the_editor_is_told_why_the_link_was_refused(admin_client, home):
    site = Site.objects.get(is_default_site=True)
    response = admin_client.post(
        f"/admin/settings/home/sitesettings/{site.pk}/",
        {
            "brand_name": "cedana",
            "login_label": "Login",
            "login_url": "/admin/",
            "cta_label": "Schedule demo",
            "cta_url": "/\\evil.example/",
            "footer_text": "",
        },
    )
    assert response.status_code == 200  # the form again, not a redirect after saving
    assert "starts with a single / followed by something other than / or \\" in (
        response.content.decode()
    )
    assert SiteSettings.objects.get(site=site).cta_url == "https://example.com/demo"
