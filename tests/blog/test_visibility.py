"""One rule for what readers may see (blog/visibility.py): the queryset filter, however its
caller asks it, the instance test and what a reader actually gets over HTTP all agree, page by
page, for a page in every state."""

from datetime import timedelta

import pytest
from django.utils import timezone
from wagtail.models import Page, PageViewRestriction

from blog.caching.remembered import lifetime_until_next_expiry
from blog.models import BlogPage
from blog.visibility import (
    awaiting_unpublish,
    flag_view_restricted,
    is_visible_to_readers,
    visible_to_readers,
)
from tests.blog.scheduling import schedule_post
from tests.factories import draft_post, make_blog_index, publish_post

pytestmark = pytest.mark.django_db

# Every page of the site below the home page, and whether readers may see it.
READERS_SEE = {
    "Blog": True,
    "Live and public": True,
    "Expires tomorrow": True,
    "Alias of a public post": True,
    "Draft": False,
    "Scheduled for tomorrow": False,
    "Past expiry, still flagged live": False,
    "Private": False,
    "Alias of a private post": False,
    "Gone": False,
    "Under an unpublished blog": False,
    "Members": False,
    "Under a private blog": False,
}


@pytest.fixture
def site_in_every_state(home, blog, commit):
    """A page in every state, under a public blog, an unpublished one and a private one,
    committed as editors' changes are (the next expiry is recorded with each)."""
    now = timezone.now()
    with commit():
        public = publish_post(blog, "Live and public")
        public.create_alias(update_slug="public-again")
        draft_post(blog, "Draft")
        schedule_post(blog, "Scheduled for tomorrow", now + timedelta(days=1))
        expiring = publish_post(blog, "Past expiry, still flagged live")
        BlogPage.objects.filter(pk=expiring.pk).update(expire_at=now - timedelta(minutes=1))
        publish_post(blog, "Expires tomorrow", expire_at=now + timedelta(days=1))
        private = publish_post(blog, "Private")
        PageViewRestriction.objects.create(page=private, restriction_type="login")
        private.create_alias(update_slug="private-again")
        unpublished_blog = make_blog_index(home, title="Gone", slug="gone")
        publish_post(unpublished_blog, "Under an unpublished blog")
        unpublished_blog.unpublish()
        members = make_blog_index(home, title="Members", slug="members")
        publish_post(members, "Under a private blog")
        PageViewRestriction.objects.create(page=members, restriction_type="login")
    Page.objects.filter(slug="public-again").update(title="Alias of a public post")
    Page.objects.filter(slug="private-again").update(title="Alias of a private post")
    return Page.objects.descendant_of(home).specific()


def as_routing_fetches(page):
    """The page as routing fetches it for a reader: carrying whether a restriction applies."""
    routed = flag_view_restricted(page.specific_class.objects.filter(pk=page.pk)).get()
    assert routed.view_restricted is not None
    return routed


def what_readers_get(client, page):
    """True: the page itself, 200; False: 404, or a redirect to log in."""
    response = client.get(page.url)
    if response.status_code == 200:
        assert page.title in response.content.decode()
        return True
    assert response.status_code in (302, 404), page.title
    if response.status_code == 302:
        assert "next=" in response["Location"], page.title
    return False


@pytest.mark.parametrize("caches", [None, "content_cache", "page_cache"])
def test_the_filter_the_instance_test_and_http_agree_on_every_page(
    request, client, caches, site_in_every_state
):
    if caches:
        request.getfixturevalue(caches)
    answers, expected = {}, {}
    for page in site_in_every_state:
        one = Page.objects.filter(pk=page.pk)
        answers[page.title] = {
            "filter": visible_to_readers(one).exists(),
            "filter, few rows": visible_to_readers(one, few=True).exists(),
            "filter, children": visible_to_readers(one, children_of=page.get_parent()).exists(),
            "filter, children of a routed parent": visible_to_readers(
                one, children_of=as_routing_fetches(page.get_parent())
            ).exists(),
            "instance": is_visible_to_readers(Page.objects.get(pk=page.pk).specific),
            "http": what_readers_get(client, page),
        }
        expected[page.title] = dict.fromkeys(answers[page.title], READERS_SEE[page.title])
    assert answers == expected


def test_the_scheduler_takes_down_only_pages_past_their_expiry(site_in_every_state):
    past = awaiting_unpublish(Page.objects.all())
    assert {page.title for page in past} == {"Past expiry, still flagged live"}


def test_remembered_answers_live_no_longer_than_the_next_expiry(site_in_every_state, settings):
    settings.CONTENT_CACHE_TTL = 10 * 24 * 3600
    lifetime = lifetime_until_next_expiry()
    assert 23 * 3600 < lifetime <= 24 * 3600
