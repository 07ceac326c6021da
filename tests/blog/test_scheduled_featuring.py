"""The featured slot follows the schedule by itself: no editor has to touch the blog index."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup

from blog.editorial.featuring import set_featured
from blog.editorial.scheduling import run_pass
from tests.factories import publish_post

from .scheduling import schedule_post

pytestmark = pytest.mark.django_db

GO_LIVE = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def featured_title(client):
    soup = BeautifulSoup(client.get("/blog/").content, "html.parser")
    node = soup.select_one(".featured__title")
    return node.get_text(strip=True) if node else None


def test_a_scheduled_featured_post_takes_the_slot_when_it_goes_live(client, blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=2), tick=False):
        publish_post(blog, "Current feature", featured=True, authors=[author], topics=[topic])
        schedule_post(blog, "Big launch", GO_LIVE, featured=True, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE - timedelta(seconds=1), tick=False):
        run_pass(interval=30)
        assert featured_title(client) == "Current feature"
    with time_machine.travel(GO_LIVE + timedelta(seconds=1), tick=False):
        run_pass(interval=30)
        assert featured_title(client) == "Big launch"


def test_an_expired_featured_post_leaves_the_slot(client, blog, author, topic):
    expiry = GO_LIVE + timedelta(days=7)
    with time_machine.travel(GO_LIVE - timedelta(days=2), tick=False):
        publish_post(blog, "Older feature", featured=True, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE, tick=False):
        post = publish_post(blog, "Limited offer", featured=True, authors=[author], topics=[topic])
        post.expire_at = expiry
        post.save_revision().publish()
        assert featured_title(client) == "Limited offer"
    with time_machine.travel(expiry + timedelta(seconds=1), tick=False):
        run_pass(interval=30)
        assert featured_title(client) == "Older feature"
    post.refresh_from_db()
    assert not post.live


def test_a_post_featured_last_that_expires_gives_the_slot_back(
    client, blog, author, topic, admin_user
):
    expiry = GO_LIVE + timedelta(days=1)
    with time_machine.travel(GO_LIVE, tick=False):
        publish_post(blog, "Flagged feature", featured=True, authors=[author], topics=[topic])
        notice = publish_post(blog, "Short notice", authors=[author], topics=[topic])
        notice.expire_at = expiry
        notice.save_revision().publish()
        set_featured(notice, admin_user, True)
        assert featured_title(client) == "Short notice"
    with time_machine.travel(expiry + timedelta(seconds=1), tick=False):
        run_pass(interval=30)
        assert featured_title(client) == "Flagged feature"
