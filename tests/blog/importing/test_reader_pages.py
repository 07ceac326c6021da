"""What readers see after an import: only public posts, and old addresses that still work."""

import pytest

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
    for hidden in ("Draft thoughts", "Coming soon", "Team only", "Needs review", "Lost picture"):
        assert hidden not in html


def test_every_imported_post_answers_without_a_server_error(client, imported):
    answers = {
        post.slug: client.get(f"/blog/{post.slug}/").status_code for post in BlogPage.objects.all()
    }
    assert answers.pop("hello-world") == 200
    assert answers.pop("مرحبا") == 200
    assert answers.pop("team-only") == 302  # to the sign-in page
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
