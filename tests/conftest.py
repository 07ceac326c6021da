import functools
import os

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from wagtail.models import Page, Site

from blog.caching.memory import local_memory
from blog.management.commands import load_demo
from home.models import HomePage, SiteSettings

from .factories import make_author, make_blog_index, make_topic


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path_factory):
    settings.MEDIA_ROOT = str(tmp_path_factory.getbasetemp() / "media")


@pytest.fixture(autouse=True)
def empty_caches():
    """Test databases reuse ids, so a rendition cached by an earlier test would point at a file
    that is gone."""
    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True, scope="session")
def memoised_demo_drawings():
    """Drawing the 13 demo pictures is the slow part of load_demo; draw each once per run."""
    original_draw, original_generated = load_demo.draw, load_demo.draw_generated
    load_demo.draw = functools.lru_cache(maxsize=None)(original_draw)
    load_demo.draw_generated = functools.lru_cache(maxsize=None)(original_generated)
    yield
    load_demo.draw, load_demo.draw_generated = original_draw, original_generated


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (run with DATABASE_URL)"))
        # In CI a missing Chromium must fail the browser tests, never skip them.
        missing_browser = not os.path.exists("/usr/bin/chromium") and os.environ.get("CI") != "true"
        if item.get_closest_marker("browser") and missing_browser:
            item.add_marker(pytest.mark.skip(reason="/usr/bin/chromium is not installed"))


@pytest.fixture
def demo_site(db):
    """The whole demo site, as `make run` builds it."""
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return Site.objects.get(is_default_site=True)


@pytest.fixture
def home(db):
    root = Page.get_first_root_node()
    home = root.add_child(instance=HomePage(title="Home", slug="test-home"))
    site = Site.objects.filter(is_default_site=True).first()
    site.root_page = home
    site.save()
    SiteSettings.objects.create(site=site, login_url="/admin/", cta_url="https://example.com/demo")
    return home


@pytest.fixture
def blog(home):
    return make_blog_index(home)


@pytest.fixture
def author(db):
    return make_author("Ada Lovelace")


@pytest.fixture
def topic(db):
    return make_topic("GPU reliability")


@pytest.fixture
def content_cache(settings, tmp_path):
    """The shared content cache switched on (as in production), in a file cache of this test's
    own, and an empty memory in this process. Changes must commit to be seen: make them inside
    `with commit():`."""
    settings.CONTENT_CACHE = True
    settings.CACHES = {
        "default": {
            "BACKEND": "home.library_adapters.FileCache",
            "LOCATION": str(tmp_path / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 50_000},  # as in production (config/settings/base.py)
        }
    }
    caches["default"].clear()
    local_memory.clear()


@pytest.fixture
def page_cache(settings, content_cache):
    """The anonymous page cache switched on, beside the content cache it runs with in
    production."""
    settings.PAGE_CACHE = True


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """An editor's change, committed for real: the content generation moves only after a
    commit. Use as `with commit(): ...`."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
