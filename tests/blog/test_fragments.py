"""Reader pages rendered afresh (no page cache) reuse what every process has already worked out
(topic counts, rendered cards and articles) and still show each change on the next request."""

import json
from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.images.rect import Rect
from wagtail.models import PageViewRestriction, Site

from blog.caching.fragments import PostFragment
from blog.models import BlogIndexPage, BlogPage
from tests.blog.test_editor_previews import preview
from tests.blog.test_feeds import rss_items
from tests.blog.test_query_budget import FEED_BUDGET, INDEX_BUDGET, POST_BUDGET
from tests.factories import make_image, make_topic, publish_brief_post, publish_post, publish_posts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def content_cache_on(content_cache):
    """Every test here reads through the shared content cache, as production does."""


def queries_for(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def chip_counts(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return {
        " ".join(chip.find(string=True, recursive=False).split()): chip.select_one(
            ".chip__count"
        ).get_text(strip=True)
        for chip in soup.select(".topic-filter .chip")
    }


def test_topic_counts_follow_a_publish_and_an_unpublish(client, blog, author, topic, commit):
    other = make_topic("Networking")
    with commit():
        publish_post(blog, "First", authors=[author], topics=[topic])
    assert chip_counts(client.get("/blog/")) == {"All posts": "1", "GPU reliability": "1"}
    with commit():
        second = publish_post(blog, "Second", authors=[author], topics=[topic, other])
    counts = {"All posts": "2", "GPU reliability": "2", "Networking": "1"}
    assert chip_counts(client.get("/blog/")) == counts
    with commit():
        second.unpublish()
    assert chip_counts(client.get(f"/blog/topic/{topic.slug}/")) == {
        "All posts": "1",
        "GPU reliability": "1",
    }


def test_an_expired_post_leaves_the_counts_before_the_scheduler_runs(
    client, blog, author, topic, commit
):
    with commit():
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


def card_titles(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [a.get_text(strip=True) for a in soup.select(".card__title a, .featured__title a")]


def card_pictures(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [img["src"] for img in soup.select(".card__image, .featured__image")]


def test_an_edited_title_shows_on_every_card_at_the_next_request(
    client, blog, author, topic, commit
):
    with commit():
        featured = publish_post(blog, "Featured", featured=True, authors=[author], topics=[topic])
        post = publish_post(blog, "Before", authors=[author], topics=[topic])
    assert card_titles(client.get("/blog/")) == ["Featured", "Before"]
    assert card_titles(client.get(featured.url)) == ["Before"]
    with commit():
        post.title = "After"
        post.save_revision().publish()
    assert card_titles(client.get("/blog/")) == ["Featured", "After"]
    assert card_titles(client.get(f"/blog/topic/{topic.slug}/")) == ["After", "Featured"]
    assert card_titles(client.get(featured.url)) == ["After"]


def test_a_new_hero_picture_shows_on_the_cards_at_the_next_request(
    client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Pictured", authors=[author], topics=[topic])
    before = card_pictures(client.get("/blog/"))
    with commit():
        post.hero_image = make_image("A new picture", colour=(200, 30, 30))
        post.hero_alt = "A red square"
        post.save_revision().publish()
    response = client.get("/blog/")
    assert card_pictures(response) != before
    assert "A red square" in response.content.decode()


def test_a_reframed_picture_shows_on_the_cards_at_the_next_request(
    client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Pictured", authors=[author], topics=[topic])
    before = card_pictures(client.get("/blog/"))
    with commit():
        image = post.hero_image
        image.set_focal_point(Rect(0, 0, 40, 40))
        image.save()
    assert card_pictures(client.get("/blog/")) != before


def test_cached_cards_keep_the_listings_within_their_query_budgets(
    client, blog, author, topic, commit
):
    with commit():
        publish_post(blog, "Featured", featured=True, authors=[author], topics=[topic])
        publish_posts(blog, 15, authors=[author], topics=[topic])
    post_url = BlogPage.objects.live().first().url
    urls = {"/blog/": INDEX_BUDGET, "/blog/?page=2": INDEX_BUDGET, post_url: POST_BUDGET}
    urls[f"/blog/topic/{topic.slug}/"] = INDEX_BUDGET
    urls["/blog/feed/"] = urls[f"/blog/topic/{topic.slug}/atom/"] = FEED_BUDGET
    for url, budget in urls.items():
        client.get(url)  # Wagtail's own caches (site root paths, renditions) warm up
        with commit():
            topic.save()  # every card goes stale
        cold = queries_for(client, url)
        warm = queries_for(client, url)
        assert warm <= budget, url
        assert cold <= budget, url
        # The counts, and each card's or feed item's bylines, topics and pictures are remembered.
        if url != post_url:
            assert warm < cold, url


def test_a_preview_shows_the_unsaved_article_and_readers_keep_the_live_one(
    client, admin_client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Live headline", authors=[author], topics=[topic])
    assert "Live headline" in article_title(client.get(post.url))
    response = preview(admin_client, post, title="Unsaved headline")
    assert article_title(response) == "Unsaved headline"
    assert share_title(response) == "Unsaved headline"
    assert "Unsaved words." in response.content.decode()
    response = client.get(post.url)
    assert (article_title(response), share_title(response)) == ("Live headline", "Live headline")


def test_a_published_edit_of_the_body_shows_at_the_next_request(
    client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Post", authors=[author], topics=[topic])
    assert "Body of Post." in client.get(post.url).content.decode()
    with commit():
        post.body = [{"type": "paragraph", "value": "<p>Rewritten body.</p>"}]
        post.save_revision().publish()
    body = client.get(post.url).content.decode()
    assert "Rewritten body." in body
    assert "Body of Post." not in body
    with commit():
        post.title = "Renamed post"
        post.save_revision().publish()
    response = client.get(post.url)
    assert (article_title(response), share_title(response)) == ("Renamed post", "Renamed post")


def share_title(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return soup.select_one('meta[property="og:title"]')["content"]


def article_title(response):
    return BeautifulSoup(response.content, "html.parser").select_one("h1.post__title").get_text()


def featured_title(response):
    node = BeautifulSoup(response.content, "html.parser").select_one(".featured__title")
    return node.get_text(strip=True) if node else None


def test_the_featured_slot_follows_a_publish_and_an_expiry(client, blog, author, topic, commit):
    now = timezone.now()
    with commit():
        publish_post(
            blog,
            "Older feature",
            featured=True,
            authors=[author],
            topics=[topic],
            published_at=now - timedelta(days=2),
        )
    assert featured_title(client.get("/blog/")) == "Older feature"
    with commit():
        publish_post(
            blog,
            "Brief feature",
            featured=True,
            authors=[author],
            topics=[topic],
            expire_at=now + timedelta(seconds=30),
        )
    assert featured_title(client.get("/blog/")) == "Brief feature"
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        response = client.get("/blog/")
        assert featured_title(response) == "Older feature"
        assert "Brief feature" not in card_titles(response)


def test_making_the_blog_private_or_unpublishing_it_shows_at_the_next_request(
    client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Inside", authors=[author], topics=[topic])
    assert client.get("/blog/").status_code == 200
    assert "Body of Inside." in client.get(post.url).content.decode()
    with commit():
        restriction = PageViewRestriction.objects.create(page=blog, restriction_type="login")
    assert client.get("/blog/").status_code == 302
    assert client.get(post.url).status_code == 302
    with commit():
        restriction.delete()
        blog.unpublish()
    assert client.get("/blog/").status_code == 404
    assert client.get(post.url).status_code == 404


def related_titles(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return [a.get_text(strip=True) for a in soup.select(".related .card__title a")]


def test_related_posts_follow_a_publish_and_an_expiry(client, blog, author, topic, commit):
    now = timezone.now()
    with commit():
        post = publish_post(blog, "Reading", authors=[author], topics=[topic])
        publish_post(
            blog,
            "Older",
            authors=[author],
            topics=[topic],
            published_at=now - timedelta(days=3),
        )
    assert related_titles(client.get(post.url)) == ["Older"]
    with commit():
        publish_post(
            blog,
            "Brief",
            authors=[author],
            topics=[topic],
            expire_at=now + timedelta(seconds=30),
        )
    assert related_titles(client.get(post.url)) == ["Brief", "Older"]
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        assert related_titles(client.get(post.url)) == ["Older"]


def listed_in_structured_data(response):
    soup = BeautifulSoup(response.content, "html.parser")
    data = json.loads(soup.select_one('script[type="application/ld+json"]').string)
    return [(entry["headline"], [a["name"] for a in entry["author"]]) for entry in data["blogPost"]]


def test_the_listings_structured_data_follows_an_edit_and_a_renamed_author(
    client, blog, author, topic, commit
):
    with commit():
        post = publish_post(blog, "Before", authors=[author], topics=[topic])
    assert listed_in_structured_data(client.get("/blog/")) == [("Before", ["Ada Lovelace"])]
    with commit():
        post.title = "After"
        post.save_revision().publish()
        author.name = "Grace Hopper"
        author.save()
    assert listed_in_structured_data(client.get("/blog/")) == [("After", ["Grace Hopper"])]


def test_a_feed_reader_sees_renamed_authors_and_topics_and_a_new_picture(
    client, blog, author, topic, commit
):
    def feed_item():
        (item,) = rss_items(client.get("/blog/feed/"))
        return (
            [creator.text for creator in item.findall("{http://purl.org/dc/elements/1.1/}creator")],
            [category.text for category in item.findall("category")],
            item.find("enclosure").get("url"),
        )

    with commit():
        post = publish_post(blog, "Post", authors=[author], topics=[topic])
    authors, topics, picture = feed_item()
    assert (authors, topics) == (["Ada Lovelace"], ["GPU reliability"])
    with commit():
        author.name = "Grace Hopper"
        author.save()
        topic.name = "Accelerators"
        topic.save()
        post.hero_image = make_image("a new hero")
        post.save_revision().publish()
    authors, topics, new_picture = feed_item()
    assert (authors, topics) == (["Grace Hopper"], ["Accelerators"])
    assert new_picture != picture


def test_a_new_release_of_the_code_never_shows_what_the_last_one_rendered(
    client, blog, author, topic, commit, monkeypatch
):
    """A deploy changes templates and code, not the content: nothing the old release stored in
    the shared cache may reach readers of the new one, even with the same content generation."""
    from blog import serving
    from blog.caching import generation

    with commit():
        publish_post(blog, "Post", authors=[author], topics=[topic])
    monkeypatch.setattr(generation, "code_release", lambda: "old-release")
    monkeypatch.setattr(serving, "CARD", PostFragment(serving.CARD.name, lambda r, p: "old card"))
    assert "old card" in client.get("/blog/?page=1").text
    monkeypatch.undo()
    page = client.get("/blog/?page=1").text
    assert "old card" not in page
    assert card_titles(client.get("/blog/?page=1")) == ["Post"]


def test_the_listings_structured_data_names_the_posts_it_shows_when_one_expires(
    client, blog, author, topic, commit
):
    now = timezone.now()
    with commit():
        publish_posts(blog, 2, authors=[author], topics=[topic], start=now)
        publish_brief_post(blog, now, authors=[author], topics=[topic])
    for _ in range(2):  # the second from what the first remembered
        listed = listed_in_structured_data(client.get("/blog/"))
        assert [title for title, _ in listed] == ["Post 000", "Brief", "Post 001"]
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        response = client.get("/blog/")
        assert [title for title, _ in listed_in_structured_data(response)] == [
            "Post 000",
            "Post 001",
        ]
        assert card_titles(response) == ["Post 000", "Post 001"]


def preview_blog(rf, editor, blog, **unsaved):
    """The blog as Wagtail previews it with the editor's unsaved field values."""
    previewed = BlogIndexPage.objects.get(pk=blog.pk)
    for field, value in unsaved.items():
        setattr(previewed, field, value)
    request = rf.get(blog.url)
    request.user = editor
    response = previewed.make_preview_request(request)
    response.render()
    return response


def og_title(response):
    soup = BeautifulSoup(response.content, "html.parser")
    return soup.select_one('meta[property="og:title"]')["content"]


def test_a_preview_of_the_blog_shows_its_unsaved_title_and_readers_never_do(
    client, rf, admin_user, blog, author, topic, commit
):
    with commit():
        publish_post(blog, "Listed", authors=[author], topics=[topic])
    # Wagtail renders a preview as a request to the site's own host name.
    host = Site.objects.get(is_default_site=True).hostname
    assert og_title(client.get("/blog/", HTTP_HOST=host)) == blog.title
    response = preview_blog(rf, admin_user, blog, seo_title="An unsaved title")
    assert og_title(response) == "An unsaved title"
    assert og_title(client.get("/blog/", HTTP_HOST=host)) == blog.title


def test_a_card_is_rendered_anew_once_the_next_visible_post_expires(
    client, blog, author, topic, commit
):
    """Kept cards end with everything else remembered: no later than the next expiry, so what
    was kept while a post was about to expire is never read past that moment."""
    now = timezone.now()
    with commit():
        post = publish_post(blog, "Kept card", authors=[author], topics=[topic])
        publish_post(
            blog, "Brief", authors=[author], topics=[topic], expire_at=now + timedelta(seconds=30)
        )
    assert "Kept card" in card_titles(client.get("/blog/"))
    # A change that moves no generation (a bulk update sends no signal) shows only once the
    # kept card has ended.
    BlogPage.objects.filter(pk=post.pk).update(title="Rendered anew")
    assert "Kept card" in card_titles(client.get("/blog/"))
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        assert "Rendered anew" in card_titles(client.get("/blog/"))
