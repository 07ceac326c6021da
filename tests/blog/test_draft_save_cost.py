"""What an editor's Save draft, Submit and a publisher's Approve cost the server (issue 33,
point 9): a draft retires nothing readers were shown and is not indexed again, and an approval
retires what readers were shown once, however many rows it writes. The figures before these
changes are in the budgets' comments; `make bench BENCH_ARGS="--only editor-actions"` times
the same actions in a browser."""

import re
from contextlib import suppress

import pytest
from django.db import transaction

from blog.caching.generation import stored_snapshot
from blog.editorial.roles import EDITORS, PUBLISHERS
from tests.factories import draft_post, publish_post

from .scheduling import edit_form_data, edit_url, make_user

pytestmark = pytest.mark.django_db


def generation():
    return stored_snapshot().value


@pytest.fixture
def posts(blog, author, topic):
    return {
        "live": publish_post(blog, "Cooling fans", authors=[author], topics=[topic]),
        "never published": draft_post(blog, "Liquid cooling", authors=[author], topics=[topic]),
    }


def save_draft(client, post, **changes):
    data = edit_form_data(client, post, **changes)
    response = client.post(edit_url(post), data)
    assert response.status_code == 302
    assert response["Location"] == edit_url(post)


def submitted_and_ready_to_approve(client, post, commit):
    """An Editor submits the post; a Publisher, signed in, has the editor's Approve form."""
    client.force_login(make_user("eddie", group=EDITORS))
    with commit():
        client.post(edit_url(post), edit_form_data(client, post, **{"action-submit": "1"}))
    client.force_login(make_user("pat", group=PUBLISHERS))
    approve = edit_form_data(client, post)
    approve["action-workflow-action"] = "true"
    approve["workflow-action-name"] = "approve"
    return approve


def test_saving_a_draft_of_a_post_never_published_leaves_readers_pages_as_they_were(
    client, posts, commit
):
    post = posts["never published"]
    client.force_login(make_user("eddie", group=EDITORS))
    before = generation()
    with commit():
        save_draft(client, post, title="Liquid cooling, the draft", seo_title="Cooler")
    assert generation() == before
    post.refresh_from_db()
    assert post.title == "Liquid cooling, the draft"


def test_approving_a_post_retires_readers_pages_once(client, posts, commit):
    post = posts["never published"]
    approve = submitted_and_ready_to_approve(client, post, commit)
    before = generation()
    with commit():
        assert client.post(edit_url(post), approve).status_code == 302
    post.refresh_from_db()
    assert post.live
    # Seven bumps before: the page saved three times, its byline and topic, the publish signal.
    assert generation() == before + 1


@pytest.mark.parametrize(
    ("kind", "budget"),
    # Before: 101 and 186 (the post never published was indexed twice and bumped three times,
    # its topics and bylines read 16 times an indexing).
    [("live", 80), ("never published", 135)],
)
def test_a_draft_save_costs_no_reindex_of_what_readers_search(
    client, posts, commit, django_assert_max_num_queries, kind, budget
):
    post = posts[kind]
    client.force_login(make_user("eddie", group=EDITORS))
    data = edit_form_data(client, post, seo_title="Cooler")
    with django_assert_max_num_queries(budget), commit():
        assert client.post(edit_url(post), data).status_code == 302


def test_approving_a_post_costs_one_retirement_and_no_repeated_reads_of_its_topics(
    client, posts, commit, django_assert_max_num_queries
):
    post = posts["never published"]
    approve = submitted_and_ready_to_approve(client, post, commit)
    # Before: 349 (seven bumps, and the topics and bylines read 16 times each indexing).
    with django_assert_max_num_queries(265), commit():
        assert client.post(edit_url(post), approve).status_code == 302


def test_a_change_after_a_rolled_back_one_still_retires_readers_pages(topic, commit):
    """The guard on the one bump per commit: a rolled-back change leaves nothing pending that
    would swallow the next change's bump."""
    before = generation()
    with commit(), suppress(RuntimeError), transaction.atomic():
        topic.name = "Thermal design"
        topic.save()
        raise RuntimeError("the editor's request failed")
    assert generation() == before
    with commit():
        topic.name = "Cooling"
        topic.save()
    assert generation() == before + 1


def found(client, words):
    page = client.get("/search/", {"q": words}).content.decode()
    return int(re.search(r"(\d+) results? for", page).group(1))


def test_readers_search_the_live_words_until_the_draft_is_published(client, posts, commit):
    """The guard on the skipped re-index: publishing still indexes the post's new words."""
    post = posts["live"]
    client.force_login(make_user("pat", group=PUBLISHERS))
    with commit():
        save_draft(client, post, title="Immersion tanks")
    assert found(client, "cooling fans") == 1
    assert found(client, "immersion tanks") == 0
    with commit():
        data = edit_form_data(client, post, title="Immersion tanks")
        data["action-publish"] = "action-publish"
        assert client.post(edit_url(post), data).status_code == 302
    assert found(client, "immersion tanks") == 1
