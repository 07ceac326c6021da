"""The search backend: modelsearch's, matching on PostgreSQL against the stored title+body."""

import pytest
from django.db import connection

from blog.models import BlogPage
from tests.factories import publish_post

from .helpers import body, result_titles

pytestmark = pytest.mark.django_db


def test_every_word_must_match_but_may_be_in_title_or_body(client, blog, author):
    publish_post(blog, "Restore drills", authors=[author], body=body("Latency is what hurts."))
    publish_post(blog, "Restore only", authors=[author], body=body("Nothing else here."))
    publish_post(blog, "Phrases apart", authors=[author], body=body("Latency, then restore."))
    response = client.get("/search/", {"q": "restore latency"})
    assert sorted(result_titles(response)) == ["Phrases apart", "Restore drills"]


@pytest.mark.postgres
def test_postgres_matches_the_stored_column_not_a_per_row_concatenation(blog, author):
    publish_post(blog, "Checkpoint restore", authors=[author])
    matches = BlogPage.objects.live().search("checkpoint")
    sql, params = matches.get_queryset().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "cedana_title_body @@" in plan
    assert "(title || body)" not in plan
    assert [post.title for post in matches] == ["Checkpoint restore"]
