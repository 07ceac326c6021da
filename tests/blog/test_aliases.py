"""Wagtail page aliases of posts (blog/visibility.py's alias branches): an alias shows what its
source shows, and never more. An alias has no view restriction of its own: it follows its
source's, so a password on the post must keep readers out of the alias too."""

from datetime import timedelta

import pytest
from django.utils import timezone
from wagtail.models import PageViewRestriction

from blog.models import BlogPage
from tests.factories import draft_post, publish_post

pytestmark = pytest.mark.django_db

TITLE = "Quarterly incident numbers"


@pytest.fixture
def post(blog, author, topic):
    return publish_post(blog, TITLE, authors=[author], topics=[topic])


@pytest.fixture
def alias(post):
    return post.create_alias(update_slug="incident-numbers-again")


def alias_url(alias):
    return f"/blog/{alias.slug}/"


def test_an_alias_of_a_live_post_shows_it(client, alias):
    response = client.get(alias_url(alias))
    assert response.status_code == 200
    assert TITLE in response.content.decode()


def test_an_alias_of_a_private_post_keeps_readers_out(client, post, alias):
    PageViewRestriction.objects.create(page=post, restriction_type="password", password="x")
    response = client.get(alias_url(alias))
    assert TITLE not in response.content.decode()
    assert b"password" in response.content.lower()  # Wagtail's password form, as on the post
    for url in ("/blog/", "/blog/feed/", "/blog/atom/", "/sitemap.xml", "/search/?q=quarterly"):
        assert alias.slug not in client.get(url).content.decode(), url


def test_an_alias_of_an_unpublished_post_is_not_found(client, post, alias):
    post.unpublish()
    assert client.get(alias_url(alias)).status_code == 404
    assert alias.slug not in client.get("/blog/").content.decode()


def test_an_alias_of_a_draft_is_not_found(client, blog, author, topic):
    draft = draft_post(blog, "Not ready yet", authors=[author], topics=[topic])
    alias = draft.create_alias(update_slug="not-ready-yet-again")
    assert client.get(alias_url(alias)).status_code == 404
    assert "Not ready yet" not in client.get("/blog/").content.decode()


def test_an_alias_of_an_expired_post_is_not_found(client, post, alias):
    """Between the expiry and the scheduler's next pass the post is still flagged live."""
    BlogPage.objects.filter(pk=post.pk).update(expire_at=timezone.now() - timedelta(minutes=1))
    post.refresh_from_db()
    post.save_revision().publish()  # the alias takes its source's fields on a publish
    BlogPage.objects.filter(pk=post.pk).update(expire_at=timezone.now() - timedelta(minutes=1))
    assert client.get(alias_url(alias)).status_code == 404
    assert alias.slug not in client.get("/blog/").content.decode()
