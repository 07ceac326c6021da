"""After a change, the scheduler ranks the searches readers make most before they ask again."""

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blog.editorial.scheduling import pass_finished
from search.warming import warm_popular_searches
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


def test_a_failing_after_pass_task_does_not_stop_publishing(blog, caplog):
    def broken(**kwargs):
        raise RuntimeError("cache on fire")

    pass_finished.connect(broken, dispatch_uid="test_broken")
    try:
        output = scheduler_pass()
    finally:
        pass_finished.disconnect(dispatch_uid="test_broken")
    assert "published 0, unpublished 0, failed 0" in output
    assert "cache on fire" in caplog.text
