"""The headers a browser gets on every kind of response, and the CSP the site and admin run under."""

import re

import pytest
from django.test import Client
from wagtail.test.utils.form_data import (
    nested_form_data,
    querydict_from_html,
    rich_text,
    streamfield,
)

from tests.factories import publish_post

HSTS_SECONDS = 31536000


@pytest.fixture
def https_settings(settings):
    """The HTTPS-only settings production.py turns on (tests/test_production_settings.py checks
    production.py itself)."""
    settings.SECURE_HSTS_SECONDS = HSTS_SECONDS
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    return settings


@pytest.fixture
def post(blog, author, topic):
    return publish_post(blog, "Cooling a GPU rack", authors=[author], topics=[topic])


def csp_directives(header):
    return {
        name: rest
        for name, _, rest in (part.strip().partition(" ") for part in header.split(";"))
        if name
    }


def assert_hardened(response, frame_options="DENY"):
    assert response["Strict-Transport-Security"] == (
        f"max-age={HSTS_SECONDS}; includeSubDomains; preload"
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == frame_options
    assert "Content-Security-Policy" in response


@pytest.mark.django_db
def test_a_post_carries_every_security_header(client, https_settings, post):
    response = client.get(post.url, secure=True)
    assert response.status_code == 200
    assert_hardened(response)


@pytest.mark.django_db
def test_the_404_page_carries_every_security_header(client, https_settings, home):
    response = client.get("/no-such-post/", secure=True)
    assert response.status_code == 404
    assert_hardened(response)


@pytest.mark.django_db
def test_the_500_page_carries_every_security_header(https_settings, home, monkeypatch):
    def broken_paginator(*args, **kwargs):
        raise RuntimeError("search backend fell over")

    monkeypatch.setattr("search.views.Paginator", broken_paginator)
    response = Client(raise_request_exception=False).get("/search/?q=gpu", secure=True)
    assert response.status_code == 500
    assert b"Something went wrong" in response.content
    assert_hardened(response)


def test_static_files_carry_every_security_header(https_settings):
    # Whitenoise reads its settings when the client builds the middleware chain.
    https_settings.WHITENOISE_USE_FINDERS = True
    https_settings.WHITENOISE_AUTOREFRESH = True
    response = Client().get("/static/css/site.css", secure=True)
    assert response.status_code == 200
    assert_hardened(response)
    assert "default-src 'self'" in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_reader_pages_allow_no_inline_script_and_no_framing(client, post):
    policy = csp_directives(client.get(post.url)["Content-Security-Policy"])
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    assert "'unsafe-inline'" not in policy["style-src"]


@pytest.mark.django_db
def test_the_admin_runs_under_its_own_policy(admin_client, post):
    response = admin_client.get(f"/admin/pages/{post.pk}/edit/")
    assert response.status_code == 200
    policy = csp_directives(response["Content-Security-Policy"])
    # Wagtail's widgets initialise with inline scripts; nonces would switch 'unsafe-inline' off.
    assert "'unsafe-inline'" in policy["script-src"]
    assert "nonce-" not in response["Content-Security-Policy"]
    assert policy["frame-ancestors"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["form-action"] == "'self'"


@pytest.mark.django_db
def test_the_editor_preview_may_be_framed_by_the_admin_but_reader_pages_may_not(admin_client, post):
    # The editor's form as the edit view renders it, posted to the preview as the panel does.
    form = querydict_from_html(
        admin_client.get(f"/admin/pages/{post.pk}/edit/").content.decode(),
        form_id="page-edit-form",
    )
    # StreamField data is drawn by the browser, so the body is added as the editor would type it.
    form.update(
        nested_form_data({"body": streamfield([("paragraph", rich_text("<p>Draft text.</p>"))])})
    )
    preview = admin_client.post(f"/admin/pages/{post.pk}/edit/preview/", form)
    assert preview.json() == {"is_valid": True, "is_available": True}
    response = admin_client.get(f"/admin/pages/{post.pk}/edit/preview/")
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert csp_directives(response["Content-Security-Policy"])["frame-ancestors"] == "'self'"

    reader = admin_client.get(post.url)
    assert reader["X-Frame-Options"] == "DENY"
    assert csp_directives(reader["Content-Security-Policy"])["frame-ancestors"] == "'none'"


NONCE = re.compile(r"'nonce-([A-Za-z0-9+/=]+)'")


@pytest.mark.django_db
@pytest.mark.urls("tests.home.nonce_urls")
def test_every_response_gets_a_fresh_nonce(client, home):
    """An inline script's nonce must never be replayed from a cache: two GETs, two nonces."""
    first, second = client.get("/nonce/"), client.get("/nonce/")
    nonces = []
    for response in (first, second):
        header_nonce = NONCE.search(response["Content-Security-Policy"]).group(1)
        assert f'<script nonce="{header_nonce}">'.encode() in response.content
        nonces.append(header_nonce)
    assert nonces[0] != nonces[1]
