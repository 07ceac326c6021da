"""One rule for what readers may see (blog/visibility.py), however a surface asks it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from wagtail.models import PageViewRestriction

from blog import visibility
from blog.caching.remembered import lifetime_until_next_expiry
from blog.models import BlogIndexPage, BlogPage
from tests.factories import draft_post, make_blog_index, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def posts(home, blog, commit):
    """A post in every state, under a public blog, an unpublished one and a restricted one,
    committed as editors' changes are (the next expiry is recorded with each)."""
    with commit():
        return make_posts(home, blog)


def make_posts(home, blog):
    now = timezone.now()
    public = publish_post(blog, "Public")
    draft_post(blog, "Draft")
    expiring = publish_post(blog, "Past expiry")
    BlogPage.objects.filter(pk=expiring.pk).update(expire_at=now - timedelta(minutes=1))
    publish_post(blog, "Expires tomorrow", expire_at=now + timedelta(days=1))
    private = publish_post(blog, "Private")
    PageViewRestriction.objects.create(page=private, restriction_type="login")
    unpublished_blog = make_blog_index(home, title="Gone", slug="gone")
    publish_post(unpublished_blog, "Under an unpublished blog")
    unpublished_blog.unpublish()
    members = make_blog_index(home, title="Members", slug="members")
    publish_post(members, "Under a restricted blog")
    PageViewRestriction.objects.create(page=members, restriction_type="password", password="x")
    return public


READERS_SEE = {"Public", "Expires tomorrow"}


def titles(pages):
    return {page.title for page in pages}


def test_every_way_of_asking_finds_the_same_posts(posts, blog):
    assert titles(visibility.visible(BlogPage.objects.all())) == READERS_SEE
    assert titles(visibility.visible_in_one_query(BlogPage.objects.all())) == READERS_SEE
    assert titles(visibility.visible_children(blog, BlogPage.objects.all())) == READERS_SEE
    assert titles(BlogPage.objects.readable()) == READERS_SEE


def test_only_the_public_blog_is_one_readers_may_see(posts, blog):
    blogs = BlogIndexPage.objects.all()
    assert titles(visibility.visible(blogs)) == {blog.title}
    assert titles(visibility.visible_in_one_query(blogs)) == {blog.title}


def test_a_page_routing_reaches_is_visible_only_if_public_and_current(posts):
    by_title = {post.title: post for post in BlogPage.objects.all()}
    assert {title for title, post in by_title.items() if visibility.is_visible(post)} == {
        "Public",
        "Expires tomorrow",
        # Routing refuses these before asking: their blog is unpublished.
        "Under an unpublished blog",
    }


def test_the_scheduler_takes_down_only_posts_past_their_expiry(posts):
    assert titles(visibility.past_expiry(BlogPage.objects.all())) == {"Past expiry"}


def test_remembered_answers_live_no_longer_than_the_next_expiry(posts, settings):
    settings.CONTENT_CACHE_TTL = 10 * 24 * 3600
    lifetime = lifetime_until_next_expiry()
    assert 23 * 3600 < lifetime <= 24 * 3600
