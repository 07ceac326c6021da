"""The search backend: modelsearch's own database backend."""

import pytest
from django.db import connection

from blog.models import BlogPage
from search.ranking import scored_matches
from search.views import matching
from tests.factories import publish_post

from .helpers import body, result_titles

GIN_INDEX = "cedana_indexentry_title_body_gin"

pytestmark = pytest.mark.django_db


def test_every_word_must_match_but_may_be_in_title_or_body(client, blog, author):
    publish_post(blog, "Restore drills", authors=[author], body=body("Latency is what hurts."))
    publish_post(blog, "Restore only", authors=[author], body=body("Nothing else here."))
    publish_post(blog, "Phrases apart", authors=[author], body=body("Latency, then restore."))
    response = client.get("/search/", {"q": "restore latency"})
    assert sorted(result_titles(response)) == ["Phrases apart", "Restore drills"]


@pytest.mark.postgres  # the index exists on PostgreSQL only
def test_modelsearch_still_matches_the_expression_our_gin_index_covers(blog, author):
    """search/migrations/0002 indexes `title || body` on modelsearch's own table, the
    expression its PostgreSQL backend matches against. If an upgrade changes that expression,
    the index serves nothing and a rare word reads every entry again (10 ms became ~80 at
    10,000 posts): this fails first."""
    publish_post(blog, "Jupyter kernels", authors=[author], body=body("A rare word."))
    scored = scored_matches(matching(BlogPage.objects.readable(), "jupyter"))
    sql, params = scored.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [GIN_INDEX])
        (index,) = cursor.fetchone()
        # PostgreSQL writes both expressions out the same way in its plan and index definition.
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "gin (((title || body)))" in index
    assert "(title || body) @@ " in plan, (
        "modelsearch no longer matches `title || body`: search/migrations/0002's index is "
        f"unused. Plan:\n{plan}"
    )
