"""A reader subscribes to the blog, or to one topic, in a feed reader."""

from datetime import timedelta
from email.utils import parsedate_to_datetime

import pytest
import time_machine
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from blog.caching.memory import local_memory
from tests.factories import (
    draft_post,
    make_author,
    make_blog_index,
    make_topic,
    publish_brief_post,
    publish_post,
    publish_posts,
)

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
DC = "{http://purl.org/dc/elements/1.1/}"
CONTENT = "{http://purl.org/rss/1.0/modules/content/}"


# Text an editor types that means something in HTML.
TYPED = "<script>alert(1)</script> <b>bold</b> AT&T &amp; co"
NAME = """Ada <b>&"' Lovelace"""


def rendered(html):
    """What a feed reader shows of an element it renders as HTML; it must find no element to
    render (no script to run, no bold)."""
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find(True) is None, html
    return soup.get_text()


def rss_items(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/rss+xml")
    return ElementTree.fromstring(response.content).find("channel").findall("item")


def atom_entries(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return ElementTree.fromstring(response.content).findall(f"{ATOM}entry")


@pytest.fixture
def two_posts(blog, author, topic):
    now = timezone.now()
    older = publish_post(
        blog,
        "Older post",
        authors=[author, make_author("Grace Hopper")],
        topics=[topic],
        published_at=now - timedelta(days=3),
    )
    newer = publish_post(
        blog,
        "Newer post",
        authors=[author],
        topics=[topic, make_topic("Checkpointing")],
        published_at=now - timedelta(days=1),
    )
    return newer, older


def test_the_rss_feed_lists_posts_newest_first_with_everything_a_reader_needs(
    client, two_posts, topic
):
    newer, older = two_posts
    items = rss_items(client.get("/blog/feed/"))
    assert [item.findtext("title") for item in items] == ["Newer post", "Older post"]

    first = items[0]
    assert first.findtext("link") == newer.get_full_url()
    assert first.findtext("description") == newer.summary
    assert [c.text for c in first.findall("category")] == ["GPU reliability", "Checkpointing"]
    assert [c.text for c in items[1].findall(f"{DC}creator")] == ["Ada Lovelace", "Grace Hopper"]
    published = parsedate_to_datetime(first.findtext("pubDate"))
    assert abs(published - newer.first_published_at) < timedelta(seconds=1)

    enclosure = first.find("enclosure")
    assert enclosure.get("url").startswith("http://localhost/media/images/")
    assert enclosure.get("type") == "image/png"
    assert int(enclosure.get("length")) > 0
    assert client.get(enclosure.get("url").removeprefix("http://localhost")).status_code in {
        200,
        404,  # media is served by the web server in production, not by Django
    }


def test_the_atom_feed_carries_authors_dates_topics_and_the_hero_image(client, two_posts):
    newer, older = two_posts
    entries = atom_entries(client.get("/blog/atom/"))
    assert [e.findtext(f"{ATOM}title") for e in entries] == ["Newer post", "Older post"]

    entry = entries[1]
    assert entry.find(f"{ATOM}link[@rel='alternate']").get("href") == older.get_full_url()
    assert [a.findtext(f"{ATOM}name") for a in entry.findall(f"{ATOM}author")] == [
        "Ada Lovelace",
        "Grace Hopper",
    ]
    assert entry.findtext(f"{ATOM}summary") == older.summary
    assert parse_datetime(entry.findtext(f"{ATOM}published")) == older.first_published_at
    assert parse_datetime(entry.findtext(f"{ATOM}updated")) == older.last_published_at
    assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == ["GPU reliability"]
    enclosure = entry.find(f"{ATOM}link[@rel='enclosure']")
    assert enclosure.get("href").startswith("http://localhost/media/images/")
    assert enclosure.get("href").endswith(".png")
    assert int(enclosure.get("length")) > 0


def test_a_topic_feed_holds_only_that_topics_posts(client, two_posts):
    newer, _ = two_posts
    rss = rss_items(client.get("/blog/topic/checkpointing/feed/"))
    assert [item.findtext("title") for item in rss] == ["Newer post"]
    atom = atom_entries(client.get("/blog/topic/checkpointing/atom/"))
    assert [e.findtext(f"{ATOM}title") for e in atom] == ["Newer post"]
    channel = ElementTree.fromstring(client.get("/blog/topic/checkpointing/feed/").content)
    assert channel.find("channel").findtext("title") == "Blog: Checkpointing · cedana"
    self_link = channel.find(f"channel/{ATOM}link[@rel='self']").get("href")
    assert self_link.endswith("/blog/topic/checkpointing/feed/")


def test_feeds_stop_at_the_configured_number_of_posts(client, settings, blog, author, topic):
    settings.BLOG_FEED_ITEMS = 4
    publish_posts(blog, 6, authors=[author], topics=[topic])
    items = rss_items(client.get("/blog/feed/"))
    assert [item.findtext("title") for item in items] == [f"Post {n:03d}" for n in range(4)]


def test_the_default_feed_has_the_summary_and_not_the_whole_post(client, two_posts):
    item = rss_items(client.get("/blog/feed/"))[0]
    assert item.find(f"{CONTENT}encoded") is None
    assert "Body of" not in client.get("/blog/atom/").content.decode()


def test_full_text_feeds_carry_the_body_with_absolute_links(client, settings, blog, author, topic):
    settings.BLOG_FEED_FULL_TEXT = True
    publish_post(
        blog,
        "Linked",
        authors=[author],
        topics=[topic],
        body=[
            {"type": "paragraph", "value": '<p>See <a href="/blog/other/">the other post</a>.</p>'}
        ],
    )
    item = rss_items(client.get("/blog/feed/"))[0]
    assert 'href="http://localhost/blog/other/"' in item.findtext(f"{CONTENT}encoded")
    entry = atom_entries(client.get("/blog/atom/"))[0]
    content = entry.find(f"{ATOM}content")
    assert content.get("type") == "html"
    assert "the other post" in content.text


def test_drafts_and_scheduled_posts_stay_out_of_the_feeds(client, blog, author, topic):
    publish_post(blog, "Published", authors=[author], topics=[topic])
    draft_post(blog, "Draft", authors=[author], topics=[topic])
    scheduled = draft_post(
        blog,
        "Scheduled",
        authors=[author],
        topics=[topic],
        go_live_at=timezone.now() + timedelta(days=2),
    )
    scheduled.get_latest_revision().publish()
    for url in ["/blog/feed/", "/blog/atom/", f"/blog/topic/{topic.slug}/feed/"]:
        body = client.get(url).content.decode()
        assert "Published" in body
        assert "Draft" not in body
        assert "Scheduled" not in body


@pytest.mark.parametrize(
    "url",
    [
        "/blog/feed/?page=abc",
        "/blog/feed/?page=2",
        "/blog/atom/?page=-1&format=json",
        "/blog/topic/gpu-reliability/feed/?page=%00",
    ],
)
def test_feeds_ignore_query_parameters(client, two_posts, url):
    response = client.get(url)
    assert response.status_code == 200
    assert len(ElementTree.fromstring(response.content)) > 0


@pytest.mark.parametrize(
    "url",
    [
        "/blog/feed/extra/",
        "/blog/atom/extra/",
        "/blog/topic/%00/feed/",
        "/blog/topic/nope/feed/",
        "/blog/topic/nope/atom/",
        "/blog/topic/feed/",
        "/blog/topic/" + "x" * 300 + "/atom/",
        "/blog/feed/%ff/",
    ],
)
def test_odd_feed_addresses_are_not_found(client, two_posts, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b"couldn't find that page" in response.content


def test_a_topic_with_no_readable_posts_has_an_empty_feed(client, two_posts):
    quiet = make_topic("Quiet topic", description="Nothing yet.")
    response = client.get(f"/blog/topic/{quiet.slug}/feed/")
    assert rss_items(response) == []
    channel = ElementTree.fromstring(response.content).find("channel")
    assert "Quiet topic" in channel.findtext("title")
    assert channel.findtext("description") == "Nothing yet."
    assert atom_entries(client.get(f"/blog/topic/{quiet.slug}/atom/")) == []


def test_feeds_read_from_the_cache_list_what_the_first_feed_listed(
    client, blog, author, topic, content_cache, commit
):
    """The first feed after a change fetches whole posts; later ones fetch only ids, and must
    list the same posts, drop one at its expiry before the scheduler runs, and still refuse a
    topic that does not exist."""
    now = timezone.now()
    with commit():
        other = make_topic("Networking")
        publish_posts(blog, 3, authors=[author], topics=[topic], start=now)
        publish_post(blog, "Elsewhere", authors=[author], topics=[other])
        publish_brief_post(blog, now, authors=[author], topics=[topic])
    feeds = {
        "/blog/feed/": ["Elsewhere", "Post 000", "Brief", "Post 001", "Post 002"],
        f"/blog/topic/{topic.slug}/feed/": ["Post 000", "Brief", "Post 001", "Post 002"],
        f"/blog/topic/{other.slug}/feed/": ["Elsewhere"],
    }
    for _ in range(3):
        for url, titles in feeds.items():
            assert [item.findtext("title") for item in rss_items(client.get(url))] == titles
        assert client.get("/blog/topic/nope/feed/").status_code == 404
    with time_machine.travel(now + timedelta(minutes=1), tick=False):
        for url, titles in feeds.items():
            items = rss_items(client.get(url))
            assert [item.findtext("title") for item in items] == [t for t in titles if t != "Brief"]


def test_feeds_of_unknown_topics_leave_nothing_in_the_cache(client, blog, topic, content_cache):
    """Anyone may ask for the feed of any slug: a 404 must not keep an entry per slug, or
    junk slugs would fill the cache and push out what readers need."""
    assert client.get("/blog/topic/no-such-topic/feed/").status_code == 404  # warms the rest
    kept = len(local_memory.entries)
    for n in range(5):
        assert client.get(f"/blog/topic/no-such-topic-{n}/feed/").status_code == 404
        assert client.get(f"/blog/topic/no-such-topic-{n}/atom/").status_code == 404
    assert len(local_memory.entries) == kept


def test_index_topic_and_post_pages_announce_their_feeds(client, two_posts, topic):
    newer, _ = two_posts

    def alternates(url):
        soup = BeautifulSoup(client.get(url).content, "html.parser")
        return {
            (link["type"], link["href"].removeprefix("http://localhost"))
            for link in soup.select("head link[rel=alternate]")
        }

    blog_feeds = {
        ("application/rss+xml", "/blog/feed/"),
        ("application/atom+xml", "/blog/atom/"),
    }
    assert alternates("/blog/") == blog_feeds
    assert alternates(newer.url) == blog_feeds
    assert alternates(f"/blog/topic/{topic.slug}/") == blog_feeds | {
        ("application/rss+xml", f"/blog/topic/{topic.slug}/feed/"),
        ("application/atom+xml", f"/blog/topic/{topic.slug}/atom/"),
    }


def test_feed_links_in_the_head_lead_to_working_feeds(client, two_posts, topic):
    soup = BeautifulSoup(client.get(f"/blog/topic/{topic.slug}/").content, "html.parser")
    links = soup.select("head link[rel=alternate]")
    assert len(links) == 4  # the blog's RSS and Atom feeds, and the topic's
    for link in links:
        path = link["href"].removeprefix("http://localhost")
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"].startswith(link["type"]), path


@pytest.mark.parametrize("url", ["/blog/feed/", "/blog/atom/", "/blog/topic/gpu-reliability/feed/"])
def test_a_longer_feed_costs_no_extra_queries(client, blog, author, topic, url):
    def queries_for_feed():
        client.get(url)  # the first reader makes the renditions
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    publish_posts(blog, 2, authors=[author], topics=[topic])
    few = queries_for_feed()
    for n in range(4):
        publish_post(blog, f"Another post {n}", authors=[author], topics=[topic])
    assert queries_for_feed() == few


def test_what_an_editor_types_reaches_a_feed_reader_as_typed(client, home):
    topic = make_topic("Typed", description=TYPED)
    named = make_topic(NAME, slug="named")
    author = make_author(NAME, slug="named")
    blog = make_blog_index(home, title=TYPED, slug="typed", hero_intro=TYPED)
    publish_post(
        blog, TYPED, slug="typed-post", summary=TYPED, authors=[author], topics=[topic, named]
    )
    for url in ("/typed/feed/", "/typed/topic/typed/feed/"):
        channel = ElementTree.fromstring(client.get(url).content).find("channel")
        item = channel.find("item")
        # RSS says nothing of text or HTML: the reader decodes the XML and renders HTML.
        assert rendered(channel.findtext("title")).startswith(TYPED)
        assert rendered(channel.findtext("description")) == TYPED
        assert rendered(item.findtext("title")) == TYPED
        assert rendered(item.findtext("description")) == TYPED
        assert [rendered(e.text) for e in item.findall(f"{DC}creator")] == [NAME]
        assert [rendered(e.text) for e in item.findall("category")] == ["Typed", NAME]
    for url in ("/typed/atom/", "/typed/topic/typed/atom/"):
        feed = ElementTree.fromstring(client.get(url).content)
        entry = feed.find(f"{ATOM}entry")
        # Atom's titles and subtitle are text, shown as they decode; its summary is HTML.
        assert feed.findtext(f"{ATOM}title").startswith(TYPED)
        assert feed.findtext(f"{ATOM}subtitle") == TYPED
        assert entry.findtext(f"{ATOM}title") == TYPED
        assert entry.find(f"{ATOM}summary").get("type") == "html"
        assert rendered(entry.findtext(f"{ATOM}summary")) == TYPED
        assert entry.findtext(f"{ATOM}author/{ATOM}name") == NAME
        assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == ["Typed", NAME]


def visible_feed_links(client, url):
    """The links to a feed a reader sees on the page (the head's are for feed readers)."""
    body = BeautifulSoup(client.get(url).content, "html.parser").body
    return [
        (link.get_text(strip=True), link["href"])
        for link in body.select("a[href]")
        if link["href"].endswith(("/feed/", "/atom/"))
    ]


def test_the_blog_and_its_topics_show_a_link_to_their_feed(client, two_posts, topic):
    topic_page = f"/blog/topic/{topic.slug}/"
    assert visible_feed_links(client, "/blog/") == [("Subscribe by RSS", "/blog/feed/")]
    assert visible_feed_links(client, topic_page) == [("Subscribe by RSS", f"{topic_page}feed/")]
    for _, href in visible_feed_links(client, "/blog/") + visible_feed_links(client, topic_page):
        response = client.get(href)
        assert response.status_code == 200, href
        assert response["Content-Type"].startswith("application/rss+xml"), href


def test_the_editor_words_the_feed_link_or_leaves_it_out(client, two_posts, blog, topic):
    blog.feed_link_text = "Follow in your feed reader"
    blog.save_revision().publish()
    assert visible_feed_links(client, "/blog/") == [("Follow in your feed reader", "/blog/feed/")]
    blog.feed_link_text = ""
    blog.save_revision().publish()
    assert visible_feed_links(client, "/blog/") == []
    assert visible_feed_links(client, f"/blog/topic/{topic.slug}/") == []
