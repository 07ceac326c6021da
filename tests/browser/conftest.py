"""A real Chromium (Debian's, driven by Playwright) reading the demo blog from a live server.

The demo is loaded and the server started once for this package: loading it for every test would
make the suite several times slower. The database is put back as migrations left it afterwards,
before the tests of the next package run.
"""

import os
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.test import Client, override_settings

from blog.demo.posts import POSTS

from .editing import (
    committed,
    create_staff,
    put_heroes_back,
    remove_staff,
    take_heroes_from_half_the_posts,
)

# Playwright's sync API runs an event loop in this thread; Django's ORM would refuse to run here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTHS = {"phone": 375, "tablet": 768, "desktop": 1280}
ROOT = Path(__file__).resolve().parents[2]
# CI keeps the checkout's files; TEST_ARTIFACTS moves them elsewhere (an absolute path).
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS") or ROOT / "test-artifacts")
SCREENSHOTS = ARTIFACTS / "screenshots"
AXE_JS = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
READER_PAGES = {
    "blog": "/blog/",
    "topic": "/blog/topic/gpu-reliability/",
    "post": f"/blog/{POSTS[3]['slug']}/",
    "search": "/search/?q=checkpoint",
    "404": "/blog/no-such-post/",
}
OFFSITE = re.compile(r"^https?://(?!localhost[:/]|127\.0\.0\.1[:/])")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="package")
def demo_server(django_db_setup, django_db_blocker, tmp_path_factory):
    """A live server over the demo site, shared by the tests of one module."""
    from pytest_django.live_server_helper import LiveServer

    # The same media folder the function-scoped fixture in tests/conftest.py uses.
    media = tmp_path_factory.getbasetemp() / "media"
    # A private cache: the shared file cache can hold renditions whose files a past run deleted.
    cache = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with (
        django_db_blocker.unblock(),
        override_settings(MEDIA_ROOT=str(media), CACHES=cache),
    ):
        as_migrated = connection.creation.serialize_db_to_string()
        call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
        # Render each page once so the image renditions exist before any browser waits on them.
        client = Client(raise_request_exception=False)
        for path in READER_PAGES.values():
            client.get(path)
        server = LiveServer("localhost")
        try:
            yield server.url
        finally:
            server.stop()
            close_server_connections()
            call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
            connection.creation.deserialize_db_from_string(as_migrated)
            # Rows came back with their ids; the id sequences must follow or the next insert clashes.
            with connection.cursor() as cursor:
                for statement in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
                    cursor.execute(statement)


def close_server_connections():
    """End the database sessions the server's request threads left open (they are daemon
    threads that outlive the server), so the flush and the test database's removal can run."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(scope="package")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(demo_server, browser, request):
    """open_page(path, width="phone", scheme="light") -> a Playwright page showing that path.

    Requests that leave the machine (the demo's video embed) get an empty page, as CI is
    offline.
    If the test fails, the last page opened is saved as a screenshot.
    """
    contexts, pages = [], []

    def open_(path, width="desktop", scheme="light"):
        # bypass_csp lets the tests inject axe-core; the site's own policy stays as served.
        context = browser.new_context(
            viewport={"width": WIDTHS[width], "height": 900}, color_scheme=scheme, bypass_csp=True
        )
        context.set_default_timeout(60_000)  # CI machines are shared and slow
        # An empty page, not an aborted request: Chrome fills a frame whose request failed
        # with its own error page, which a Tab may or may not enter depending on when it lands.
        context.route(OFFSITE, lambda route: route.fulfill(content_type="text/html", body=""))
        contexts.append(context)
        page = context.new_page()
        page.goto(demo_server + path)
        # A reader starts once the page has settled, the embed's frame included.
        page.wait_for_load_state("networkidle")
        pages.append(page)
        return page

    yield open_
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed and pages:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        pages[-1].screenshot(path=str(SCREENSHOTS / f"FAILED-{name}.png"), full_page=True)
    for context in contexts:
        context.close()


@pytest.fixture
def staff(demo_server):
    """An editor with a byline, a publisher and a picture in the library, with every post they
    write removed afterwards."""
    created = committed(create_staff, demo_server)
    yield created
    committed(remove_staff, created)


@pytest.fixture
def half_without_heroes(demo_server):
    """The demo with the featured post and every other listed post without a hero picture, put
    back afterwards; returns the ids of the posts without one."""
    taken = committed(take_heroes_from_half_the_posts)
    yield set(taken)
    committed(put_heroes_back, taken)


@pytest.fixture
def contexts(browser, request):
    """new_context(**options) -> a fresh browser session, by default at 1400×900, the size
    editors were watched working at (options go to Playwright's new_context: another viewport,
    permissions); the failing test's pages are saved as screenshots in SCREENSHOTS."""
    opened = []

    def new_context(**options):
        context = browser.new_context(**{"viewport": {"width": 1400, "height": 900}, **options})
        context.set_default_timeout(30_000)
        opened.append(context)
        return context

    yield new_context
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for number, context in enumerate(opened):
            for page_number, page in enumerate(context.pages):
                path = SCREENSHOTS / f"FAILED-{name}-{number}-{page_number}.png"
                page.screenshot(path=str(path), full_page=True)
    for context in opened:
        context.close()


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def load_every_image(page):
    """Scroll through the page so lazy images load, then wait until each one has finished."""
    page.evaluate(
        """async () => {
            for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
                window.scrollTo(0, y);
                await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 30)));
            }
            window.scrollTo(0, 0);
            await Promise.all([...document.images].map((img) => img.complete ? null :
                new Promise((done) => { img.onload = img.onerror = done; })));
        }"""
    )
