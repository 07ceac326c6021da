"""An editor's text is shown, never run: a script-shaped payload typed into every field an
editor fills in comes out inert on every page that shows it.

SURFACES lists those pages. Whoever adds a page that shows editor text (feeds, sitemap,
JSON-LD, meta tags …) adds it there."""

import html as html_entities
import json

import pytest
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.urls import reverse
from wagtail.admin.admin_url_finder import AdminURLFinder
from wagtail.admin.rich_text.converters.contentstate import ContentstateConverter
from wagtail.contrib.search_promotions.models import Query, SearchPromotion

from blog.blocks import TEXT_FEATURES
from tests.factories import make_author, make_image, make_topic, publish_post

PAYLOAD = "<script>alert(1)</script>\"'><img src=x onerror=alert(1)>"
LINK_TEXT = "read the runbook"


def typed_rich_text(text, line="unstyled"):
    """Rich text as the admin's editor saves it: the typed text, then a link to javascript:, in
    a paragraph or another kind of `line` (a heading: "header-two")."""
    contentstate = {
        "blocks": [
            {
                "key": "k1",
                "type": line,
                "depth": 0,
                "text": f"{text} {LINK_TEXT}",
                "inlineStyleRanges": [],
                "entityRanges": [{"offset": len(text) + 1, "length": len(LINK_TEXT), "key": 0}],
                "data": {},
            }
        ],
        "entityMap": {
            "0": {"type": "LINK", "mutability": "MUTABLE", "data": {"url": "javascript:alert(1)"}}
        },
    }
    return ContentstateConverter(TEXT_FEATURES).to_database_format(json.dumps(contentstate))


def typed_text_picture(image, alt):
    """A picture placed in a Text block, with the alt text typed in the insert form."""
    contentstate = {
        "blocks": [
            {
                "key": "k1",
                "type": "atomic",
                "depth": 0,
                "text": " ",
                "inlineStyleRanges": [],
                "entityRanges": [{"offset": 0, "length": 1, "key": 0}],
                "data": {},
            }
        ],
        "entityMap": {
            "0": {
                "type": "IMAGE",
                "mutability": "IMMUTABLE",
                "data": {"id": image.pk, "alt": alt, "format": "fullwidth", "src": ""},
            }
        },
    }
    return ContentstateConverter(TEXT_FEATURES).to_database_format(json.dumps(contentstate))


def body_with_payload_everywhere():
    figure = make_image("Figure")
    return [
        {"type": "heading", "value": {"text": PAYLOAD, "anchor": ""}},
        {"type": "paragraph", "value": typed_rich_text(PAYLOAD)},
        {"type": "paragraph", "value": typed_rich_text(PAYLOAD, line="header-two")},
        {"type": "paragraph", "value": typed_text_picture(figure, alt=PAYLOAD)},
        {"type": "image", "value": {"image": figure.pk, "alt_text": PAYLOAD, "caption": PAYLOAD}},
        {"type": "quote", "value": {"quote": PAYLOAD, "attribution": PAYLOAD}},
        {"type": "code", "value": {"language": "python", "code": PAYLOAD, "caption": PAYLOAD}},
        {
            "type": "callout",
            "value": {"kind": "note", "title": PAYLOAD, "body": typed_rich_text(PAYLOAD)},
        },
        {
            "type": "table",
            "value": {
                "caption": PAYLOAD,
                "table": {
                    "caption": "",
                    "columns": [
                        {"type": "rich_text", "heading": PAYLOAD},
                        {"type": "rich_text", "heading": PAYLOAD},
                    ],
                    # Headings are plain text in the stored value (CVE-2021-32681's shape).
                    "rows": [{"values": [typed_rich_text(PAYLOAD), typed_rich_text(PAYLOAD)]}],
                },
            },
        },
    ]


@pytest.fixture
def hostile_post(blog):
    topic = make_topic(PAYLOAD, slug="hostile-topic", description=PAYLOAD)
    author = make_author(PAYLOAD, slug="hostile-author", role=PAYLOAD, bio=PAYLOAD)
    post = publish_post(
        blog,
        f"{PAYLOAD} GPU cooling",
        slug="hostile-post",
        summary=PAYLOAD,
        hero_alt=PAYLOAD,
        authors=[author],
        topics=[topic],
        body=body_with_payload_everywhere(),
    )
    # A second post in the topic, so the hostile one also shows as a related-post card.
    publish_post(blog, "Rack airflow", authors=[author], topics=[topic])
    SearchPromotion.objects.create(
        query=Query.get(PAYLOAD), page=post, description=PAYLOAD, sort_order=0
    )
    return {"post": post, "blog": blog, "topic": topic}


def admin_edit_url(instance):
    return AdminURLFinder().get_edit_url(instance)


# (name, who looks, address built from the fixture's objects)
SURFACES = [
    ("home page cards", "reader", lambda objs: "/"),
    ("blog index and its cards", "reader", lambda objs: objs["blog"].url),
    ("topic page", "reader", lambda objs: f"{objs['blog'].url}topic/{objs['topic'].slug}/"),
    ("post page", "reader", lambda objs: objs["post"].url),
    ("search results", "reader", lambda objs: "/search/?q=cooling"),
    ("search for the payload itself", "reader", lambda objs: "/search/?q=" + PAYLOAD),
    ("admin page explorer", "editor", lambda objs: f"/admin/pages/{objs['blog'].pk}/"),
    ("admin page edit view", "editor", lambda objs: f"/admin/pages/{objs['post'].pk}/edit/"),
    ("admin Topics listing", "editor", lambda objs: reverse("wagtailsnippets_blog_topic:list")),
    ("admin Authors listing", "editor", lambda objs: reverse("wagtailsnippets_blog_author:list")),
    ("admin Topic edit view", "editor", lambda objs: admin_edit_url(objs["topic"])),
    ("admin Posts overview", "editor", lambda objs: reverse("blog_blogpage_modeladmin_index")),
    ("admin search promotions", "editor", lambda objs: reverse("wagtailsearchpromotions:index")),
]

DATA_SCRIPT_TYPES = {"application/json", "application/ld+json", "text/template"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href"}


def assert_inert(html):
    assert "<script>alert(1)" not in html
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(True):
        for attribute, value in tag.attrs.items():
            value = " ".join(value) if isinstance(value, list) else value
            assert not (attribute.startswith("on") and "alert(1)" in value), tag
            if attribute in URL_ATTRIBUTES:
                assert not "".join(value.split()).lower().startswith("javascript:"), tag
        if tag.name == "img":
            assert tag.get("src") != "x", tag
        if tag.name == "script" and tag.get("type", "").lower() not in DATA_SCRIPT_TYPES:
            assert "alert(1)" not in tag.get_text(), tag


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "viewer", "address"), SURFACES, ids=[s[0] for s in SURFACES])
def test_the_payload_is_shown_inert(name, viewer, address, hostile_post, client, admin_client):
    response = (admin_client if viewer == "editor" else client).get(address(hostile_post))
    assert response.status_code == 200
    html = response.content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or "alert(1)" in html, (
        f"{name} does not show the editor's text at all, so this check proves nothing"
    )
    assert_inert(html)


@pytest.mark.django_db
def test_the_post_page_shows_every_field_as_text(hostile_post, client):
    """Each field's payload arrives as visible text, not swallowed and not as markup."""
    html = client.get(hostile_post["post"].url).content.decode()
    soup = BeautifulSoup(html, "html.parser")
    text = soup.get_text()
    # Title, summary, author, topic chip, heading, paragraph, quote, attribution, code,
    # its caption, callout title and body, table caption, headings and cells, figure caption.
    assert text.count(PAYLOAD) >= 15
    # A heading written in a Text block, with the id its readers link to, and a picture there.
    [heading] = soup.select(".post__body h2[data-block-key][id]")
    assert PAYLOAD in heading.get_text()
    assert soup.find("img", alt=PAYLOAD, attrs={"data-content-check": "body-image"})
    assert soup.find("a", string=LINK_TEXT) is not None
    assert all(not a.get("href", "").startswith("javascript") for a in soup.find_all("a"))


def test_the_project_uses_the_typed_table_block_not_the_one_with_cell_classes(settings):
    # CVE-2026-28222 lets a TableBlock cell's class attribute carry script; TypedTableBlock
    # has no per-cell attributes, and contrib.table_block is not installed.
    assert "wagtail.contrib.table_block" not in settings.INSTALLED_APPS
    assert "wagtail.contrib.typed_table_block" in settings.INSTALLED_APPS


# Feeds are XML. What a feed reader renders as HTML must be inert once the XML layer is decoded,
# and show the editor's text: in RSS, which cannot mark an element as text, every title,
# description, byline and topic (blog/feeds.py); in Atom, summary and content. Atom's titles,
# subtitle, author names and category terms are text.
FEEDS = [
    ("blog RSS", lambda objs: f"{objs['blog'].url}feed/"),
    ("blog Atom", lambda objs: f"{objs['blog'].url}atom/"),
    ("topic RSS", lambda objs: f"{objs['blog'].url}topic/{objs['topic'].slug}/feed/"),
    ("topic Atom", lambda objs: f"{objs['blog'].url}topic/{objs['topic'].slug}/atom/"),
]
RSS_HTML_ELEMENTS = {"title", "description", "encoded", "creator", "category"}
ATOM_HTML_ELEMENTS = {"summary", "content"}


def local_name(element):
    return element.tag.rsplit("}", 1)[-1]


@pytest.mark.django_db
@pytest.mark.parametrize("full_text", [False, True], ids=["summary", "full text"])
@pytest.mark.parametrize(("name", "address"), FEEDS, ids=[f[0] for f in FEEDS])
def test_feeds_carry_the_payload_as_text(name, address, full_text, hostile_post, client, settings):
    settings.BLOG_FEED_FULL_TEXT = full_text
    response = client.get(address(hostile_post))
    assert response.status_code == 200
    raw = response.content.decode()
    assert "<script>alert(1)" not in raw
    feed = ElementTree.fromstring(response.content)
    is_rss = local_name(feed) == "rss"
    html_elements = RSS_HTML_ELEMENTS if is_rss else ATOM_HTML_ELEMENTS
    elements = list(feed.iter())
    rendered = [e.text or "" for e in elements if local_name(e) in html_elements]
    assert any("alert(1)" in text for text in rendered), "the feed shows no editor text"
    for text in rendered:
        assert_inert(text)

    def shown(element):
        text = element.text or ""
        return BeautifulSoup(text, "html.parser").get_text() if is_rss else text

    assert f"{PAYLOAD} GPU cooling" in [shown(e) for e in elements if local_name(e) == "title"]
    if "topic" in name:  # the topic's description introduces its feed
        channel = feed.find("channel") if is_rss else feed
        intro = [shown(e) for e in channel if local_name(e) in {"description", "subtitle"}]
        assert intro == [PAYLOAD]
    assert PAYLOAD in [shown(e) for e in elements if local_name(e) in {"creator", "name"}]
    if is_rss:
        assert PAYLOAD in [shown(e) for e in elements if local_name(e) == "category"]
    else:
        assert PAYLOAD in [e.get("term") for e in elements if local_name(e) == "category"]


@pytest.mark.django_db
def test_the_sitemap_stays_well_formed_with_a_hostile_post(hostile_post, client):
    """Only addresses reach the sitemap; the slug is all an editor's title can put there."""
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    locations = [
        e.text for e in ElementTree.fromstring(response.content).iter() if local_name(e) == "loc"
    ]
    assert hostile_post["post"].get_full_url() in locations
    assert "alert(1)" not in response.content.decode()


@pytest.mark.django_db
def test_the_json_ld_cannot_end_its_script_and_decodes_to_the_literal_text(hostile_post, client):
    html = client.get(hostile_post["post"].url).content.decode()
    scripts = BeautifulSoup(html, "html.parser").find_all("script", type="application/ld+json")
    assert len(scripts) == 1
    source = scripts[0].string
    assert "</script" not in source.lower()
    assert "<!--" not in source
    data = json.loads(source)
    assert data["headline"] == f"{PAYLOAD} GPU cooling"
    assert data["description"] == PAYLOAD
    assert data["author"] == [{"@type": "Person", "name": PAYLOAD}]
    assert data["keywords"] == [PAYLOAD]


META_TAGS = [
    ("meta", {"name": "description"}),
    ("meta", {"property": "og:title"}),
    ("meta", {"property": "og:description"}),
    ("meta", {"property": "og:image:alt"}),
    ("meta", {"property": "article:author"}),
    ("meta", {"property": "article:section"}),
    ("meta", {"property": "article:tag"}),
    ("meta", {"name": "twitter:title"}),
    ("meta", {"name": "twitter:description"}),
    ("meta", {"name": "twitter:image:alt"}),
]


@pytest.mark.django_db
def test_meta_tags_hold_the_payload_as_an_attribute_value(hostile_post, client):
    """Each tag is still one element whose content is the typed text: nothing broke out."""
    html = client.get(hostile_post["post"].url).content.decode()
    head = BeautifulSoup(html, "html.parser").head
    assert html_entities.unescape(head.title.string).startswith(PAYLOAD)
    for tag_name, attributes in META_TAGS:
        tags = head.find_all(tag_name, attrs=attributes)
        assert len(tags) == 1, attributes
        assert PAYLOAD in tags[0]["content"], attributes
    assert head.find("img") is None
    assert all(
        script.get("type") == "application/ld+json" or script.get("src")
        for script in head.find_all("script")
    )
