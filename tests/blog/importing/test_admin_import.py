"""A Publisher imports an export from the admin: upload, read the dry run, confirm, follow the
import while it runs."""

import time
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.importing.models import ImportRun
from blog.importing.sources import import_folder
from blog.models import BlogPage
from tests.blog.scheduling import make_user

from .conftest import FIXTURES

URL = "/admin/blog/import/"


def upload(name="wordpress.xml", data=None):
    data = (FIXTURES / "wordpress.xml").read_bytes() if data is None else data
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def page_text(response):
    return BeautifulSoup(response.content, "html.parser").get_text(" ", strip=True)


@pytest.fixture
def publisher_client(client, blog):
    client.force_login(make_user("petra", group=PUBLISHERS))
    return client


def test_a_publisher_sees_the_dry_run_then_imports(publisher_client):
    # Other test processes keep their own uploads in the same folder.
    uploads_before = set(import_folder().glob("*.xml"))
    checked = publisher_client.post(URL, {"export": upload()})
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

    done = publisher_client.post(URL, {"confirm": "1"}, follow=True)
    assert done.status_code == 200
    assert "3 posts are live, 1 scheduled, 3 drafts; 2 pictures were not in the export." in (
        page_text(done)
    )
    assert "Readers see the published ones now" not in page_text(done)
    assert BlogPage.objects.filter(slug="draft-thoughts").exists()
    # The upload is gone once imported; confirming again asks for it again.
    assert set(import_folder().glob("*.xml")) <= uploads_before
    again = publisher_client.post(URL, {"confirm": "1"}, follow=True)
    assert "That upload is gone" in page_text(again)


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
    confirmed = publisher_client.post(URL, {"confirm": "1"})
    run = ImportRun.objects.get()
    assert confirmed["Location"] == f"{URL}{run.pk}/"
    progress = publisher_client.get(f"{URL}{run.pk}/progress/").json()
    assert progress == {"status": "done", "done": 7, "total": 7}
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "What the import did" in text
    assert "Created 7" in text


def test_a_running_import_shows_how_far_it_got(publisher_client, blog):
    run = ImportRun.objects.create(blog=blog, export_name="old.xml", done=120, total=300)
    page = publisher_client.get(f"{URL}{run.pk}/")
    assert "120 of 300 posts imported." in page_text(page)
    assert f'data-import-progress="{URL}{run.pk}/progress/"' in page.content.decode()
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json()["status"] == "running"


def test_an_import_whose_server_stopped_says_how_to_finish_it(publisher_client, blog):
    run = ImportRun.objects.create(blog=blog, export_name="old.xml", done=120, total=300)
    ImportRun.objects.filter(pk=run.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    text = page_text(publisher_client.get(f"{URL}{run.pk}/"))
    assert "The import stopped after 120 of 300 posts" in text
    assert "import the same export again to finish" in text
    assert publisher_client.get(f"{URL}{run.pk}/progress/").json()["status"] == "stopped"


def test_a_publisher_who_left_a_running_import_finds_it_on_the_import_screen(
    publisher_client, blog
):
    running = ImportRun.objects.create(blog=blog, export_name="old.xml", done=120, total=300)
    stopped = ImportRun.objects.create(blog=blog, export_name="older.xml", done=3, total=9)
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


# The tests' SQLite database lives in memory, where a second thread's writes lock whole tables.
# serialized_rollback: the rows the migrations wrote (groups, workflow, site) come back for the
# tests after it, and the flush leaves Django's content types alone.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_import_runs_after_the_request_that_confirmed_it(publisher_client, settings):
    settings.IMPORT_IN_BACKGROUND = True
    publisher_client.post(URL, {"export": upload()})
    publisher_client.post(URL, {"confirm": "1"})
    run = ImportRun.objects.get()
    deadline = time.monotonic() + 60
    while (progress := publisher_client.get(f"{URL}{run.pk}/progress/").json())[
        "status"
    ] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert progress == {"status": "done", "done": 7, "total": 7}
    assert BlogPage.objects.filter(slug="hello-world").exists()
