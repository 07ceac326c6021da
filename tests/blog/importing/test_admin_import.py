"""A Publisher imports an export from the admin: upload, read the dry run, confirm."""

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile

from blog.importing.admin_views import upload_folder
from blog.models import BlogPage
from blog.roles import EDITORS, PUBLISHERS
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
    checked = publisher_client.post(URL, {"export": upload()})
    assert checked.status_code == 200
    text = page_text(checked)
    assert "What the import would do" in text
    assert "Created 7" in text
    assert "Picture not found" in text or "not found:" in text
    assert not BlogPage.objects.exists()

    done = publisher_client.post(URL, {"confirm": "1"}, follow=True)
    assert done.status_code == 200
    assert "Imported: 7 new posts, 0 updated." in page_text(done)
    assert BlogPage.objects.filter(slug="draft-thoughts").exists()
    # The upload is gone once imported; confirming again asks for it again.
    assert list(upload_folder().glob("*.xml")) == []
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
