"""The no-leak guarantee: nothing a reader may not see shows up on any page a reader can open.

One post in each non-public state carries a unique marker word in its title, summary and body.
An anonymous reader then walks every reader surface, and the raw bytes of every response are
searched for every marker. The counts on the pages must agree with what they list.
"""

import re
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.core.management import call_command
from django.utils import timezone
from wagtail.models import PageViewRestriction

from blog.models import BlogPage
from tests.factories import draft_post, make_blog_index, make_topic, publish_post

pytestmark = pytest.mark.django_db

# One word per hidden state; each also has a second word only in its body ("<marker>deep"), so a
# search for that word cannot be answered by the query echoed back on the results page.
MARKERS = {
    "draft": "quillondraft",
    "scheduled": "quillonscheduled",
    "expired": "quillonexpired",
    "unpublished": "quillonunpublished",
    "password": "quillonpassword",
    "login": "quillonlogin",
    "pending_edit": "quillonpending",
    "hidden_blog": "quillonorphan",
    "deleted": "quillondeleted",
}
SECRET_TITLE = "SECRET DRAFT TITLE"
PUBLIC_TITLES = ["Public alpha", "Public beta", "Public gamma", "Public post with pending edits"]
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def hidden_phrases(marker):
    return [f"Hidden {marker}", f"The summary of {marker}", f"Body {marker}"]


def hidden_fields(marker):
    title, summary, body = hidden_phrases(marker)
    return {
        "title": title,
        "slug": f"{marker}-post",
        "summary": f"{summary}.",
        "body": [{"type": "paragraph", "value": f"<p>{body} and {marker}deep.</p>"}],
        "featured": True,
    }


@pytest.fixture
def site(home, blog, author, topic):
    """A blog with four public posts and one post in every state a reader must not see."""
    blog.posts_per_page = 2
    blog.save_revision().publish()
    now = timezone.now()
    posts = {}
    for age, title in enumerate(PUBLIC_TITLES[:3], start=1):
        posts[title] = publish_post(
            blog,
            title,
            authors=[author],
            topics=[topic],
            featured=title == "Public beta",
            published_at=now - timedelta(days=age),
        )

    hidden = {}
    hidden["draft"] = draft_post(
        blog, authors=[author], topics=[topic], **hidden_fields(MARKERS["draft"])
    )

    hidden["scheduled"] = draft_post(
        blog,
        authors=[author],
        topics=[topic],
        go_live_at=now + timedelta(days=1),
        **hidden_fields(MARKERS["scheduled"]),
    )
    # An approved publish with a future go-live time schedules the post instead of publishing it.
    hidden["scheduled"].get_latest_revision().publish()

    hidden["expired"] = publish_post(
        blog, authors=[author], topics=[topic], **hidden_fields(MARKERS["expired"])
    )
    BlogPage.objects.filter(pk=hidden["expired"].pk).update(expire_at=now - timedelta(minutes=1))

    hidden["unpublished"] = publish_post(
        blog, authors=[author], topics=[topic], **hidden_fields(MARKERS["unpublished"])
    )
    hidden["unpublished"].unpublish()

    for state in ["password", "login"]:
        hidden[state] = publish_post(
            blog, authors=[author], topics=[topic], **hidden_fields(MARKERS[state])
        )
        PageViewRestriction.objects.create(
            page=hidden[state],
            restriction_type=state,
            password="s3cret" if state == "password" else "",
        )

    pending = publish_post(
        blog,
        "Public post with pending edits",
        slug="pending-edits",
        authors=[author],
        topics=[topic],
        published_at=now - timedelta(days=4),
    )
    marker = MARKERS["pending_edit"]
    pending.title = f"{SECRET_TITLE} {marker}"
    pending.summary = hidden_fields(marker)["summary"]
    pending.body = hidden_fields(marker)["body"]
    pending.featured = True
    pending.save_revision()
    posts[PUBLIC_TITLES[3]] = pending

    other_blog = make_blog_index(home, title="Hidden blog", slug="hidden-blog")
    hidden["hidden_blog"] = publish_post(
        other_blog,
        authors=[author],
        topics=[topic, make_topic("Orphan topic")],
        **hidden_fields(MARKERS["hidden_blog"]),
    )
    other_blog.unpublish()

    deleted = publish_post(
        blog, authors=[author], topics=[topic], **hidden_fields(MARKERS["deleted"])
    )
    deleted_url = deleted.url
    deleted.delete()

    hidden_urls = {state: post.url for state, post in hidden.items() if state != "hidden_blog"}
    hidden_urls["hidden_blog"] = f"/hidden-blog/{MARKERS['hidden_blog']}-post/"
    hidden_urls["deleted"] = deleted_url
    return {"blog": blog, "topic": topic, "public": posts, "hidden_urls": hidden_urls}


class Reader:
    """An anonymous visitor who keeps every response, to be searched for markers afterwards."""

    def __init__(self, client):
        self.client = client
        self.seen = {}

    def get(self, url, expect=(200,)):
        response = self.client.get(url)
        assert response.status_code in expect, f"{url} answered {response.status_code}"
        self.seen[url] = response.content
        return response

    def assert_nothing_leaked(self):
        leaks = self.leaks()
        assert not leaks, "Hidden content shown to a reader:\n" + "\n".join(
            f"  {word!r} on {url}" for url, word in leaks
        )

    def leaks(self):
        found = []
        for url, content in self.seen.items():
            for marker in MARKERS.values():
                # A 404 page or the search page may repeat the address or query the reader
                # typed; then only the post's own sentences count as a leak.
                words = hidden_phrases(marker) if marker in url else [marker]
                found += [(url, word) for word in words if word.lower().encode() in content.lower()]
            if SECRET_TITLE.encode() in content:
                found.append((url, SECRET_TITLE))
        return sorted(found)


def text_of(response):
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


def read_listing(reader, url):
    """Every page of a listing, following its "Older" links: (featured, titles, texts)."""
    featured, titles, texts = None, [], []
    while url:
        response = reader.get(url)
        soup = BeautifulSoup(response.content, "html.parser")
        node = soup.select_one(".featured__title")
        if node:
            featured = node.get_text(strip=True)
        titles += [a.get_text(strip=True) for a in soup.select(".card-grid .card__title a")]
        texts.append(text_of(response))
        older = soup.select_one(".pagination a[rel=next]")
        url = url.split("?")[0] + older["href"] if older else None
    return featured, titles, texts


def feed_titles(reader, url):
    root = ElementTree.fromstring(reader.get(url).content)
    if root.tag == "rss":
        return [item.findtext("title") for item in root.iter("item")]
    return [entry.findtext(f"{ATOM}title") for entry in root.iter(f"{ATOM}entry")]


def walk_every_reader_surface(reader, site):
    topic = site["topic"]
    public_urls = [post.url for post in site["public"].values()]

    read_listing(reader, "/blog/")
    read_listing(reader, f"/blog/topic/{topic.slug}/")
    read_listing(reader, "/blog/topic/orphan-topic/")
    reader.get("/")
    for url in public_urls:  # post pages with their related posts, meta tags and JSON-LD
        reader.get(url)
    for feed in ["feed", "atom", f"topic/{topic.slug}/feed", f"topic/{topic.slug}/atom"]:
        reader.get(f"/blog/{feed}/")
    reader.get("/sitemap.xml")
    for feed in ["", "feed/", "atom/", f"topic/{topic.slug}/feed/"]:
        reader.get(f"/hidden-blog/{feed}", expect=(404,))

    for state, marker in MARKERS.items():
        reader.get(f"/search/?q={marker}deep")
        reader.get(f"/search/?q={marker}")
        # A suggestion endpoint that does not exist (404) trivially shows no marker.
        reader.get(f"/search/suggest/?q={marker[:-3]}", expect=(200, 404))

        if state == "pending_edit":
            continue  # its address serves the live version, read above with the public posts
        url = site["hidden_urls"][state]
        if state == "password":
            form = reader.get(url)
            assert b'type="password"' in form.content
        elif state == "login":
            assert reader.get(url, expect=(302,))["Location"].startswith("/")
        else:
            reader.get(url, expect=(404,))


@pytest.mark.parametrize("scheduler", ["before the scheduler runs", "after the scheduler ran"])
def test_no_hidden_post_shows_on_any_reader_surface(client, site, scheduler):
    if scheduler == "after the scheduler ran":
        call_command("publish_scheduled")
        assert BlogPage.objects.get(slug=f"{MARKERS['expired']}-post").expired
        assert not BlogPage.objects.get(slug=f"{MARKERS['scheduled']}-post").live
    reader = Reader(client)
    walk_every_reader_surface(reader, site)
    assert len(reader.seen) > 40
    reader.assert_nothing_leaked()


def test_counts_agree_with_what_is_listed(client, site):
    reader = Reader(client)
    public = set(PUBLIC_TITLES)
    topic = site["topic"]

    featured, titles, texts = read_listing(reader, "/blog/")
    assert featured == "Public beta"
    assert {featured, *titles} == public
    assert len(titles) + 1 == len(public)
    assert all(f"All posts · {len(public)}" in text for text in texts)
    shown = [int(n) for text in texts for n in re.findall(r"Showing (\d+) of 4 posts", text)]
    assert sum(shown) == len(titles) and len(shown) == len(texts)
    assert f"{topic.name} {len(public)}" in texts[0]
    assert "Orphan topic" not in texts[0]

    featured, titles, texts = read_listing(reader, f"/blog/topic/{topic.slug}/")
    assert featured is None
    assert set(titles) == public
    assert len(titles) == len(public)
    shown = [int(n) for text in texts for n in re.findall(r"Showing (\d+) of 4 posts", text)]
    assert sum(shown) == len(public)

    assert set(feed_titles(reader, "/blog/feed/")) == public
    assert len(feed_titles(reader, "/blog/atom/")) == len(public)
    assert set(feed_titles(reader, f"/blog/topic/{topic.slug}/atom/")) == public

    home = BeautifulSoup(reader.get("/").content, "html.parser")
    latest = [a.get_text(strip=True) for a in home.select(".card__title a")]
    assert latest == ["Public alpha", "Public beta", "Public gamma"]

    sitemap = ElementTree.fromstring(reader.get("/sitemap.xml").content)
    posts_in_sitemap = {
        loc.text.removeprefix("http://localhost")
        for loc in sitemap.iter(f"{SITEMAP}loc")
        if loc.text.count("/") == 5 and "/topic/" not in loc.text
    }
    assert posts_in_sitemap == {post.url for post in site["public"].values()}
    reader.assert_nothing_leaked()
