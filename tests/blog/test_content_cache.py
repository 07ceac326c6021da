"""Reader pages rendered afresh (no page cache) with the shared content cache on, as in
production: the topic counts and related posts it remembers follow every committed change."""

from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.factories import make_topic, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def shared_cache(content_cache):
    """Every test here reads through the content cache."""


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def topic_counts(client, url="/blog/"):
    page = BeautifulSoup(client.get(url).content, "html.parser")
    counts = {}
    for chip in page.select(".chip"):
        count = chip.select_one(".chip__count")
        if count:
            counts[chip.get_text(" ", strip=True).rsplit(" ", 1)[0]] = int(count.get_text())
    return counts


def related_titles(client, post):
    page = BeautifulSoup(client.get(post.url).content, "html.parser")
    return [a.get_text(strip=True) for a in page.select(".related .card__title a")]


def test_topic_counts_follow_a_publish_and_an_unpublish(client, blog, author, topic, commit):
    with commit():
        publish_post(blog, "First", authors=[author], topics=[topic])
    assert topic_counts(client) == {"All posts": 1, "GPU reliability": 1}
    with commit():
        second = publish_post(blog, "Second", authors=[author], topics=[topic])
    assert topic_counts(client) == {"All posts": 2, "GPU reliability": 2}
    with commit():
        second.unpublish()
    assert topic_counts(client) == {"All posts": 1, "GPU reliability": 1}


def test_topic_counts_drop_when_a_post_expires_before_the_scheduler_runs(
    client, blog, author, topic, commit
):
    with commit():
        publish_post(blog, "Lasting", authors=[author], topics=[topic])
        publish_post(
            blog,
            "Brief",
            authors=[author],
            topics=[topic],
            expire_at=timezone.now() + timedelta(minutes=1),
        )
    assert topic_counts(client)["GPU reliability"] == 2
    # Two minutes on: well within the cache's ten-minute lifetime, past the expiry.
    with time_machine.travel(timezone.now() + timedelta(minutes=2), tick=False):
        assert topic_counts(client)["GPU reliability"] == 1


def test_related_posts_show_a_newly_published_post_of_the_same_topic(
    client, blog, author, topic, commit
):
    other = make_topic("Kernels")
    with commit():
        post = publish_post(blog, "Reading", authors=[author], topics=[topic])
        publish_post(blog, "Elsewhere", authors=[author], topics=[other])
    assert related_titles(client, post) == []
    with commit():
        publish_post(blog, "Same topic", authors=[author], topics=[other, topic])
        publish_post(blog, "Also same", authors=[author], topics=[topic])
    assert sorted(related_titles(client, post)) == ["Also same", "Same topic"]
