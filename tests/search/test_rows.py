"""Result rows for posts that stopped being readable after their search was ranked: between
the change and the next content generation, a remembered ranking may still name them."""

import pytest
from django.test import RequestFactory

from blog.models import BlogPage
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
