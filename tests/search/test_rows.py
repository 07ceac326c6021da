"""Result rows and ranked pages in the cases a reader rarely meets: a post that stopped being
readable after its search was ranked, and rankings that come without a count."""

import pytest
from django.test import RequestFactory

from blog.models import BlogPage
from search.ranking import RankedResults
from search.rows import PostsToShow, rows_by_id, texts_by_id
from tests.factories import publish_post

from .helpers import body

pytestmark = pytest.mark.django_db


def test_a_post_no_longer_readable_gets_no_row_and_no_text(blog, author):
    kept = publish_post(blog, "Kept", body=body("Still here."), authors=[author])
    gone = publish_post(blog, "Gone", authors=[author])
    gone.unpublish()
    request = RequestFactory().get("/search/", {"q": "x"})
    posts = PostsToShow(BlogPage.objects.readable(), [kept.pk, gone.pk])
    assert [row["title"] for row in rows_by_id(request, posts).values()] == ["Kept"]
    assert texts_by_id(request, posts, [kept.pk, gone.pk]) == {kept.pk: "Still here.", gone.pk: ""}


def test_results_ranked_by_a_search_server_are_counted_by_the_search(blog, author):
    """OpenSearch ranks on its own server: no count comes with the ranking."""
    publish_post(blog, "Zebra one", authors=[author])
    publish_post(blog, "Zebra two", authors=[author])
    results = RankedResults(lambda: BlogPage.objects.search("zebra"), None)
    assert results.count() == 2
    assert len(results[0:1]) == 1
