"""Writing posts in bulk (the demo's generator, the importer) indexes them without leaving
Wagtail changed behind it: the process goes on loading a post's pictures as Wagtail does, and
indexing what anyone else saves meanwhile."""

import os
import threading

import pytest
from django.core.management import call_command
from django.db import connections
from wagtail.images.blocks import ImageChooserBlock

from blog.editorial.roles import PUBLISHERS
from blog.importing.importer import Importer
from blog.importing.sources import opened
from tests.blog.importing.exports import wordpress_export
from tests.blog.scheduling import edit_form_data, edit_url, make_user
from tests.factories import make_image, publish_post

pytestmark = pytest.mark.django_db


def test_after_generating_posts_a_bodys_pictures_still_load_in_one_query(
    demo_site, django_assert_num_queries
):
    with open(os.devnull, "w") as devnull:
        call_command("load_demo", posts=3, no_admin=True, stdout=devnull)
    pictures = [make_image(f"picture {n}").pk for n in range(3)]

    # A body's pictures come in one query, as Wagtail's chooser blocks fetch them; replacing
    # that lookup for the generator and deleting it after left one query per picture.
    with django_assert_num_queries(1):
        loaded = ImageChooserBlock().bulk_to_python(pictures)
    assert [picture.pk for picture in loaded] == pictures


# The import's thread writes beside the test's: PostgreSQL, committed (SQLite's in-memory test
# database locks whole tables against a second thread). serialized_rollback: the rows the
# migrations wrote (groups, workflow, site) come back for the tests after it.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_post_published_while_an_import_runs_in_the_same_process_is_found(
    client, blog, author, topic, tmp_path
):
    post = publish_post(blog, "Cooling fans", authors=[author], topics=[topic])
    client.force_login(make_user("petra", group=PUBLISHERS))
    first_post_in, publisher_done = threading.Event(), threading.Event()

    def hold_after_the_first_post(done, total, outcome):
        first_post_in.set()
        publisher_done.wait(timeout=60)

    def import_a_blog():
        try:
            export = wordpress_export(tmp_path, 3)
            with opened(export, media=str(tmp_path)) as (records, media):
                Importer(blog, media, progress=hold_after_the_first_post).run(records)
        finally:
            connections.close_all()  # this thread's own

    importing = threading.Thread(target=import_a_blog)
    importing.start()
    try:
        assert first_post_in.wait(timeout=60), "the import never wrote its first post"
        changes = {"title": "Liquid cooling at last", "action-publish": "action-publish"}
        published = client.post(edit_url(post), edit_form_data(client, post, **changes))
        assert published.status_code == 302
    finally:
        publisher_done.set()
        importing.join(timeout=120)

    found = client.get("/search/", {"q": "liquid cooling"}).content.decode()
    assert "1 result for" in found
    assert f'href="{post.url}"' in found
