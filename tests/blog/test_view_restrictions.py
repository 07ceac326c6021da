"""Routing flags view restrictions in the query that fetches the page (one query fewer on every
public page); a restriction on the page or any ancestor must still stop readers."""

import pytest
from wagtail.models import PageViewRestriction

from tests.factories import make_topic, publish_post

pytestmark = pytest.mark.django_db

SECRET_TITLE = "Quarterly incident numbers"


@pytest.fixture
def post(blog):
    return publish_post(blog, SECRET_TITLE, topics=[make_topic("GPU reliability")])


@pytest.mark.parametrize("restricted", ["home", "blog", "post"])
@pytest.mark.parametrize(
    "url",
    ["/blog/", "/blog/feed/", "/blog/topic/gpu-reliability/atom/", "/blog/{post}/"],
)
def test_a_password_on_the_page_or_above_it_keeps_readers_out(
    client, home, blog, post, restricted, url
):
    page = {"home": home, "blog": blog, "post": post}[restricted]
    PageViewRestriction.objects.create(page=page, restriction_type="password", password="x")
    url = url.format(post=post.slug)
    response = client.get(url)
    guarded = restricted != "post" or url == f"/blog/{post.slug}/"
    if guarded:
        assert response.status_code == 200  # Wagtail's password form
        assert b"password" in response.content.lower()
        assert SECRET_TITLE.encode() not in response.content
    else:
        # A restricted post is left out of the blog's listings and feeds.
        assert response.status_code == 200
        assert SECRET_TITLE.encode() not in response.content


def test_an_unrestricted_post_is_served(client, post):
    response = client.get(post.url)
    assert response.status_code == 200
    assert SECRET_TITLE.encode() in response.content
