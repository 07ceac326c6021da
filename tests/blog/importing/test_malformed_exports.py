"""Malformed exports, hand-edited or hostile: the Publisher reads what is wrong, never a 500,
and nothing of an upload stays in the server's temporary folder or the database for ever."""

import json
import os
import time
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError
from django.utils import timezone

from blog.editorial.roles import PUBLISHERS
from blog.editorial.scheduling import pass_finished
from blog.importing.models import ImportRun, ImportUpload
from blog.importing.sources import ABANDONED_AFTER, import_folder
from blog.models import BlogPage
from tests.blog.scheduling import make_user

from .conftest import FIXTURES

URL = "/admin/blog/import/"
POST = {"id": "p1", "title": "Kept", "slug": "kept", "status": "draft", "html": "<p>Words</p>"}


def ghost(**tables):
    data = {"posts": [POST], **tables}
    return json.dumps({"db": [{"meta": {"version": "5.0.0"}, "data": data}]}).encode()


def nested_divs(depth):
    body = "<div>" * depth + "deep words" + "</div>" * depth
    return (
        (FIXTURES / "wordpress.xml").read_text().replace("Classic editor text.", body, 1).encode()
    )


@pytest.fixture
def publisher_client(client, blog):
    client.force_login(make_user("petra", group=PUBLISHERS))
    return client


def check(client, name, data):
    response = client.post(URL, {"export": SimpleUploadedFile(name, data)}, follow=True)
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser").get_text(" ", strip=True)


@pytest.mark.parametrize(
    "name, data, expected",
    [
        # A tag without a name is named by its slug; one without either is left out, named.
        (
            "ghost.json",
            ghost(tags=[{"id": "t1", "slug": "gpu"}, {"id": "t2"}]),
            "Ghost tag t2 — left out: a tag with neither a name nor a slug",
        ),
        ("ghost.json", ghost(tags=[1]), "tags row 1 — not a Ghost tags row (1)"),
        ("ghost.json", ghost(users=None), "Would be created 1"),
        ("ghost.json", ghost(users="everyone"), "The export’s “users” is not a list."),
        (
            "ghost.json",
            ghost(posts=[POST, {"id": "p2", "title": "Odd", "status": "draft", "lexical": "[1]"}]),
            "Post 2 “Odd” [p2] — it could not be read: AttributeError",
        ),
        (
            "ghost.json",
            b'{"db": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            "The export could not be read: The export’s JSON is nested too deeply",
        ),
        (
            "wordpress.xml",
            nested_divs(5_000),
            "its body nests elements more deeply than the import reads",
        ),
    ],
)
def test_a_malformed_export_is_explained_in_the_dry_run(publisher_client, name, data, expected):
    before = set(import_folder().iterdir())
    text = check(publisher_client, name, data)
    assert expected.replace("’", "'") in text.replace("’", "'")
    assert not BlogPage.objects.exists()
    # An export that could not be read at all leaves nothing waiting.
    if expected.startswith("The export could not be read") or "not a list" in expected:
        assert set(import_folder().iterdir()) <= before


def test_one_unreadable_ghost_post_never_stops_the_others(run_import, tmp_path):
    export = tmp_path / "ghost.json"
    export.write_bytes(
        ghost(posts=[{"id": "p0", "status": "published", "mobiledoc": "{"}, POST], users=None)
    )
    report = run_import(export)
    assert "it could not be read: JSONDecodeError" in report
    assert BlogPage.objects.filter(slug="kept").exists()


def test_the_command_names_what_it_cannot_read(run_import, tmp_path):
    export = tmp_path / "ghost.json"
    export.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(CommandError, match="nested too deeply"):
        run_import(export)


def test_an_unexpected_shape_is_a_message_not_a_500(publisher_client, monkeypatch):
    def broken(data):
        raise LookupError("a shape nobody foresaw")

    monkeypatch.setattr("blog.importing.sources.parse_ghost", broken)
    text = check(publisher_client, "ghost.json", ghost())
    assert "The export could not be read: it is not shaped like the exports" in text


def age(path, seconds):
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_abandoned_uploads_are_swept_after_a_day_and_fresh_ones_kept(publisher_client):
    folder = import_folder()
    day = ABANDONED_AFTER.total_seconds()
    old_upload, fresh_upload = folder / "sweep-test-old.json", folder / "sweep-test-new.json"
    old_unpacked = folder / "unpacked-sweep-test"
    (old_unpacked / "content").mkdir(parents=True)
    (old_unpacked / "content" / "a.png").write_bytes(b"x")
    for path in (old_upload, fresh_upload):
        path.write_bytes(b"{}")
    age(old_upload, day + 60)
    age(old_unpacked, day + 60)
    age(fresh_upload, day - 60)
    # A new upload sweeps; so does each scheduler pass (tested below).
    check(publisher_client, "ghost.json", ghost())
    assert not old_upload.exists() and not old_unpacked.exists()
    assert fresh_upload.exists()
    fresh_upload.unlink()


def test_each_scheduler_pass_sweeps_abandoned_uploads(db):
    stale = import_folder() / "sweep-test-pass.xml"
    stale.write_bytes(b"<rss/>")
    age(stale, ABANDONED_AFTER.total_seconds() + 60)
    answers = [response for _, response in pass_finished.send(sender=None, result=None)]
    assert not stale.exists()
    assert any(answer and "abandoned import upload" in answer for answer in answers)


def test_the_upload_of_an_import_whose_worker_was_killed_is_swept_after_a_day(blog):
    def confirmed(name, status, hours_silent):
        run = ImportRun.objects.create(blog=blog, export_name=name, status=status)
        ImportRun.objects.filter(pk=run.pk).update(
            updated_at=timezone.now() - timedelta(hours=hours_silent)
        )
        return ImportUpload.objects.create(run=run, suffix=".xml", data=b"<rss/>")

    killed = confirmed("killed.xml", ImportRun.RUNNING, hours_silent=25)
    stopped_recently = confirmed("stopped.xml", ImportRun.RUNNING, hours_silent=1)
    # Waiting for a worker to start it, however long: it runs when one does.
    queued = confirmed("queued.xml", ImportRun.QUEUED, hours_silent=25)
    answers = [response for _, response in pass_finished.send(sender=None, result=None)]
    assert set(ImportUpload.objects.all()) == {stopped_recently, queued}
    assert not ImportUpload.objects.filter(pk=killed.pk).exists()
    assert "Removed 1 abandoned import upload(s)." in answers


def test_a_dry_run_that_is_never_confirmed_is_swept_and_then_asks_for_the_upload_again(
    publisher_client,
):
    check(publisher_client, "ghost.json", ghost())
    dry_run = ImportRun.objects.get(dry_run=True)
    assert ImportUpload.objects.filter(run=dry_run).exists()
    ImportRun.objects.filter(pk=dry_run.pk).update(
        updated_at=timezone.now() - ABANDONED_AFTER - timedelta(minutes=1)
    )
    answers = [response for _, response in pass_finished.send(sender=None, result=None)]
    assert "Removed 1 abandoned import upload(s)." in answers
    assert not ImportUpload.objects.exists()
    again = publisher_client.post(URL, {"confirm": str(dry_run.pk)}, follow=True)
    assert "That upload is gone" in again.content.decode()


def test_a_new_upload_replaces_the_dry_run_its_publisher_did_not_confirm(publisher_client):
    check(publisher_client, "first.json", ghost())
    check(publisher_client, "second.json", ghost())
    first, second = ImportRun.objects.filter(dry_run=True).order_by("pk")
    assert list(ImportUpload.objects.values_list("run", flat=True)) == [second.pk]
    again = publisher_client.post(URL, {"confirm": str(first.pk)}, follow=True)
    assert "That upload is gone" in again.content.decode()
