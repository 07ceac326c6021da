"""A CDN or Varnish in front of the site hears of every address a publish changes."""

import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.db import transaction

from tests.factories import draft_post, make_topic, publish_post

pytestmark = pytest.mark.django_db

PROJECT_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def varnish(settings):
    """A stand-in for Varnish on a free port: it answers PURGE and remembers what was asked."""
    purged = []

    class PurgeHandler(BaseHTTPRequestHandler):
        def do_PURGE(self):  # noqa: N802 - the HTTP method's name
            purged.append(f"http://{self.headers['Host']}{self.path}")
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), PurgeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.WAGTAILFRONTENDCACHE = {
        "varnish": {
            "BACKEND": "wagtail.contrib.frontend_cache.backends.HTTPBackend",
            "LOCATION": f"http://127.0.0.1:{server.server_port}",
        }
    }
    settings.FRONTEND_CACHE_PURGE_PAGES = 2
    yield purged
    server.shutdown()
    server.server_close()


def addresses_a_post_appears_at(topic):
    site = "http://localhost"
    return {
        f"{site}/",
        f"{site}/sitemap.xml",
        f"{site}/blog/",
        f"{site}/blog/?page=2",
        f"{site}/blog/feed/",
        f"{site}/blog/atom/",
        f"{site}/blog/topic/{topic.slug}/",
        f"{site}/blog/topic/{topic.slug}/?page=2",
        f"{site}/blog/topic/{topic.slug}/feed/",
        f"{site}/blog/topic/{topic.slug}/atom/",
    }


def test_publishing_a_post_purges_every_listing_feed_and_the_sitemap(
    blog, varnish, django_capture_on_commit_callbacks
):
    topic = make_topic("GPU reliability")
    with django_capture_on_commit_callbacks(execute=True):
        publish_post(blog, "Checkpointing at scale", topics=[topic])
    assert addresses_a_post_appears_at(topic) <= set(varnish)


def test_unpublishing_a_post_purges_the_listings_too(
    blog, varnish, django_capture_on_commit_callbacks
):
    topic = make_topic("GPU reliability")
    post = publish_post(blog, "Checkpointing at scale", topics=[topic])
    varnish.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post.unpublish()
    assert addresses_a_post_appears_at(topic) <= set(varnish)


def test_saving_a_draft_purges_nothing(blog, varnish, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        draft_post(blog, "Not yet")
    assert varnish == []


def test_a_publish_that_rolls_back_purges_nothing(
    blog, varnish, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        publish_post(blog, "Rolled back")
        raise RuntimeError
    assert varnish == []


def settings_in_environment(**environ):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FRONTEND_CACHE", "CLOUDFLARE", "CLOUDFRONT"))
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(sorted(s.WAGTAILFRONTENDCACHE), "
        "'wagtail.contrib.frontend_cache' in s.INSTALLED_APPS)"
    )
    result = subprocess.run(  # noqa: S603 - our own settings, fixed code
        [sys.executable, "-c", code],
        cwd=PROJECT_DIR,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.test", **environ},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_purging_is_off_unless_the_environment_names_a_cache():
    assert settings_in_environment() == "[] False"


def test_a_purge_url_and_a_cloudflare_zone_turn_purging_on():
    configured = settings_in_environment(
        FRONTEND_CACHE_PURGE_URL="http://varnish.internal:6081",
        CLOUDFLARE_ZONEID="zone",
        CLOUDFLARE_BEARER_TOKEN="token",  # noqa: S106 - not a real token
    )
    assert configured == "['cloudflare', 'http'] True"
