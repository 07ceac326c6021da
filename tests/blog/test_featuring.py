"""A publisher features a post with one action, from the Posts list or the post itself, and is
told what readers will see; featuring is not an edit of the post."""

from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.utils import timezone
from wagtail.models import PageLogEntry

from blog.editorial.featuring import set_featured
from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.editorial.scheduling import run_pass
from blog.models import BlogPage
from tests.factories import publish_post

from .scheduling import make_user, schedule_post

pytestmark = pytest.mark.django_db

POSTS_URL = "/admin/blog/blogpage/"


def feature_url(post):
    return f"/admin/blog/posts/{post.pk}/feature/"


def featured_title(client):
    node = BeautifulSoup(client.get("/blog/").content, "html.parser").select_one(".featured__title")
    return node.get_text(strip=True) if node else None


def messages_of(response):
    page = BeautifulSoup(response.content, "html.parser")
    return " ".join(node.get_text(" ", strip=True) for node in page.select(".messages li"))


@pytest.fixture
def publisher(db):
    return make_user("petra", group=PUBLISHERS)


@pytest.fixture
def newsroom(blog, author, topic):
    now = timezone.now()
    return {
        "current": publish_post(
            blog,
            "Current feature",
            featured=True,
            authors=[author],
            topics=[topic],
            published_at=now - timedelta(days=1),
        ),
        "older": publish_post(
            blog,
            "An older classic",
            authors=[author],
            topics=[topic],
            published_at=now - timedelta(days=30),
        ),
    }


def test_a_publisher_features_an_older_post_from_the_posts_list(client, newsroom, publisher):
    older = newsroom["older"]
    revisions, updated = older.revisions.count(), older.last_published_at
    client.force_login(publisher)

    listing = client.get(POSTS_URL).content.decode()
    assert f'href="{feature_url(older)}?next=' in listing
    confirm = client.get(feature_url(older), {"next": POSTS_URL})
    assert "Readers see “Current feature” in the featured slot" in confirm.content.decode()
    response = client.post(feature_url(older), {"featured": "yes", "next": POSTS_URL}, follow=True)

    assert response.redirect_chain[-1][0] == POSTS_URL
    assert "“An older classic” is now the featured post at the top of the blog." in messages_of(
        response
    )
    assert featured_title(client) == "An older classic"
    # Not an edit: no new revision, and the card's "Updated" date stays.
    older.refresh_from_db()
    assert (older.revisions.count(), older.last_published_at) == (revisions, updated)
    assert PageLogEntry.objects.filter(page=older, action="blog.feature").exists()


def test_the_posts_list_marks_the_post_readers_see_in_the_slot(client, newsroom, publisher):
    client.force_login(publisher)
    page = BeautifulSoup(client.get(POSTS_URL).content, "html.parser")
    marked = [
        row.select_one("td").get_text(" ", strip=True)
        for row in page.select("table.listing tbody tr")
        if "★ In the featured slot" in row.get_text(" ", strip=True)
    ]
    assert len(marked) == 1 and marked[0].startswith("Current feature")


def test_a_featured_post_behind_a_newer_feature_is_marked_as_waiting(client, newsroom, publisher):
    set_featured(newsroom["older"], publisher, True)
    client.force_login(publisher)
    page = BeautifulSoup(client.get(POSTS_URL).content, "html.parser")
    rows = [row.get_text(" ", strip=True) for row in page.select("table.listing tbody tr")]

    def row_of(title):
        return next(row for row in rows if row.startswith(title))

    assert "★ In the featured slot" in row_of("An older classic")
    # It comes back to the slot if the newer one leaves it; it was not featured "before".
    assert "Waiting for the featured slot" in row_of("Current feature")
    assert "★" not in row_of("Current feature")


def test_featuring_a_scheduled_post_takes_the_slot_when_it_goes_live(
    client, blog, author, topic, newsroom, publisher
):
    go_live = timezone.now() + timedelta(hours=3)
    launch = schedule_post(blog, "Launch day", go_live, authors=[author], topics=[topic])
    client.force_login(publisher)

    response = client.post(feature_url(launch), {"featured": "yes"}, follow=True)

    said = messages_of(response)
    assert "“Launch day” will take the featured slot when it goes live on" in said
    assert "until then readers see “Current feature” there." in said
    assert featured_title(client) == "Current feature"
    with time_machine.travel(go_live + timedelta(seconds=1)):
        run_pass(interval=30)
        assert featured_title(client) == "Launch day"


def test_stopping_featuring_gives_the_slot_back_to_the_post_featured_before(
    client, newsroom, publisher
):
    set_featured(newsroom["older"], publisher, True)
    client.force_login(publisher)
    response = client.post(feature_url(newsroom["older"]), {"featured": "no"}, follow=True)
    assert "“An older classic” is no longer featured: readers see “Current feature” there." in (
        messages_of(response)
    )
    assert featured_title(client) == "Current feature"


def test_a_revision_saved_before_featuring_keeps_the_post_featured_when_published(
    newsroom, publisher
):
    older = newsroom["older"]
    draft = older.get_latest_revision_as_object()
    draft.title = "An older classic, revised"
    revision = draft.save_revision()
    set_featured(older, publisher, True)
    revision.publish()
    older.refresh_from_db()
    assert older.featured and older.title == "An older classic, revised"


def test_an_editor_can_neither_feature_nor_see_the_action(client, newsroom):
    client.force_login(make_user("eddie", group=EDITORS))
    older = newsroom["older"]
    assert client.get(feature_url(older)).status_code in (302, 403)
    client.post(feature_url(older), {"featured": "yes"})
    assert not BlogPage.objects.get(pk=older.pk).featured
    assert feature_url(older) not in client.get(POSTS_URL).content.decode()
    assert feature_url(older) not in client.get(f"/admin/pages/{older.pk}/edit/").content.decode()


def test_the_post_editor_offers_the_action_to_a_publisher(client, newsroom, publisher):
    client.force_login(publisher)
    edit = client.get(f"/admin/pages/{newsroom['older'].pk}/edit/").content.decode()
    assert feature_url(newsroom["older"]) in edit and "Feature this post" in edit
    edit = client.get(f"/admin/pages/{newsroom['current'].pk}/edit/").content.decode()
    assert "Stop featuring" in edit


def test_an_offsite_next_address_is_ignored(client, newsroom, publisher):
    client.force_login(publisher)
    response = client.post(
        feature_url(newsroom["older"]), {"featured": "yes", "next": "https://evil.example/"}
    )
    assert response.url == f"/admin/pages/{newsroom['older'].pk}/edit/"


def test_cached_pages_show_the_new_feature_at_once(client, page_cache, commit, newsroom, publisher):
    assert featured_title(client) == "Current feature"
    with commit():
        set_featured(newsroom["older"], publisher, True)
    assert featured_title(client) == "An older classic"
