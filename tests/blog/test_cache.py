"""The page cache serves anonymous readers fast and never serves them anything stale or private."""

import io
import re
import secrets
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import Client
from django.utils import timezone
from wagtail.models import PageViewRestriction

from blog import serving
from blog.caching.pages import is_storable
from home.models import SiteSettings
from home.security import ContentSecurityPolicyMiddleware
from tests.factories import draft_post, publish_post
from tests.services import redis_location

pytestmark = pytest.mark.django_db

NONCE_IN_POLICY = re.compile(r"'nonce-([^']+)'")


@pytest.fixture(autouse=True)
def page_cache_on(page_cache):
    """Every test here reads through the page cache."""


@pytest.fixture
def redis_cache(settings):
    """The production cache backend against the machine's Redis (db 15, emptied first)."""
    location = redis_location(15, flush=True)
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": {"IGNORE_EXCEPTIONS": True},
        }
    }


def time_passes(**delta):
    return time_machine.travel(timezone.now() + timedelta(**delta), tick=False)


def titles(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [a.get_text(strip=True) for a in soup.select(".card__title a, .featured__title a")]


@pytest.fixture
def post(blog, author, topic):
    return publish_post(blog, "First post", authors=[author], topics=[topic])


# The site's address (its Site record says localhost, port 80) and the other ALLOWED_HOSTS, which
# reach it as the default site, spelt with any port and letter case.
HOST_SPELLINGS = [
    *(f"localhost:{port}" for port in range(20001, 20011)),
    "LOCALHOST",
    "LocalHost:8080",
    "127.0.0.1",
    "127.0.0.1:20001",
    "testserver",
    "TestServer:443",
]


def cache_entries(settings):
    return sorted(Path(settings.CACHES["default"]["LOCATION"]).iterdir())


def share_picture(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return soup.select_one('meta[property="og:image"]')["content"]


def head_addresses(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [
        tag.get("href") or tag.get("content")
        for tag in soup.select("head [href], head meta[content^=http]")
    ]


def test_a_readers_second_visit_is_served_from_the_cache(client, post):
    first = client.get("/blog/")
    second = client.get("/blog/")
    assert first["X-Cache"] == "MISS"
    assert second["X-Cache"] == "HIT"
    assert second.content == first.content
    assert "public" in second["Cache-Control"]
    assert "max-age=0" in second["Cache-Control"]


def test_tracking_parameters_share_the_cached_page_but_other_pages_do_not(client, post):
    client.get("/blog/")
    assert client.get("/blog/?utm_source=mail&fbclid=x")["X-Cache"] == "HIT"
    assert client.get("/blog/?page=1")["X-Cache"] == "HIT"
    assert client.get("/blog/?page=abc")["X-Cache"] == "BYPASS"
    assert client.get("/blog/?q=anything")["X-Cache"] == "BYPASS"


def test_parameters_a_page_does_not_read_add_no_cache_entries(client, settings, post):
    first = client.get("/blog/")
    assert first["X-Cache"] == "MISS"
    stored = cache_entries(settings)
    for n in range(1, 31):
        response = client.get(f"/blog/?utm_x={n}")
        assert response["X-Cache"] == "HIT"
        assert response.content == first.content
    assert client.get("/blog/?page=01&utm_x=1&fbclid=2")["X-Cache"] == "HIT"
    assert cache_entries(settings) == stored
    # Nothing else on the site reads ?page=, so no number stores a copy of a post or a feed.
    for address in (post.url, "/blog/feed/", "/sitemap.xml", "/robots.txt", "/"):
        client.get(address)
        stored = cache_entries(settings)
        for n in range(2, 32):
            assert client.get(f"{address}?page={n}").status_code == 200
        assert cache_entries(settings) == stored, address


def test_a_page_past_the_last_is_not_found_and_not_stored(client, settings, post):
    client.get("/blog/")
    client.get("/blog/?page=2")  # the not-found page's own chrome may be kept, once
    stored = cache_entries(settings)
    for n in range(3, 33):
        response = client.get(f"/blog/?page={n}")
        assert response.status_code == 404
        assert response["X-Cache"] == "BYPASS"
    assert client.get("/blog/?page=999").status_code == 404
    assert cache_entries(settings) == stored


def test_addresses_that_name_no_post_are_not_found_and_not_stored(client, settings, post):
    assert client.get(post.url).status_code == 200
    client.get("/blog/no-such-post/")  # the not-found page's own chrome may be kept, once
    stored = cache_entries(settings)
    for n in range(30):
        response = client.get(f"/blog/no-such-post-{n}/")
        assert response.status_code == 404
        assert response["X-Cache"] == "BYPASS"
    assert cache_entries(settings) == stored
    # The post itself is still found and served.
    assert client.get(post.url).status_code == 200


def test_editors_never_get_or_fill_the_cache(client, admin_user, post):
    client.force_login(admin_user)
    assert client.get("/blog/")["X-Cache"] == "BYPASS"
    client.logout()
    client.cookies.clear()
    assert client.get("/blog/")["X-Cache"] == "MISS"


def test_search_and_the_admin_always_reach_their_views(client, post):
    for _ in range(2):
        assert client.get("/search/")["X-Cache"] == "BYPASS"
        assert client.get("/admin/login/")["X-Cache"] == "BYPASS"


@pytest.mark.parametrize("restriction", ["password", "login"])
def test_a_private_post_is_never_cached(client, post, restriction):
    PageViewRestriction.objects.create(page=post, restriction_type=restriction, password="pw")
    for _ in range(2):
        response = client.get(post.url)
        assert response["X-Cache"] == "BYPASS"
        assert "Body of First post" not in response.content.decode()


def test_restricting_a_cached_post_takes_it_out_of_the_cache_at_once(client, post, commit):
    client.get(post.url)
    assert client.get(post.url)["X-Cache"] == "HIT"
    with commit():
        PageViewRestriction.objects.create(page=post, restriction_type="login")
    response = client.get(post.url)
    assert response.status_code == 302
    assert response.get("X-Cache") != "HIT"


def test_a_preview_never_reaches_readers(client, post):
    client.get(post.url)
    post.title = "Draft title only an editor sees"
    post.save_revision()
    preview = post.make_preview_request()
    assert "Draft title only an editor sees" in preview.content.decode()
    assert preview.get("X-Cache") != "HIT"
    for _ in range(2):
        assert "Draft title only an editor sees" not in client.get(post.url).content.decode()


def test_saving_a_draft_of_a_live_post_keeps_readers_cached_pages(client, post, commit):
    """An editor's autosaves must not empty every reader's cache every few seconds."""
    client.get(post.url)
    client.get("/blog/")
    with commit():
        post.title = "Draft title only an editor sees"
        post.save_revision()
    for path in (post.url, "/blog/"):
        response = client.get(path)
        assert response["X-Cache"] == "HIT"
        assert "Draft title only an editor sees" not in response.content.decode()


def test_publishing_shows_on_the_next_request(client, blog, author, topic, post, commit):
    client.get("/blog/")
    assert client.get("/blog/")["X-Cache"] == "HIT"
    with commit():
        publish_post(blog, "Fresh post", authors=[author], topics=[topic])
    response = client.get("/blog/")
    assert response["X-Cache"] == "MISS"
    assert "Fresh post" in titles(response)


def test_unpublishing_shows_on_the_next_request(client, post, commit):
    client.get("/blog/")
    with commit():
        post.unpublish()
    assert "First post" not in titles(client.get("/blog/"))
    assert client.get(post.url).status_code == 404


def test_the_scheduler_going_live_shows_on_the_next_request(
    client, blog, author, topic, post, commit
):
    scheduled = draft_post(blog, "Scheduled post", authors=[author], topics=[topic])
    scheduled.go_live_at = timezone.now() + timedelta(minutes=5)
    scheduled.save_revision().publish()
    client.get("/blog/")
    assert "Scheduled post" not in titles(client.get("/blog/"))
    # The scheduler's pass (run_scheduler --once) without its reconnect, which a test
    # transaction would not survive.
    with time_passes(minutes=10), commit():
        call_command("publish_scheduled", stdout=io.StringIO())
    assert "Scheduled post" in titles(client.get("/blog/"))


def test_expiry_shows_on_the_next_request_even_before_the_scheduler_runs(client, post, commit):
    with commit():
        post.expire_at = timezone.now() + timedelta(seconds=30)
        post.save_revision().publish()
    client.get("/blog/")
    assert client.get("/blog/")["X-Cache"] == "HIT"
    with time_passes(minutes=1):
        assert "First post" not in titles(client.get("/blog/"))


def test_renaming_a_topic_shows_on_the_next_request(client, post, topic, commit):
    client.get("/blog/")
    with commit():
        topic.name = "Renamed topic"
        topic.save()
    assert "Renamed topic" in client.get("/blog/").content.decode()


def test_renaming_an_author_shows_on_the_next_request(client, post, author, commit):
    client.get("/blog/")
    with commit():
        author.name = "Grace Hopper"
        author.save()
    assert "Grace Hopper" in client.get("/blog/").content.decode()


def test_changing_the_site_settings_shows_on_the_next_request(client, post, commit):
    client.get("/blog/")
    with commit():
        SiteSettings.objects.update(brand_name="placeholder")
        settings_row = SiteSettings.objects.get()
        settings_row.brand_name = "newbrand"
        settings_row.save()
    assert "newbrand" in client.get("/blog/").content.decode()


@pytest.fixture
def nonce_in_every_policy(monkeypatch):
    """Every response's policy names a nonce of its own, as one does when the page used it."""
    build_parts = ContentSecurityPolicyMiddleware.get_policy_parts

    def with_a_nonce(self, request, response, report_only=False):
        parts = build_parts(self, request, response, report_only)
        parts.nonce = parts.nonce or secrets.token_urlsafe(16)
        return parts

    monkeypatch.setattr(ContentSecurityPolicyMiddleware, "get_policy_parts", with_a_nonce)


def test_a_cached_page_carries_no_nonce_of_an_earlier_response(client, post, nonce_in_every_policy):
    first = client.get("/blog/")
    second = client.get("/blog/")
    assert second["X-Cache"] == "HIT"
    assert "nonce=" not in second.content.decode()
    # The policy is written afresh for every response, cached or not: a replayed nonce would
    # let a script injected into the next reader's page borrow it.
    nonces = [NONCE_IN_POLICY.findall(r["Content-Security-Policy"]) for r in (first, second)]
    assert all(len(found) == 1 for found in nonces), nonces
    assert nonces[0] != nonces[1]


@pytest.mark.parametrize("nonce_used", [False, True], ids=["no nonce", "nonce in the page"])
def test_a_page_that_used_its_csp_nonce_is_never_stored(rf, nonce_used):
    request = rf.get("/blog/")
    request.user = AnonymousUser()
    ContentSecurityPolicyMiddleware(lambda request: None).process_request(request)
    request._page_cache_public = True  # a live, public page (mark_public_page)
    if nonce_used:
        str(request.csp_nonce)  # noqa: B018  (a template printing it)
    assert is_storable(request, HttpResponse("<p>page</p>")) is not nonce_used


def test_pages_are_still_served_when_redis_is_down(client, settings, post):
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.2},
        }
    }
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False
    for _ in range(2):
        response = client.get("/blog/")
        assert response.status_code == 200
        assert "First post" in titles(response)


@pytest.mark.redis
def test_redis_serves_the_cache_across_requests(client, post, commit, redis_cache):
    client.get("/blog/")
    assert client.get("/blog/")["X-Cache"] == "HIT"
    with commit():
        post.unpublish()
    assert "First post" not in titles(client.get("/blog/"))


def test_any_spelling_of_the_host_is_served_the_sites_one_cached_page(client, settings, post):
    first = client.get(post.url, HTTP_HOST="LOCALHOST:20000")
    assert first["X-Cache"] == "MISS"
    stored = cache_entries(settings)
    for host in HOST_SPELLINGS:
        response = client.get(post.url, HTTP_HOST=host)
        assert response["X-Cache"] == "HIT", host
        assert response.content == first.content
    assert cache_entries(settings) == stored
    # Its absolute addresses are the site's, not those of the first reader's Host header.
    assert share_picture(first).startswith("http://localhost/media/images/")


def test_any_spelling_of_the_host_adds_no_cards_heads_headers_or_sites_to_the_cache(
    client, settings, post
):
    """Pages the page cache passes by still build from the cached cards, heads, header and
    site."""
    uncached = [f"{post.url}?preview=1", "/blog/?preview=1"]
    first = {url: client.get(url, HTTP_HOST="localhost") for url in uncached}
    stored = cache_entries(settings)
    responses = [
        (url, client.get(url, HTTP_HOST=host)) for url in uncached for host in HOST_SPELLINGS
    ]
    assert cache_entries(settings) == stored
    for url, response in responses:
        assert response["X-Cache"] == "BYPASS"
        assert head_addresses(response) == head_addresses(first[url]) != []


def test_robots_txt_names_the_sitemap_at_the_sites_address_whatever_the_host(client):
    for host in ("127.0.0.1:20001", "localhost"):
        response = client.get("/robots.txt", HTTP_HOST=host)
        assert "Sitemap: http://localhost/sitemap.xml" in response.content.decode().splitlines()


@pytest.fixture
def listing_with_a_form(monkeypatch):
    """The blog's listing uses the CSRF token, as a page with a POST form does: the CSRF
    middleware then sets the reader's token cookie on the response."""
    real_context = serving.listing_context

    def with_a_form(blog, request, *args, **kwargs):
        get_token(request)
        return real_context(blog, request, *args, **kwargs)

    monkeypatch.setattr(serving, "listing_context", with_a_form)


def test_a_page_that_sets_a_cookie_is_never_stored_or_replayed(client, post, listing_with_a_form):
    first = client.get("/blog/")
    assert first.status_code == 200
    assert django_settings.CSRF_COOKIE_NAME in first.cookies
    assert first["X-Cache"] == "BYPASS"

    another_reader = Client()
    second = another_reader.get("/blog/")
    assert second["X-Cache"] != "HIT"
    theirs = second.cookies[django_settings.CSRF_COOKIE_NAME].value
    assert theirs != first.cookies[django_settings.CSRF_COOKIE_NAME].value


def test_a_head_request_gets_the_pages_headers_without_storing_anything(client, post):
    """Only a GET fills an entry: a HEAD's response may lose its body on the way (a server
    or proxy drops it), and the next GET would be answered with an empty page."""
    head = client.head("/blog/")
    assert head.status_code == 200
    assert head["Content-Type"].startswith("text/html")
    assert head.content == b""
    # A HEAD never fills the entry a GET would be answered from.
    get = client.get("/blog/")
    assert get["X-Cache"] == "MISS"
    assert "First post" in titles(get)


def test_a_head_request_is_answered_from_a_stored_page_without_its_body(client, post):
    get = client.get("/blog/")
    assert get["X-Cache"] == "MISS"
    head = client.head("/blog/")
    assert head["X-Cache"] == "HIT"
    assert head.content == b""
    for name in ("Content-Type", "Cache-Control"):
        assert head[name] == get[name], name
    again = client.get("/blog/")
    assert again["X-Cache"] == "HIT"
    assert again.content == get.content
