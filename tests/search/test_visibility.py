"""Only live, public posts reach readers through search, and the index follows publishing."""

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone
from wagtail.models import PageViewRestriction
from wagtail.search.models import IndexEntry

from tests.factories import draft_post, make_blog_index, publish_post

from .helpers import body, result_titles, suggestion_titles

pytestmark = pytest.mark.django_db


def found(client, word):
    return result_titles(client.get("/search/", {"q": word})) + suggestion_titles(client, word)


def indexed_title(post):
    """The title the index holds (a tsvector's text on PostgreSQL, plain text on SQLite)."""
    [title] = IndexEntry.objects.filter(object_id=str(post.pk)).values_list("title", flat=True)
    return str(title).lower()


def test_a_draft_is_never_found(client, blog, author):
    draft_post(blog, "Zebra draft", authors=[author])
    assert found(client, "zebra") == []


def test_a_scheduled_post_is_not_found_until_it_goes_live(client, blog, author):
    post = draft_post(blog, "Zebra scheduled", authors=[author])
    post.go_live_at = timezone.now() + timedelta(days=1)
    post.save_revision().publish()
    assert found(client, "zebra") == []
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        call_command("publish_scheduled")
        assert found(client, "zebra") == ["Zebra scheduled", "Zebra scheduled"]


def test_an_expired_post_disappears_even_before_the_scheduler_runs(client, blog, author):
    publish_post(
        blog, "Zebra expiring", authors=[author], expire_at=timezone.now() + timedelta(hours=1)
    )
    assert found(client, "zebra") == ["Zebra expiring", "Zebra expiring"]
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        assert found(client, "zebra") == []
        call_command("publish_scheduled")
        assert found(client, "zebra") == []


def test_a_private_post_is_never_found(client, blog, author):
    post = publish_post(blog, "Zebra private", authors=[author])
    PageViewRestriction.objects.create(page=post, restriction_type="password", password="secret")
    assert found(client, "zebra") == []


def test_posts_under_an_unpublished_blog_are_never_found(client, home, author):
    other = make_blog_index(home, title="Archive", slug="archive")
    publish_post(other, "Zebra archived", authors=[author])
    other.unpublish()
    assert found(client, "zebra") == []


def test_the_draft_of_a_live_post_is_not_searchable(client, blog, author):
    post = publish_post(blog, "Zebra live", authors=[author])
    post.title = "Quagga rename"
    post.summary = "Secret quagga plans."
    post.save_revision()
    assert found(client, "quagga") == []
    assert found(client, "zebra") == ["Zebra live", "Zebra live"]
    assert "zebra" in indexed_title(post)
    assert "quagga" not in indexed_title(post)


def test_publishing_puts_a_post_in_the_index(client, blog, author):
    post = draft_post(blog, "Zebra news", authors=[author])
    post.get_latest_revision().publish()
    assert "zebra" in indexed_title(post)
    assert found(client, "zebra") == ["Zebra news", "Zebra news"]


def test_unpublishing_takes_a_post_out_of_results(client, blog, author):
    post = publish_post(blog, "Zebra news", authors=[author])
    post.unpublish()
    assert found(client, "zebra") == []


def test_deleting_removes_the_post_from_the_index(client, blog, author):
    post = publish_post(blog, "Zebra news", authors=[author])
    pk = post.pk
    post.delete()
    assert not IndexEntry.objects.filter(object_id=str(pk)).exists()
    assert found(client, "zebra") == []


def test_republishing_with_a_new_title_updates_the_index(client, blog, author):
    post = publish_post(blog, "Zebra news", summary="Fresh.", body=body("Fresh."), authors=[author])
    post.title = "Quagga news"
    post.save_revision().publish()
    assert found(client, "quagga") == ["Quagga news", "Quagga news"]
    assert result_titles(client.get("/search/", {"q": "zebra"})) == []
