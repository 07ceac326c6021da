"""A Publisher imports an export from the admin: upload, read the dry run, confirm, follow the
import while it runs."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone
from wagtail.contrib.redirects.models import Redirect
from wagtail.images import get_image_model
from wagtail.models import Page

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.importing.importer import Importer
from blog.importing.models import ImportedItem, ImportRun, ImportUpload
from blog.importing.sources import import_folder
from blog.models import Author, BlogPage, Topic
from tests.blog.scheduling import make_user

from .conftest import FIXTURES

URL = "/admin/blog/import/"


def upload(name="wordpress.xml", data=None):
    data = (FIXTURES / "wordpress.xml").read_bytes() if data is None else data
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def confirm(client, dry_run=None, **kwargs):
    """What the dry run's “Import these posts” button sends."""
    dry_run = dry_run or ImportRun.objects.filter(dry_run=True).latest("pk")
    return client.post(URL, {"confirm": str(dry_run.pk)}, **kwargs)


def what_the_site_holds():
    return {
        model.__name__: model.objects.count()
        for model in (Page, Topic, Author, get_image_model(), Redirect, ImportedItem)
    }


def page_text(response):
    return BeautifulSoup(response.content, "html.parser").get_text(" ", strip=True)


@pytest.fixture
def publisher_client(client, blog):
    client.force_login(make_user("petra", group=PUBLISHERS))
    return client


def test_a_publisher_sees_the_dry_run_then_imports(publisher_client):
    # Other test processes keep their own uploads in the same folder.
    uploads_before = set(import_folder().glob("*.xml"))
    checked = publisher_client.post(URL, {"export": upload()}, follow=True)
    assert checked.status_code == 200
    text = page_text(checked)
    assert "What the import would do" in text
    # What readers will see leads, in the future tense: nothing is written yet.
    assert "3 posts will be live, 1 scheduled, 3 drafts; 2 pictures were not in the export." in text
    # Nothing is made yet, and the words say so.
    assert "Would be created 7" in text
    assert "Their posts would be imported without them" in text
    assert "Picture not found" in text or "not found:" in text
    assert not BlogPage.objects.exists()

    done = confirm(publisher_client, follow=True)
    assert done.status_code == 200
    assert "3 posts are live, 1 scheduled, 3 drafts; 2 pictures were not in the export." in (
        page_text(done)
    )
    assert "Readers see the published ones now" not in page_text(done)
    assert BlogPage.objects.filter(slug="draft-thoughts").exists()
    # The upload is gone once imported; confirming again asks for it again.
    assert set(import_folder().glob("*.xml")) <= uploads_before
    again = confirm(publisher_client, follow=True)
    assert "That upload is gone" in page_text(again)


def test_the_upload_request_only_queues_the_dry_run(publisher_client, settings, monkeypatch):
    """A 200 MB zip read inside the upload request outlived the app server's timeout: the
    request keeps the upload and queues its dry run, and the screen waits for the worker."""
    settings.TASKS = {
        **settings.TASKS,
        "background": {"BACKEND": "django_tasks_db.DatabaseBackend"},
    }
    read = []
    monkeypatch.setattr(Importer, "run", lambda importer, export: read.append(export))
    checked = publisher_client.post(URL, {"export": upload()}, follow=True)
    assert checked.status_code == 200
    text = page_text(checked)
    assert "Checking “wordpress.xml”" in text
    assert "Waiting to start: the check starts as soon as the site's task worker takes it." in text
    assert "What the import would do" not in text
    assert read == []
    run = ImportRun.objects.get()
    assert run.dry_run and run.status == ImportRun.QUEUED and run.report is None
    assert ImportUpload.objects.get(run=run).data == (FIXTURES / "wordpress.xml").read_bytes()
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json() == {
        "status": "queued",
        "done": 0,
        "total": None,
    }
    # Listed while it waits, as an import is, for a Publisher who left its page.
    assert "“wordpress.xml” : waiting to be checked" in page_text(publisher_client.get(URL))
    assert not BlogPage.objects.exists()


def test_an_unreadable_export_is_explained(publisher_client):
    response = publisher_client.post(URL, {"export": upload(data=b"<rss><channel>")}, follow=True)
    assert response.status_code == 200
    assert "The export could not be read: The export is not well-formed XML" in page_text(response)
    wrong = publisher_client.post(URL, {"export": upload("notes.txt", b"hello")})
    assert "Choose a .xml, .json or .zip export." in page_text(wrong)


def test_the_menu_shows_import_to_publishers_only(client, blog):
    client.force_login(make_user("petra", group=PUBLISHERS))
    assert "Import posts" in client.get("/admin/").content.decode()
    client.force_login(make_user("eddie", group=EDITORS))
    assert "Import posts" not in client.get("/admin/").content.decode()
    # Wagtail's answer to a screen the user may not use: back to the dashboard, with a message.
    assert client.get(URL)["Location"] == "/admin/"
    assert client.post(URL, {"export": upload()})["Location"] == "/admin/"
    assert not BlogPage.objects.exists()


def test_the_run_page_follows_the_import_then_shows_what_it_did(publisher_client):
    publisher_client.post(URL, {"export": upload()})
    confirmed = confirm(publisher_client)
    run = ImportRun.objects.get(dry_run=False)
    assert confirmed["Location"] == f"{URL}{run.pk}/"
    progress = publisher_client.get(f"{URL}{run.pk}/progress/").json()
    assert progress == {"status": "done", "done": 7, "total": 7}
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "What the import did" in text
    assert "Created 7" in text


def test_an_import_that_stops_says_what_stopped_it_and_how_to_finish(publisher_client, monkeypatch):
    publisher_client.post(URL, {"export": upload()})

    def out_of_disk(importer, export):
        raise OSError("No space left on device")

    monkeypatch.setattr(Importer, "run", out_of_disk)
    text = page_text(confirm(publisher_client, follow=True))
    assert "The import stopped: No space left on device." in text
    assert "importing the export again finishes the job" in text
    run = ImportRun.objects.get(dry_run=False)
    assert publisher_client.get(URL + f"{run.pk}/progress/").json() == {
        "status": "failed",
        "done": 0,
        "total": 7,
    }
    assert not ImportUpload.objects.exists()


def test_a_running_import_shows_how_far_it_got(publisher_client, blog):
    run = ImportRun.objects.create(
        blog=blog, export_name="old.xml", status=ImportRun.RUNNING, done=120, total=300
    )
    page = publisher_client.get(f"{URL}{run.pk}/")
    assert "120 of 300 posts imported." in page_text(page)
    assert f'data-import-progress="{URL}{run.pk}/progress/"' in page.content.decode()
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json()["status"] == "running"


def test_an_import_whose_server_stopped_says_how_to_finish_it(publisher_client, blog):
    run = ImportRun.objects.create(
        blog=blog, export_name="old.xml", status=ImportRun.RUNNING, done=120, total=300
    )
    ImportRun.objects.filter(pk=run.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "The import stopped after 120 of 300 posts" in text
    assert "import the same export again to finish" in text
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json()["status"] == "stopped"


def test_a_publisher_who_left_a_running_import_finds_it_on_the_import_screen(
    publisher_client, blog
):
    running = ImportRun.objects.create(
        blog=blog, export_name="old.xml", status=ImportRun.RUNNING, done=120, total=300
    )
    stopped = ImportRun.objects.create(
        blog=blog, export_name="older.xml", status=ImportRun.RUNNING, done=3, total=9
    )
    ImportRun.objects.filter(pk=stopped.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    page = publisher_client.get(URL)
    text = page_text(page)
    assert "Imports running now" in text
    assert "“old.xml” : 120 of 300 posts imported" in text
    assert f'href="{URL}{running.pk}/"' in page.content.decode()
    assert "older.xml" not in text


def breadcrumbs(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [item.get_text(" ", strip=True) for item in soup.select("[aria-label=Breadcrumb] li")]


def test_the_header_names_the_screen_not_just_home(publisher_client, blog):
    """Wagtail shows the breadcrumbs as the screen's visible header: "Home" alone said nothing."""
    assert breadcrumbs(publisher_client.get(URL)) == ["Home", "Import posts"]
    run = ImportRun.objects.create(blog=blog, export_name="old.xml", done=120, total=300)
    assert breadcrumbs(publisher_client.get(f"{URL}{run.pk}/")) == [
        "Home",
        "Import posts",
        "old.xml",
    ]


def test_only_publishers_follow_an_import(client, blog):
    run = ImportRun.objects.create(blog=blog, export_name="old.xml")
    client.force_login(make_user("eddie", group=EDITORS))
    assert client.get(f"{URL}{run.pk}/progress/").status_code == 302  # to the dashboard


PROJECT_DIR = Path(__file__).resolve().parents[3]


def run_the_worker():
    """`manage.py db_worker` in a process of its own, on this test's database, until the queue
    is empty (--batch)."""
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}"
        f":{database['PORT'] or 5432}/{database['NAME']}"
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "tests.blog.importing.queue_settings",
    }
    return subprocess.run(  # noqa: S603 - our own manage.py with fixed arguments
        [sys.executable, "manage.py", "db_worker", "--backend", "background", "--batch"]
        + ["--no-startup-delay", "--no-reload"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# The worker is another process, which reads only what the test committed; serialized_rollback:
# the rows the migrations wrote (groups, workflow, site) come back for the tests after it.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_dry_run_then_the_import_wait_on_the_queue_until_the_worker_runs_them(
    publisher_client, settings
):
    settings.TASKS = {
        **settings.TASKS,
        "background": {"BACKEND": "django_tasks_db.DatabaseBackend"},
    }
    checked = publisher_client.post(URL, {"export": upload()}, follow=True)
    assert "Waiting to start" in page_text(checked)
    dry_run = ImportRun.objects.get()
    nothing_yet = what_the_site_holds()

    worker = run_the_worker()
    assert worker.returncode == 0, worker.stdout + worker.stderr

    assert publisher_client.get(f"{URL}{dry_run.pk}/progress/").json() == {
        "status": "done",
        "done": 7,
        "total": 7,
    }
    text = page_text(publisher_client.get(f"{URL}{dry_run.pk}/"))
    assert "What the import would do" in text
    assert "3 posts will be live, 1 scheduled, 3 drafts; 2 pictures were not in the export." in text
    assert "Would be created 7" in text
    # The worker's dry run wrote nothing to the site.
    assert what_the_site_holds() == nothing_yet
    assert not BlogPage.objects.exists()

    confirmed = confirm(publisher_client, dry_run, follow=True)
    # The request only queued it: no app server holds the import, so none can lose it.
    assert "Waiting to start" in page_text(confirmed)
    run = ImportRun.objects.get(dry_run=False)
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json() == {
        "status": "queued",
        "done": 0,
        "total": None,
    }
    assert "“wordpress.xml” : waiting to start" in page_text(publisher_client.get(URL))
    assert not BlogPage.objects.exists()

    worker = run_the_worker()
    assert worker.returncode == 0, worker.stdout + worker.stderr

    progress = publisher_client.get(f"{URL}{run.pk}/progress/").json()
    assert progress == {"status": "done", "done": 7, "total": 7}
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "What the import did" in text
    assert "Created 7" in text
    # Indexed by the worker: readers' search finds an imported post.
    found = page_text(publisher_client.get("/search/", {"q": "friends"}))
    assert "1 result for “friends”" in found
    assert "A short summary of the first post." in found
    # The upload left the database with its import.
    assert not ImportUpload.objects.exists()


def test_an_import_waiting_long_says_the_worker_may_not_be_running(publisher_client, blog):
    run = ImportRun.objects.create(blog=blog, export_name="old.xml")
    page = publisher_client.get(f"{URL}{run.pk}/")
    assert "Waiting to start" in page_text(page)
    assert "the task worker may not be running" not in page_text(page)
    ImportRun.objects.filter(pk=run.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "the task worker may not be running" in text
    # Waiting is not stopping: it starts once a worker takes it.
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json()["status"] == "queued"
