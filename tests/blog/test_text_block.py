"""A post written as one continuous text (issue #33, point 10): headings, a list, a quote, a
picture and an embed typed into one Text block read, count and search as they would have as
separate blocks."""

import pytest
from bs4 import BeautifulSoup
from django.template import Context, Template
from django.urls import reverse
from wagtail.embeds.embeds import get_embed_hash
from wagtail.embeds.models import Embed

from blog.blocks import BodyBlock
from blog.demo.bodies import body_for
from blog.demo.posts import POSTS
from blog.models import BlogPage
from blog.renditions import body_filter_specs
from tests.factories import make_image, publish_post

pytestmark = pytest.mark.django_db

VIDEO = "https://vimeo.com/76979871"


def written_text(picture):
    """The text as the editor's Draftail stores it."""
    return (
        '<h2 data-block-key="a1">Why the <i>cluster</i> stalled</h2>'
        '<p data-block-key="a2">Three nodes lost their links at once.</p>'
        '<ul><li data-block-key="a3">Check the switch</li>'
        '<li data-block-key="a4">Replace the cable</li></ul>'
        '<blockquote data-block-key="a5">It was the cable.</blockquote>'
        f'<embed alt="A rack of GPUs with one cable unplugged" embedtype="image" '
        f'format="fullwidth" id="{picture.pk}"/>'
        f'<embed embedtype="media" url="{VIDEO}"/>'
        "<hr/>"
        '<h3 data-block-key="a6">Q&amp;A</h3>'
    )


@pytest.fixture
def video(db):
    """The embed as the site's finder stored it once, so rendering fetches nothing."""
    return Embed.objects.create(
        hash=get_embed_hash(VIDEO),
        url=VIDEO,
        type="video",
        title="The cable, unplugged",
        provider_name="Vimeo",
        width=640,
        height=360,
        html='<iframe src="https://player.vimeo.com/video/76979871" title="The cable"></iframe>',
    )


@pytest.fixture
def post(blog, author, topic, video):
    picture = make_image("Unplugged rack", size=(1600, 900))
    body = [{"type": "paragraph", "value": written_text(picture)}]
    return publish_post(blog, "The stalled cluster", body=body, authors=[author], topics=[topic])


def read(client, post):
    response = client.get(post.url)
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser").select_one(".post__body")


def test_headings_written_in_the_text_can_be_linked_to_like_heading_blocks(client, post):
    body = read(client, post)
    heading = body.select_one("h2#why-the-cluster-stalled")
    assert heading.select_one("i").get_text() == "cluster"
    assert heading.select_one("a.anchor-link")["href"] == "#why-the-cluster-stalled"
    assert body.select_one("h3")["id"] == "qa"


def test_a_heading_without_letters_to_link_by_is_left_as_written(client, blog):
    text = '<h2 data-block-key="a1">🚀 → ✓</h2>'
    post = publish_post(blog, "Symbols", body=[{"type": "paragraph", "value": text}])
    heading = read(client, post).select_one("h2")
    assert heading.get_text() == "🚀 → ✓"
    assert not heading.has_attr("id")


def test_lists_quotes_and_rules_written_in_the_text_are_shown(client, post):
    body = read(client, post)
    assert [li.get_text() for li in body.select("ul li")] == [
        "Check the switch",
        "Replace the cable",
    ]
    assert body.select_one("blockquote").get_text() == "It was the cable."
    assert body.select_one("hr") is not None


def test_a_picture_in_the_text_is_responsive_with_its_alt_text(client, post):
    picture = read(client, post).select_one("figure.figure img")
    assert picture["alt"] == "A rack of GPUs with one cable unplugged"
    assert len(picture["srcset"].split(",")) == 2
    assert picture["loading"] == "lazy"
    # The content checks look for pictures that need alt text by this marker.
    assert picture["data-content-check"] == "body-image"


def test_a_picture_marked_decorative_when_inserted_is_skipped_by_screen_readers(client, blog):
    picture = make_image("Ornament")
    ornament = f'<embed alt="" embedtype="image" format="fullwidth" id="{picture.pk}"/>'
    post = publish_post(blog, "Ornamented", body=[{"type": "paragraph", "value": ornament}])
    shown = read(client, post).select_one("figure.figure img")
    assert shown["alt"] == ""
    assert not shown.has_attr("data-content-check")


def test_placing_a_picture_in_the_text_offers_full_width_only_and_is_quick(admin_client):
    picture = make_image("Rack", size=(1600, 900))
    url = reverse("wagtailimages_chooser:select_format", args=[picture.pk])
    form = BeautifulSoup(admin_client.get(url).json()["html"], "html.parser")
    formats = form.select("input[name='image-chooser-insertion-format']")
    assert [choice["value"] for choice in formats] == ["fullwidth"]
    answer = admin_client.post(
        url,
        {
            "image-chooser-insertion-format": "fullwidth",
            "image-chooser-insertion-alt_text": "A rack",
        },
    )
    assert answer.json()["step"] == "chosen"
    # The editor's preview only: readers' sizes wait for the first page that shows them.
    made = set(picture.renditions.values_list("filter_spec", flat=True))
    assert made and not made & set(body_filter_specs())


def test_an_embed_in_the_text_is_framed_as_an_embed_block(client, post):
    frame = read(client, post).select_one("figure.embed .embed__frame iframe")
    assert frame["src"] == "https://player.vimeo.com/video/76979871"


def test_an_embed_that_cannot_be_shown_leaves_a_link_to_it(client, blog):
    gone = "https://vimeo.com/1"
    text = f'<embed embedtype="media" url="{gone}"/>'
    post = publish_post(blog, "A lost video", body=[{"type": "paragraph", "value": text}])
    # No finder answers in tests (no network): the reader gets the address instead of a gap.
    link = read(client, post).select_one("figure.embed .embed__fallback a")
    assert link["href"] == gone


def test_the_word_count_and_search_see_the_words_of_the_text(post):
    words = (
        "Why the cluster stalled Three nodes lost their links at once. Check the switch "
        "Replace the cable It was the cable. Q&A"
    )
    # Not the picture's alt text nor the embed's address.
    assert post.word_count() == len(words.split())
    assert list(BlogPage.objects.live().search("replace cable")) == [post]
    assert list(BlogPage.objects.live().search("unplugged")) == []


PARAGRAPH_BEFORE = Template("{% load wagtailcore_tags %}{{ value|richtext }}\n")


@pytest.mark.parametrize("demo", POSTS, ids=[demo["slug"] for demo in POSTS])
def test_the_demo_posts_text_renders_as_it_did_before_it_could_hold_headings(demo):
    raw = body_for(demo["slug"], demo["title"], demo["summary"])
    texts = [block for block in BodyBlock().to_python(raw) if block.block_type == "paragraph"]
    assert texts
    for text in texts:
        assert text.render() == PARAGRAPH_BEFORE.render(Context({"value": text.value}))
