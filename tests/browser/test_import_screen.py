"""A Publisher moves an old WordPress blog in through the admin (issue #20), in Chromium at
1400×900: Import posts in the menu, upload the export's zip, see its check (the dry run) wait on
the queue until the task worker takes it, read what the import would do (a picture the zip lacks
is named with its post), confirm, see it wait on the queue until the task
worker takes it, follow "N of M posts imported" while the worker runs it, read what it did; then
a reader finds the posts on the blog and the old addresses lead to them.

Each step leaves a screenshot in test-artifacts/import-screen/ (under $TEST_ARTIFACTS if set).
"""

import re
import threading
import zipfile

import pytest
from django_tasks_db.management.commands.db_worker import Worker
from playwright.sync_api import expect
from wagtail.contrib.redirects.models import Redirect
from wagtail.images import get_image_model

from blog.importing.importer import Importer
from blog.importing.models import ImportedItem, ImportRun
from blog.models import Author, BlogPage, Topic
from tests.blog.importing.exports import wordpress_export

from .conftest import ARTIFACTS
from .editing import committed, numbered_screenshots, run_and_close, sign_in

# The tests' SQLite database lives in memory, where the worker's thread locks whole tables
# against the live server's.
pytestmark = [pytest.mark.browser, pytest.mark.django_db, pytest.mark.postgres]
expect.set_options(timeout=30_000)  # the machine is shared; an import of a dozen posts is slow

STEPS = ARTIFACTS / "import-screen"
POSTS = 12
MISSING = "picture-4.png"  # left out of the zip: hero of posts 4 and 9, in the body of 3 and 8
HELD_AFTER = 3


@pytest.fixture
def shoot():
    return numbered_screenshots(STEPS)


@pytest.fixture
def export_zip(tmp_path):
    """The old blog's WXR with its uploads, as WordPress and an FTP client hand them over, one
    picture short."""
    export = wordpress_export(tmp_path, POSTS)
    bundle = tmp_path / "old-blog.zip"
    with zipfile.ZipFile(bundle, "w") as out:
        out.write(export, export.name)
        for picture in (tmp_path / "wp-content").rglob("*.png"):
            if picture.name != MISSING:
                out.write(picture, picture.relative_to(tmp_path))
    return bundle


@pytest.fixture
def import_held(monkeypatch):
    """The confirmed import pauses after its first posts until the test lets it go on, so the
    page is seen following a running import however fast the machine is."""
    go_on = threading.Event()
    real_import_one = Importer.import_one
    started = []

    def import_one(importer, record, report):
        if not importer.dry_run:
            started.append(record)
            if len(started) == HELD_AFTER + 1:
                go_on.wait(timeout=120)
        return real_import_one(importer, record, report)

    monkeypatch.setattr(Importer, "import_one", import_one)
    yield go_on
    go_on.set()


@pytest.fixture
def task_worker(settings):
    """The real queue: a confirmed import waits in the database until the test starts the
    worker's loop (django-tasks-db's, as `manage.py db_worker --batch` runs it) in a thread of
    its own, which ends once the queue is empty."""
    settings.TASKS = {
        **settings.TASKS,
        "background": {"BACKEND": "django_tasks_db.DatabaseBackend"},
    }
    threads = []

    def start():
        worker = Worker(
            queue_names=["default"],
            interval=0,
            batch=True,
            backend_name="background",
            startup_delay=False,
            max_tasks=None,
            worker_id="browser-test",
        )
        thread = threading.Thread(target=run_and_close, args=(worker.run,))
        thread.start()
        threads.append(thread)

    yield start
    # Whatever happened, the import ends before what it made is removed.
    for thread in threads:
        thread.join(timeout=120)


def what_exists():
    return {
        model: set(model.objects.values_list("pk", flat=True))
        for model in (BlogPage, Topic, Author, get_image_model(), Redirect)
    }


def remove_what_was_added(before):
    """Back to the demo as load_demo left it: the reader tests that follow expect it."""
    for post in BlogPage.objects.exclude(pk__in=before[BlogPage]):
        post.delete()
    for model in (Topic, Author, get_image_model(), Redirect):
        model.objects.exclude(pk__in=before[model]).delete()
    ImportedItem.objects.all().delete()
    ImportRun.objects.all().delete()


@pytest.fixture
def leaves_the_demo_as_it_was(staff):
    before = committed(what_exists)
    yield
    committed(remove_what_was_added, before)


def test_a_publisher_imports_a_wordpress_blog(
    staff, leaves_the_demo_as_it_was, task_worker, import_held, export_zip, contexts, shoot
):
    server = staff["server"]

    # 1. The Publisher finds the screen in the menu and uploads the zip.
    publisher = sign_in(contexts(), server, staff["publisher"])
    publisher.get_by_role("link", name="Import posts").click()
    publisher.wait_for_url(f"{server}/admin/blog/import/")
    expect(publisher.get_by_role("navigation", name="Breadcrumb")).to_contain_text("Import posts")
    expect(publisher.get_by_role("heading", name="Upload an export")).to_be_visible()
    shoot(publisher, "upload-form")
    publisher.get_by_label("Export file").set_input_files(export_zip)
    before_the_dry_run = committed(what_exists)
    publisher.get_by_role("button", name="Check the export").click()

    # 2. The upload only queued the dry run: it waits on its own page until the task worker
    # takes it, which then shows what the import would do without the Publisher reloading.
    publisher.wait_for_url(re.compile(r"/admin/blog/import/\d+/$"))
    expect(publisher.get_by_role("heading", name="Checking “old-blog.zip”")).to_be_visible()
    expect(publisher.locator("p[role=status]")).to_have_text(re.compile(r"^Waiting to start"))
    shoot(publisher, "dry-run-queued")
    task_worker()

    # 3. The dry run: what would be made, and the picture the zip lacks, with the posts that
    # needed it. Nothing is on the blog yet.
    expect(publisher.get_by_role("heading", name="What the import would do")).to_be_visible()
    counts = publisher.locator("table.listing tbody tr")
    expect(counts.filter(has_text="Would be created")).to_contain_text(str(POSTS))
    expect(counts.filter(has_text="Would fail")).to_contain_text("0")
    missing = publisher.get_by_role("heading", name="Pictures not imported")
    expect(missing).to_be_visible()
    pictures = publisher.locator("h3 + p + ul li")
    expect(pictures.filter(has_text="Migrated post 4")).to_contain_text(MISSING)
    expect(pictures.filter(has_text="Migrated post 3")).to_contain_text(MISSING)
    # What readers will see leads: without its hero a post is published all the same.
    headline = publisher.locator("[data-import-headline]")
    expect(headline).to_contain_text(f"{POSTS} posts will be live, 0 scheduled, 0 drafts")
    expect(headline).to_contain_text("no hero picture; the content checks in the editor ask")
    shoot(publisher, "dry-run-report", full_page=True)
    assert committed(BlogPage.objects.filter(title__startswith="Migrated post").count) == 0
    # The worker's dry run wrote nothing: no post, topic, author, picture or redirect.
    assert committed(what_exists) == before_the_dry_run

    # 4. Confirmed, the import waits on the queue on its own page, which follows it; once the
    # task worker takes it, the page shows how far it got.
    publisher.get_by_role("button", name="Import these posts").click()
    publisher.wait_for_url(re.compile(r"/admin/blog/import/\d+/$"))
    expect(publisher.get_by_role("heading", name="Importing “old-blog.zip”")).to_be_visible()
    # Its own line, not Wagtail's messages (also a status).
    progress = publisher.locator("p[role=status]")
    expect(progress).to_have_text(re.compile(r"^Waiting to start"))
    shoot(publisher, "import-queued")
    task_worker()
    expect(progress).to_have_text(re.compile(rf"^[1-{HELD_AFTER}] of {POSTS} posts imported\.$"))
    shoot(publisher, "import-running")
    import_held.set()

    # 5. Once it ends, the page shows what it did, without the Publisher reloading it.
    expect(progress).to_have_text(
        re.compile(
            rf"^{POSTS} posts are live, 0 scheduled, 0 drafts; "
            r"\d+ pictures? (was|were) not in the export\.$"
        )
    )
    expect(publisher.get_by_role("heading", name="What the import did")).to_be_visible()
    expect(publisher.locator("table.listing tbody tr", has_text="Created")).to_contain_text(
        str(POSTS)
    )
    expect(publisher.get_by_role("heading", name="Pictures not imported")).to_be_visible()
    shoot(publisher, "import-done", full_page=True)

    # 6. A reader (signed out): the old category archive leads to the topic's page, which
    # lists the imported posts, the one whose hero was missing among them.
    reader = contexts().new_page()
    arrived = reader.goto(f"{server}/category/area-1/")
    assert arrived.request.redirected_from.response().status == 301
    assert reader.url == f"{server}/blog/topic/area-1/"
    listed = reader.locator("main")
    expect(listed.get_by_role("link", name="Migrated post 1", exact=True)).to_be_visible()
    expect(listed.get_by_role("link", name="Migrated post 7", exact=True)).to_be_visible()
    expect(listed.get_by_role("link", name="Migrated post 4", exact=True)).to_be_visible()
    shoot(reader, "reader-topic-page", full_page=True)

    # 7. The old addresses: WordPress's /?p=ID and its dated permalink, each a 301 to the post.
    arrived = reader.goto(f"{server}/?p=7")
    assert arrived.request.redirected_from.response().status == 301
    assert reader.url == f"{server}/blog/post-7/"
    expect(reader.locator("main h1")).to_have_text("Migrated post 7")
    arrived = reader.goto(f"{server}/2024/01/post-1/")
    assert arrived.request.redirected_from.response().status == 301
    assert reader.url == f"{server}/blog/post-1/"
    expect(reader.locator("main h1")).to_have_text("Migrated post 1")
    shoot(reader, "reader-follows-an-old-address", full_page=True)
    # Published without its missing hero, so its old address leads to it too.
    arrived = reader.goto(f"{server}/2024/01/post-4/")
    assert arrived.request.redirected_from.response().status == 301
    assert reader.url == f"{server}/blog/post-4/"
