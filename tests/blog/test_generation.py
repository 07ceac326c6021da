"""The content generation: readers learn it from the cache's copy, changes move both."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import timezone

from blog.caching.fragments import PostFragment, render_fragments
from blog.caching.generation import (
    GENERATION_KEY,
    Generation,
    OneGenerationPerRequest,
    bump_generation,
    current_generation,
    next_expiry_seen,
    stored_snapshot,
)
from blog.caching.remembered import lifetime_until_next_expiry, remember
from config.storage import outage_seen
from tests.factories import publish_post

pytestmark = pytest.mark.django_db


def test_a_reader_learns_the_generation_without_a_query(content_cache, django_assert_num_queries):
    current_generation()  # the first request copies it from the database
    with django_assert_num_queries(0):
        seen = current_generation()
    assert seen == stored_snapshot().value


def test_a_change_moves_the_generation_in_the_database_and_the_copy(content_cache):
    before = current_generation()
    bump_generation()
    assert stored_snapshot().value != before
    assert cache.get(GENERATION_KEY).value == stored_snapshot().value == current_generation()


def test_a_change_records_when_the_next_visible_post_expires(
    content_cache, blog, commit, django_assert_num_queries
):
    expires = timezone.now() + timedelta(hours=3)
    with commit():
        post = publish_post(blog, "Until tonight", expire_at=expires)
    with django_assert_num_queries(0):  # read with the generation, from the cache's copy
        assert next_expiry_seen() == expires
        assert 3 * 3600 - 60 < lifetime_until_next_expiry(longest=24 * 3600) <= 3 * 3600
    with commit():
        post.unpublish()
    assert next_expiry_seen() is None


def test_what_is_remembered_is_rebuilt_after_a_change(content_cache):
    built = []
    remember("thing", lambda: built.append(1) or len(built))
    assert remember("thing", lambda: built.append(1) or len(built)) == 1
    bump_generation()
    assert remember("thing", lambda: built.append(1) or len(built)) == 2


def test_none_is_remembered_too(content_cache):
    built = []
    for _ in range(2):
        assert remember("nothing", lambda: built.append(1)) is None
    assert built == [1]


def test_with_a_read_replica_the_generation_is_read_where_the_reader_reads(
    content_cache, settings, monkeypatch
):
    # A lagging replica must not have its old rows remembered under the primary's newer number.
    monkeypatch.setitem(settings.DATABASES, "replica", dict(settings.DATABASES["default"]))
    cache.set(GENERATION_KEY, Generation(4242))
    assert current_generation() == stored_snapshot().value != 4242


def test_nothing_built_while_the_object_store_is_down_is_kept(content_cache, rf):
    """A page built around a missing picture (its alt text instead) is for this reader only."""
    post = SimpleNamespace(pk=1)
    card = PostFragment("card", lambda request, post: next(versions))
    versions = iter(["degraded card", "whole card"])
    token = outage_seen.set(True)
    try:
        assert remember("thing", lambda: "degraded") == "degraded"
        assert render_fragments(rf.get("/"), [(post, card)]) == ["degraded card"]
    finally:
        outage_seen.reset(token)
    assert remember("thing", lambda: "whole") == "whole"
    assert render_fragments(rf.get("/"), [(post, card)]) == ["whole card"]


def test_a_request_reads_the_generation_once_and_sees_its_own_change(content_cache, rf):
    seen = []

    def view(request):
        seen.append(current_generation())
        cache.set(
            GENERATION_KEY, Generation(4242)
        )  # another process moved it: this page keeps its snapshot
        seen.append(current_generation())
        bump_generation()  # this request's own change it sees at once
        seen.append(current_generation())
        return HttpResponse()

    OneGenerationPerRequest(view)(rf.get("/"))
    assert seen[0] == seen[1] != seen[2] == stored_snapshot().value


def test_a_release_that_changes_a_template_or_a_stylesheet_keeps_to_its_own_entries(
    settings, tmp_path
):
    """Remembered blocks embed the stylesheet's hashed address: a release that only changes
    the CSS must not be served the last release's blocks."""
    from blog.caching import generation

    for source in generation.RELEASE_SOURCES:
        (tmp_path / source).mkdir()
    (tmp_path / "templates" / "base.html").write_text("<html>")
    (tmp_path / "static" / "site.css").write_text("body { color: black }")
    settings.BASE_DIR = tmp_path
    releases = []
    for change in [
        lambda: None,
        lambda: (tmp_path / "static" / "site.css").write_text("body { color: navy }"),
        lambda: (tmp_path / "templates" / "base.html").write_text("<html lang=en>"),
        lambda: (tmp_path / "static" / "notes.md").write_text("not shipped"),
    ]:
        change()
        generation.code_release.cache_clear()
        releases.append(generation.code_release())
    generation.code_release.cache_clear()
    assert len(set(releases[:3])) == 3
    assert releases[3] == releases[2]
