"""The demo posts' blueprint drawings and bodies: stable, distinct, and valid for BodyBlock."""

import io
import json
import re

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from wagtail.embeds.embeds import get_embed_hash
from wagtail.embeds.models import Embed

from blog.blocks import BodyBlock
from blog.demo import bodies, drawings
from blog.demo.bodies import EMBED_URL, body_for, generated_body
from blog.demo.drawings import draw, draw_generated
from blog.demo.posts import POSTS
from tests.factories import make_image

SLUGS = [post["slug"] for post in POSTS]
BLOCK_TYPES = set(BodyBlock().child_blocks)


def png(image):
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def is_blueprint_blue(pixel):
    """The deep blue of the sheet and its grid, not the light-blue accents or white lines."""
    r, g, b = pixel
    return r < 70 and g < 120 and 110 <= b <= 200


def words_of(html):
    return re.sub(r"<[^>]+>", " ", html).split()


def prose_words(body):
    """Words a reader reads in a raw body, leaving code aside."""
    count = 0
    for block in body:
        value = block["value"]
        if block["type"] == "paragraph":
            count += len(words_of(value))
        elif block["type"] == "heading":
            count += len(value["text"].split())
        elif block["type"] == "quote":
            count += len(value["quote"].split())
        elif block["type"] == "callout":
            count += len(words_of(value["body"])) + len(value["title"].split())
        elif block["type"] == "table":
            for row in value["table"]["rows"]:
                count += sum(len(words_of(str(cell))) for cell in row["values"])
        elif block["type"] in ("image", "code", "embed"):
            count += len(value["caption"].split())
    return count


# --- drawings -------------------------------------------------------------------------------


def test_every_demo_post_has_its_own_drawing():
    assert set(SLUGS) == set(drawings.DRAWINGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_draw_is_deterministic(slug):
    assert png(draw(slug, 480, 270)) == png(draw(slug, 480, 270))


@pytest.mark.parametrize("size", [(1600, 900), (640, 360), (300, 300), (201, 113)])
def test_draw_returns_an_rgb_image_of_the_requested_size(size):
    image = draw("one-gpu-fails-71-healthy-gpus-wait", *size)
    assert image.size == size
    assert image.mode == "RGB"


def test_different_slugs_give_different_pictures():
    # Compare the middle of the sheet, away from the title block that names each drawing.
    middles = {draw(slug, 320, 180).crop((60, 30, 260, 130)).tobytes() for slug in SLUGS}
    assert len(middles) == len(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_drawings_are_mostly_blueprint_blue(slug):
    image = draw(slug, 400, 225)
    pixels = [image.getpixel((x, y)) for x in range(2, 400, 7) for y in range(2, 225, 7)]
    blue = sum(is_blueprint_blue(p) for p in pixels) / len(pixels)
    assert blue > 0.7, f"{slug}: only {blue:.0%} blueprint blue"
    # ... and not only blue: there is off-white line work.
    assert image.convert("L").getextrema()[1] > 200, f"{slug}: no light line work"


def test_saved_state_accents_are_a_light_blue_that_stands_out():
    r, g, b = drawings.BLUE
    assert b > 200 and g > 150, "saved-state blue must be light"
    assert sum(drawings.BLUE) - sum(drawings.BG) > 250


def test_an_unknown_slug_gets_a_generated_drawing_of_its_own():
    """A post the demo did not draw by hand still gets a picture: the same one every time, its
    own, and none of the hand-drawn ones."""
    picture = png(draw("no-such-post", 320, 180))
    assert picture == png(draw("no-such-post", 320, 180))
    others = {png(draw(f"no-such-post-{n}", 320, 180)) for n in range(6)}
    assert len(others | {picture}) == 7
    assert picture not in {png(draw(slug, 320, 180)) for slug in SLUGS}
    assert draw("no-such-post", 320, 180).size == (320, 180)


def test_draw_generated_is_deterministic_and_varies_by_seed():
    assert png(draw_generated(7, 320, 180)) == png(draw_generated(7, 320, 180))
    pictures = {draw_generated(seed, 320, 180).tobytes() for seed in range(12)}
    assert len(pictures) == 12


def test_generated_pictures_come_in_the_asked_size():
    for seed in range(1, 5):
        assert draw_generated(seed, 640, 360).size == (640, 360)


# --- bodies ---------------------------------------------------------------------------------


@pytest.fixture
def picture(db):
    return make_image("body figure")


@pytest.fixture
def cached_embed(db):
    """The demo embed as load_demo seeds it, so validating an embed fetches nothing."""
    return Embed.objects.create(
        hash=get_embed_hash(EMBED_URL),
        url=EMBED_URL,
        type="video",
        title="Demo video",
        provider_name="Vimeo",
        width=640,
        height=360,
        html='<iframe src="https://player.vimeo.com/video/76979871" title="Demo video"></iframe>',
    )


@pytest.mark.parametrize("post", POSTS, ids=SLUGS)
def test_body_uses_every_block_type_and_is_valid(post, picture, cached_embed):
    raw = body_for(post["slug"], post["title"], post["summary"], picture.pk)
    assert {block["type"] for block in raw} == BLOCK_TYPES
    block = BodyBlock()
    value = block.to_python(raw)
    assert len(value) == len(raw)
    block.clean(value)  # raises ValidationError on a bad field, length or choice
    # The stored form is JSON and round-trips to what body_for produced.
    prepared = block.get_prep_value(value)
    assert json.loads(json.dumps(prepared, cls=DjangoJSONEncoder)) == raw
    html = block.render(value)
    for fragment in ("<table", "<figure", "<blockquote", "<pre", "<h2", "player.vimeo.com"):
        assert fragment in html, fragment
    figure = next(b for b in raw if b["type"] == "image")["value"]
    assert figure["image"] == picture.pk
    assert figure["alt_text"] and figure["alt_text"] != post["alt"]


@pytest.mark.parametrize("post", POSTS, ids=SLUGS)
def test_body_reads_as_a_short_post(post):
    raw = body_for(post["slug"], post["title"], post["summary"], 1)
    assert 300 <= prose_words(raw) <= 600
    embeds = [b["value"]["embed"] for b in raw if b["type"] == "embed"]
    assert embeds and set(embeds) == {"https://vimeo.com/76979871"}


def test_blocks_render_without_an_image(db):
    post = POSTS[0]
    raw = body_for(post["slug"], post["title"], post["summary"], None)
    assert "image" not in {b["type"] for b in raw}
    value = BodyBlock().to_python(raw)
    for child in value:
        if child.block_type != "embed":
            assert child.render().strip()


def test_bodies_differ_between_posts():
    paragraphs = {}
    for post in POSTS:
        raw = body_for(post["slug"], post["title"], post["summary"], 1)
        for block in raw:
            if block["type"] == "paragraph":
                assert block["value"] not in paragraphs, (
                    f"{post['slug']} repeats a paragraph of {paragraphs.get(block['value'])}"
                )
                paragraphs[block["value"]] = post["slug"]
    serialised = {json.dumps(body_for(p["slug"], p["title"], p["summary"], 1)) for p in POSTS}
    assert len(serialised) == len(POSTS)


def test_body_for_is_deterministic():
    post = POSTS[3]
    assert body_for(post["slug"], post["title"], post["summary"], 5) == body_for(
        post["slug"], post["title"], post["summary"], 5
    )


def test_unknown_slug_gets_a_body_that_opens_with_its_summary(db):
    raw = body_for("not-a-demo-post", "A title", "Tom & Jerry <restart> notes", 3)
    assert raw[0]["type"] == "paragraph"
    assert "Tom &amp; Jerry &lt;restart&gt; notes" in raw[0]["value"]
    BodyBlock().to_python(raw)


@pytest.mark.parametrize("seed", [0, 1, 2, 41, 999, 123456])
def test_generated_body_is_short_valid_and_deterministic(seed, picture, cached_embed):
    raw = generated_body(seed, picture.pk)
    assert raw == generated_body(seed, picture.pk)
    assert 150 <= prose_words(raw) <= 300
    block = BodyBlock()
    value = block.to_python(raw)
    block.clean(value)
    assert block.render(value)
    assert "image" not in {b["type"] for b in generated_body(seed, None)}


def test_generated_bodies_vary_enough_for_search():
    vocabulary = set()
    texts = set()
    documents_per_word = {}
    for seed in range(300):
        text = " ".join(
            " ".join(words_of(b["value"]))
            for b in generated_body(seed, None)
            if b["type"] == "paragraph"
        )
        texts.add(text)
        words = {w.strip(".,:;").lower() for w in text.split()}
        vocabulary.update(words)
        for word in words:
            documents_per_word[word] = documents_per_word.get(word, 0) + 1
    assert len(texts) == 300
    assert len(vocabulary) > 250
    rare_seen = [w for w in bodies.RARE if w in documents_per_word]
    assert len(rare_seen) >= len(bodies.RARE) // 2, "rare words should turn up somewhere"
    assert all(documents_per_word[w] <= 15 for w in rare_seen), "rare words should stay rare"
