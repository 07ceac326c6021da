"""The blog's topic counts read every post, and must be planned for the posts there are
(config/postgresql/plans.py): a prepared statement's generic plan guessed one row and made the
index's counts five times slower at 10,000 posts. Every other statement a connection runs
often is still prepared."""

import pytest
from django.db import connection

from blog.models import BlogIndexPage
from config.postgresql.plans import planned_for_their_values
from tests.factories import publish_post

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

# More runs than psycopg's prepare_threshold (config/settings/base.py).
RUNS = 8


@pytest.fixture(autouse=True)
def nothing_prepared_yet(db):
    """The connection is shared with earlier tests: forget what they prepared (psycopg sees
    the command and forgets too)."""
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")


def prepared(pattern):
    """The connection's prepared statements whose SQL matches `pattern` (LIKE)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", [pattern]
        )
        return cursor.fetchone()[0]


TOPIC_COUNTS = '%AS "post_count"%'
LISTING = '%FROM "blog_blogpage" INNER JOIN%LIMIT%'


def test_the_topic_counts_are_never_prepared_while_a_listing_query_is(blog, topic):
    publish_post(blog, "Counted", topics=[topic])
    # The content cache is off in tests: every call counts afresh, as the first reader after
    # a change does.
    for _ in range(RUNS):
        counts = BlogIndexPage.objects.get(pk=blog.pk).topic_counts()
        list(blog.posts()[:12])
    assert [(t.name, t.post_count, t.total_posts) for t in counts] == [(topic.name, 1, 1)]
    assert prepared(TOPIC_COUNTS) == 0
    assert prepared(LISTING) >= 1


def test_statements_are_prepared_again_after_the_block(blog):
    with planned_for_their_values("default"):
        for _ in range(RUNS):
            list(blog.posts()[:3])
    assert prepared(LISTING) == 0
    for _ in range(RUNS):
        list(blog.posts()[:3])
    assert prepared(LISTING) >= 1
