"""After a change, the scheduler ranks the searches readers make most before they ask again."""

import io
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from blog.editorial.scheduling import pass_finished
from blog.models import BlogPage
from search.warming import warm_popular_searches
from tests.blog.scheduling import schedule_post
from tests.factories import publish_post

from .helpers import result_titles

pytestmark = pytest.mark.django_db


def scheduler_pass():
    out = io.StringIO()
    call_command("run_scheduler", "--once", stdout=out)
    return out.getvalue()


def search(client, q):
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/search/", {"q": q})
    ranked_here = any("WITH matched" in query["sql"] for query in captured.captured_queries)
    return result_titles(response), ranked_here


def test_popular_searches_are_ranked_again_after_a_publish(
    client, blog, author, content_cache, commit
):
    with commit():
        publish_post(blog, "Checkpoint basics", authors=[author])
    for q in ["checkpoint", "Checkpoint", "restore"]:
        client.get("/search/", {"q": q})
    with commit():
        publish_post(blog, "Checkpoint at scale", authors=[author])

    assert "Ranked 2 popular searches afresh." in scheduler_pass()
    titles, ranked_here = search(client, "CHECKPOINT")
    assert sorted(titles) == ["Checkpoint at scale", "Checkpoint basics"]
    assert not ranked_here  # the reader's search was ranked by the scheduler already
    assert "popular searches" not in scheduler_pass()  # nothing changed since


def test_without_the_content_cache_nothing_is_ranked_ahead(client, blog, author):
    publish_post(blog, "Checkpoint basics", authors=[author])
    client.get("/search/", {"q": "checkpoint"})
    assert warm_popular_searches() == 0


def due_post(blog, author, title):
    """A post scheduled an hour ago for a go-live time that has just passed."""
    go_live = timezone.now() - timedelta(seconds=1)
    with time_machine.travel(go_live - timedelta(hours=1), tick=False):
        return schedule_post(blog, title, go_live, authors=[author])


def test_a_failing_after_pass_task_does_not_stop_publishing(blog, author, caplog):
    def broken(**kwargs):
        raise RuntimeError("cache on fire")

    pass_finished.connect(broken, dispatch_uid="test_broken")
    try:
        first = due_post(blog, author, "Due first")
        assert "published 1, unpublished 0, failed 0" in scheduler_pass()
        second = due_post(blog, author, "Due after the failure")
        assert "published 1, unpublished 0, failed 0" in scheduler_pass()
    finally:
        pass_finished.disconnect(dispatch_uid="test_broken")
    assert BlogPage.objects.live().filter(pk__in=[first.pk, second.pk]).count() == 2
    reported = [r for r in caplog.records if r.getMessage().startswith("After-pass work")]
    assert [str(r.exc_info[1]) for r in reported] == ["cache on fire", "cache on fire"]
