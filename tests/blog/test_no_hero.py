"""A post without a hero picture, as WordPress and Ghost imports bring many, on every surface a
reader or an editor meets: it reads as a normal post, with a blueprint sheet where the picture
would be, and nothing broken, empty or "None"."""

import json
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.utils import timezone

from blog.editorial.content_checks import HERO_RULE
from blog.models import BlogPage
from tests.blog.test_editor_form import add_url, post_form
from tests.blog.test_editor_previews import axe_configuration, preview
from tests.factories import publish_post

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def page_of(response):
    assert response.status_code == 200
    page = BeautifulSoup(response.content, "html.parser")
    assert "None" not in page.get_text(" ")
    for img in page.select("img"):
        assert img.get("src", "").strip(), img
        assert img.get("alt", "").strip(), img
    return page


def json_ld(page):
    [script] = page.select('script[type="application/ld+json"]')
    return json.loads(script.string)


def meta(page, key):
    tag = page.select_one(f'head meta[property="{key}"], head meta[name="{key}"]')
    return tag["content"] if tag else None


@pytest.fixture
def bare(blog, author, topic):
    """Imported from a blog that had no featured picture for it."""
    return publish_post(
        blog,
        "Notes without a picture",
        hero=False,
        authors=[author],
        topics=[topic],
        published_at=timezone.now() - timedelta(hours=1),
    )


@pytest.fixture
def pictured(blog, author, topic):
    return publish_post(
        blog,
        "Notes with a picture",
        authors=[author],
        topics=[topic],
        published_at=timezone.now() - timedelta(hours=2),
    )


def cards(page):
    return {
        card.select_one(".card__title").get_text(strip=True): card for card in page.select(".card")
    }


def assert_blank_sheet(card, topic):
    assert card.select_one("img") is None
    sheet = card.select_one(".blank-sheet")
    assert sheet["aria-hidden"] == "true"
    assert sheet.get_text(strip=True) == topic.name


@pytest.mark.parametrize("url", ["/blog/", "/blog/topic/gpu-reliability/"])
def test_a_listing_mixing_posts_with_and_without_a_picture_draws_a_sheet_for_the_missing_one(
    client, bare, pictured, topic, url
):
    by_title = cards(page_of(client.get(url)))
    assert_blank_sheet(by_title[bare.title], topic)
    assert by_title[pictured.title].select_one("img.card__image")
    assert by_title[pictured.title].select_one(".blank-sheet") is None


def test_a_featured_post_without_a_picture_fills_the_slot_with_a_sheet(client, blog, topic):
    publish_post(blog, "Featured, no picture", hero=False, featured=True, topics=[topic])
    featured = page_of(client.get("/blog/")).select_one(".featured")
    assert featured.select_one(".featured__title").get_text(strip=True) == "Featured, no picture"
    assert_blank_sheet(featured, topic)


def test_a_card_without_a_picture_or_topic_is_an_unlabelled_sheet(client, blog):
    publish_post(blog, "Untitled thoughts", hero=False)
    [card] = page_of(client.get("/blog/")).select(".card, .featured__card")
    assert card.select_one(".blank-sheet").get_text(strip=True) == ""
    assert card.select_one(".blank-sheet__label") is None


def test_the_post_page_opens_on_its_header_without_an_empty_figure(client, bare):
    page = page_of(client.get(bare.url))
    article = page.select_one("article.post")
    assert "post--no-hero" in article["class"]
    assert page.select_one(".post__hero") is None
    assert page.select_one(".post__title").get_text(strip=True) == bare.title


def test_the_post_page_with_a_picture_is_unchanged(client, pictured):
    page = page_of(client.get(pictured.url))
    assert page.select_one(".post__hero img.post__hero-image")
    assert "post--no-hero" not in page.select_one("article.post")["class"]
    assert page.select_one("[data-hero-picture]") is None


def test_related_cards_draw_a_sheet_for_a_post_without_a_picture(client, bare, pictured, topic):
    related = page_of(client.get(pictured.url)).select_one(".related")
    assert_blank_sheet(cards(related)[bare.title], topic)


def test_link_previews_and_structured_data_name_no_picture_when_there_is_none(client, bare):
    page = page_of(client.get(bare.url))
    for key in ("og:image", "og:image:width", "og:image:alt", "twitter:image"):
        assert meta(page, key) is None, key
    # A small card with the title and summary, not a large one with an empty picture.
    assert meta(page, "twitter:card") == "summary"
    data = json_ld(page)
    assert "image" not in data
    assert data["headline"] == bare.title


def test_link_previews_and_structured_data_keep_the_picture_when_there_is_one(client, pictured):
    page = page_of(client.get(pictured.url))
    assert meta(page, "og:image").startswith("http://")
    assert meta(page, "twitter:card") == "summary_large_image"
    assert json_ld(page)["image"] == [meta(page, "og:image")]


def test_feeds_carry_a_picture_only_for_the_post_that_has_one(client, bare, pictured):
    response = client.get("/blog/feed/")
    assert response.status_code == 200
    items = {
        item.findtext("title"): item
        for item in ElementTree.fromstring(response.content).find("channel").findall("item")
    }
    assert items[bare.title].find("enclosure") is None
    assert items[pictured.title].find("enclosure").get("url").startswith("http://")
    response = client.get("/blog/atom/")
    assert response.status_code == 200
    entries = {
        entry.findtext(f"{ATOM}title"): entry
        for entry in ElementTree.fromstring(response.content).findall(f"{ATOM}entry")
    }
    enclosures = f'{ATOM}link[@rel="enclosure"]'
    assert entries[bare.title].findall(enclosures) == []
    assert len(entries[pictured.title].findall(enclosures)) == 1
    assert b"None" not in response.content


def test_search_finds_a_post_without_a_picture(client, bare, pictured):
    page = page_of(client.get("/search/", {"q": "notes"}))
    titles = [" ".join(a.get_text().split()) for a in page.select(".search-result__title a")]
    assert sorted(titles) == sorted([bare.title, pictured.title])


def test_the_listing_read_from_the_shared_cache_keeps_both_kinds_of_card(
    client, content_cache, bare, pictured, topic
):
    first = client.get("/blog/")
    again = page_of(client.get("/blog/"))
    assert again.select_one(".listing").decode() == page_of(first).select_one(".listing").decode()
    assert_blank_sheet(cards(again)[bare.title], topic)
    assert cards(again)[pictured.title].select_one("img.card__image")


def test_an_editor_publishes_a_post_without_a_picture_from_the_admin(
    editor_client, editor, blog, topic
):
    response = editor_client.post(
        add_url(blog), post_form(editor.author_profile, topic, image=None, publish=True)
    )
    assert response.status_code == 302
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.live
    assert post.hero_image is None
    assert editor_client.get(post.url).status_code == 200


def test_the_content_check_asks_for_a_picture_on_a_post_without_one(admin_client, bare):
    config = axe_configuration(admin_client.get(bare.url))
    assert HERO_RULE in config["options"]["runOnly"]
    rules = {rule["id"]: rule for rule in config["spec"]["rules"]}
    assert rules[HERO_RULE]["selector"] == "[data-hero-picture]"
    checks = {check["id"]: check for check in config["spec"]["checks"]}
    assert checks[f"{HERO_RULE}-check"] == {
        "id": f"{HERO_RULE}-check",
        "evaluate": "attr-non-space-content-evaluate",
        "options": {"attribute": "data-hero-picture"},
    }
    assert config["messages"][HERO_RULE]["error_name"] == "Post has no hero picture"
    for mode in ("", "social"):
        marker = BeautifulSoup(preview(admin_client, bare, mode).content, "html.parser").select_one(
            "[data-hero-picture]"
        )
        assert marker["data-hero-picture"] == "", mode
