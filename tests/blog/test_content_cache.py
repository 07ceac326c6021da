"""Reader pages rendered afresh (no page cache) reuse what every process has already worked out
(topic counts, rendered cards) and still show each change on the next request."""

from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.utils import timezone

from tests.factories import make_topic, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def content_cache_on(content_cache):
    """Every test here reads through the shared content cache, as production does."""


@pytest.fixture
def changes(django_capture_on_commit_callbacks):
    """Editors' changes commit for real: the generation moves only after a commit."""

    def committed():
        return django_capture_on_commit_callbacks(execute=True)

    return committed


def chip_counts(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return {
        " ".join(chip.find(string=True, recursive=False).split()): chip.select_one(
            ".chip__count"
        ).get_text(strip=True)
        for chip in soup.select(".topic-filter .chip")
    }


def test_topic_counts_follow_a_publish_and_an_unpublish(client, blog, author, topic, changes):
    other = make_topic("Networking")
    with changes():
        publish_post(blog, "First", authors=[author], topics=[topic])
    assert chip_counts(client.get("/blog/")) == {"All posts": "1", "GPU reliability": "1"}
    with changes():
        second = publish_post(blog, "Second", authors=[author], topics=[topic, other])
    counts = {"All posts": "2", "GPU reliability": "2", "Networking": "1"}
    assert chip_counts(client.get("/blog/")) == counts
    with changes():
        second.unpublish()
    assert chip_counts(client.get(f"/blog/topic/{topic.slug}/")) == {
        "All posts": "1",
        "GPU reliability": "1",
    }


def test_an_expired_post_leaves_the_counts_before_the_scheduler_runs(
    client, blog, author, topic, changes
):
    with changes():
        publish_post(blog, "Stays", authors=[author], topics=[topic])
        publish_post(
            blog,
            "Expires",
            authors=[author],
            topics=[topic],
            expire_at=timezone.now() + timedelta(seconds=30),
        )
    assert chip_counts(client.get("/blog/"))["All posts"] == "2"
    with time_machine.travel(timezone.now() + timedelta(minutes=1), tick=False):
        assert chip_counts(client.get("/blog/")) == {"All posts": "1", "GPU reliability": "1"}
