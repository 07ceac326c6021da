"""WordPress's own Theme Unit Test export (fixtures/real/, not written by this project),
imported whole: every published post live at once, every old address answering 301, a second
run changing nothing, and the reader pages showing nothing that is not public."""

import re
from datetime import UTC, datetime

import pytest
from wagtail.contrib.redirects.models import Redirect
from wagtail.models import PageViewRestriction

from blog.importing.models import ImportedItem
from blog.models import BlogPage, Topic

from .conftest import FIXTURES

# Whole real exports, imported again by each test: PostgreSQL's pass runs them (slow).
pytestmark = pytest.mark.slow

REAL_WXR = FIXTURES / "real" / "themeunittestdata.wordpress.xml"
# Words only the draft, the scheduled post and the password-protected post hold.
NOT_PUBLIC = [
    "This post is drafted and not published yet",
    "This post is scheduled to be published in the future",
    "should not be visible until the password is entered",
]


@pytest.fixture
def imported(run_import):
    return run_import(REAL_WXR)


def test_every_published_post_is_live_at_once(imported):
    assert imported.startswith(
        "56 posts are live (1 behind its old password), 1 scheduled, 1 draft; "
        "37 pictures were not in the export."
    )
    assert "  created        58" in imported
    assert "  failed          0" in imported
    # Pages, attachments, menus and comments are reported, never mixed into the posts.
    assert "  skipped        21" in imported
    assert imported.count("it is a WordPress page, not a post") == 21
    assert "37 media library entries (attachments)" in imported
    assert "28 comments on the posts were not imported" in imported
    assert BlogPage.objects.live().count() == 56
    assert not BlogPage.objects.filter(title="Draft", live=True).exists()
    scheduled = BlogPage.objects.get(slug="scheduled")
    assert not scheduled.live
    assert scheduled.scheduled_revision.approved_go_live_at == datetime(
        2030, 1, 1, 19, 0, 18, tzinfo=UTC
    )


def test_the_old_blogs_rules_arrive_with_its_posts(imported):
    protected = BlogPage.objects.get(slug="template-password-protected")
    assert protected.live
    restriction = PageViewRestriction.objects.get(page=protected)
    assert restriction.restriction_type == PageViewRestriction.PASSWORD
    assert restriction.password == "enter"
    assert BlogPage.objects.get(slug="template-sticky").featured
    untitled = BlogPage.objects.get(title="Untitled post 1169")
    assert untitled.live
    # Dated as the old blog dated it, not by the import.
    sticky = BlogPage.objects.get(slug="template-sticky")
    assert sticky.first_published_at == datetime(2012, 1, 7, 14, 7, 21, tzinfo=UTC)
    # A category and a tag of one name are one topic; 100+ tags on one post all arrive.
    many_tags = BlogPage.objects.get(slug="edge-case-many-tags")
    assert len(many_tags.topics) > 30
    assert len({t.pk for t in many_tags.topics}) == len(many_tags.topics)
    assert Topic.objects.filter(slug="content-2").count() == 1
    # Empty bodies, galleries, shortcodes and audio never reach readers raw.
    for post in BlogPage.objects.all():
        assert not re.search(r"\[(gallery|caption|audio|video|embed)\b", post.body_text())
    # The Theme Unit Test names no files: their alt text waits in the report, not on posts.
    assert not BlogPage.objects.exclude(hero_alt="").exists()


def reader_answers(client, paths):
    return {path: client.get(path) for path in paths}


def test_old_addresses_reader_pages_and_a_second_run(client, imported, run_import):
    live = {post.pk: post for post in BlogPage.objects.live()}
    # Every old address of a live post answers 301 with the post's new address.
    redirects = Redirect.objects.filter(redirect_page__in=live)
    assert redirects.count() >= 2 * len(live)
    for redirect in redirects:
        path = redirect.old_path
        response = client.get(path)
        assert response.status_code == 301, path
        assert response["Location"] == live[redirect.redirect_page_id].url
    assert client.get("/2009/09/05/edge-case-no-title/")["Location"] == (
        BlogPage.objects.get(title="Untitled post 1169").url
    )
    # Category and tag archives lead to the topic pages.
    archive = client.get("/category/classic/")
    assert archive.status_code == 301 and archive["Location"] == "/blog/topic/classic/"
    nested = client.get("/category/parent/child-1/child-2/")
    assert nested.status_code == 301 and nested["Location"] == "/blog/topic/child-2/"

    paths = ["/blog/", "/blog/feed/", "/blog/atom/", "/sitemap.xml", "/search/?q=displayed"]
    paths += [f"/blog/topic/{slug}/" for slug in Topic.objects.values_list("slug", flat=True)]
    paths += [post.url for post in live.values()]
    paths += ["/blog/topic/classic/feed/", "/search/?q=password", "/blog/?page=2"]
    for path, response in reader_answers(client, paths).items():
        assert response.status_code < 500, path
        text = response.content.decode()
        for words in NOT_PUBLIC:
            assert words not in text, (path, words)
    assert "Template: Sticky" in client.get("/blog/").content.decode()

    again = run_import(REAL_WXR)
    assert "  unchanged      58" in again
    assert "  created         0" in again and "  updated         0" in again
    assert again.startswith("56 posts are live (1 behind its old password), 1 scheduled, 1 draft")
    assert ImportedItem.objects.filter(key__startswith="post:").count() == 58
    assert Redirect.objects.filter(redirect_page__in=live).count() == redirects.count()
