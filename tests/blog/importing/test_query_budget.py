"""What a post costs the database to import, so a slower path shows up as a failing count."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from blog.importing.importer import Importer
from blog.importing.sources import opened

from .exports import wordpress_export

# A published post with a hero, two topics, an author, a body picture, a link to another
# imported post and three old addresses, with its share of the run's search and reference
# indexing: about 86. Most of it is Wagtail's own saving and publishing (three saves, three
# History rows, the revision read back). It was 117 before the importer read its own rows once
# per run.
QUERIES_PER_NEW_POST = 95


def queries_to_import(blog, folder, count):
    with (
        opened(wordpress_export(folder, count), media=str(folder)) as (export, media),
        CaptureQueriesContext(connection) as queries,
    ):
        Importer(blog, media).run(export)
    return len(queries.captured_queries)


def test_each_new_post_stays_within_its_query_budget(blog, tmp_path):
    # The first run also makes the topics, the author and the pictures; the second one finds
    # them, leaves its first 10 posts unchanged and adds 20.
    queries_to_import(blog, tmp_path / "first", 10)
    added = queries_to_import(blog, tmp_path / "second", 30)
    assert added <= 20 * QUERIES_PER_NEW_POST


def test_a_second_run_costs_the_same_however_many_posts_are_unchanged(blog, tmp_path):
    queries_to_import(blog, tmp_path / "first", 30)
    ten_unchanged = queries_to_import(blog, tmp_path / "ten", 10)
    thirty_unchanged = queries_to_import(blog, tmp_path / "thirty", 30)
    assert thirty_unchanged == ten_unchanged
