"""What readers see after an import: only public posts, and old addresses that still work."""

from datetime import UTC, datetime

import pytest
import time_machine

from blog.editorial.scheduling import run_pass
from blog.models import BlogPage

from .conftest import FIXTURES


@pytest.fixture
def imported(run_import, media):
    return run_import(FIXTURES / "wordpress.xml", "--media", str(media))


def test_the_blog_lists_only_public_posts(client, imported):
    page = client.get("/blog/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hello, world &amp; friends" in html
    assert "Lost picture" in html  # its picture is missing; published all the same
    for hidden in ("Draft thoughts", "Coming soon", "Team only", "Needs review"):
        assert hidden not in html


def test_every_imported_post_answers_without_a_server_error(client, imported):
    answers = {
        post.slug: client.get(f"/blog/{post.slug}/").status_code for post in BlogPage.objects.all()
    }
    assert answers.pop("hello-world") == 200
    assert answers.pop("مرحبا") == 200
    assert answers.pop("lost-picture") == 200
    assert set(answers.values()) == {404}  # drafts and the scheduled post


def test_old_addresses_answer_301_to_the_new_ones(client, imported):
    for old in ("/2020/01/hello-world/", "/?p=10"):
        response = client.get(old)
        assert response.status_code == 301, old
        assert response["Location"] == "/blog/hello-world/"
    arabic = client.get("/2020/04/%d9%85%d8%b1%d8%ad%d8%a8%d8%a7/")
    assert arabic.status_code == 301
    assert client.get(arabic["Location"]).status_code == 200


def test_category_and_tag_archives_lead_to_the_topic(client, imported):
    for old, topic in (("/category/news/", "news"), ("/tag/gpu/", "gpu")):
        response = client.get(old)
        assert response.status_code == 301
        assert response["Location"] == f"/blog/topic/{topic}/"
        assert client.get(response["Location"]).status_code == 200


def test_drafts_have_no_old_address_leading_to_them(client, imported):
    assert client.get("/?p=11").status_code == 200  # the home page, not the draft
    assert client.get("/?p=12").status_code == 200


def test_links_between_imported_posts_point_to_the_new_pages(imported):
    hello = BlogPage.objects.get(slug="hello-world")
    lost = BlogPage.objects.get(slug="lost-picture")
    assert f'<a linktype="page" id="{hello.pk}">the first post</a>' in lost.body[0].value.source


def test_imported_posts_are_found_by_search_and_in_the_feed(client, imported):
    found = client.get("/search/", {"q": "imported"})
    assert found.status_code == 200
    assert "Hello, world &amp; friends" in found.content.decode()
    feed = client.get("/blog/feed/").content.decode()
    assert "Hello, world" in feed and "Draft thoughts" not in feed


def test_a_scheduled_posts_old_addresses_lead_to_it_only_once_it_is_live(client, imported):
    """Before the go-live its old addresses answer as any unknown address does; after the
    scheduler publishes it, they answer 301 to the post."""
    assert client.get("/2099/03/coming-soon/").status_code == 404
    home = client.get("/?p=12")
    assert home.status_code == 200
    assert "coming-soon" not in home.content.decode()
    with time_machine.travel(datetime(2099, 3, 1, 9, 1, tzinfo=UTC), tick=False):
        assert run_pass(interval=30).published == 1
    for old in ("/2099/03/coming-soon/", "/?p=12"):
        response = client.get(old)
        assert response.status_code == 301, old
        assert response["Location"] == "/blog/coming-soon/"
    assert client.get("/blog/coming-soon/").status_code == 200


def test_an_imported_draft_gets_its_old_addresses_when_an_editor_publishes_it(client, imported):
    # Private in the old blog, imported as a draft.
    assert client.get("/2020/03/team-only/").status_code == 404
    post = BlogPage.objects.get(slug="team-only")
    post.save_revision().publish()
    response = client.get("/2020/03/team-only/")
    assert response.status_code == 301
    assert response["Location"] == "/blog/team-only/"
