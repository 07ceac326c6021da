"""The no-leak guarantee: nothing a reader may not see shows up on any page a reader can open.

One post in each non-public state carries a unique marker word in its title, summary and body.
Some are never public (a draft, a scheduled post, a live post's unpublished edit); the others
are public at first and then leave the readers' view the ways a post does: unpublished, made
private, its blog unpublished or restricted, deleted, its expiry passed. Anonymous readers read
every surface first, so that with the caches on every one of them holds the post; then each
change is made (committed, as an editor's is), the project's scheduler runs, and the raw bytes
of every response are searched for every marker. The suite runs with every cache on, as in
production, and with every cache off. The counts on the pages must agree with what they list.
"""

import re
from datetime import timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.utils import timezone
from wagtail.models import PageViewRestriction

from blog.editorial.scheduling import run_pass
from blog.models import BlogPage
from tests.factories import draft_post, make_blog_index, make_topic, publish_post

pytestmark = pytest.mark.django_db

# One word per hidden state; each also has a second word only in its body ("<marker>deep"), so a
# search for that word cannot be answered by the query echoed back on the results page.
NEVER_PUBLIC = {
    "draft": "quillondraft",
    "scheduled": "quillonscheduled",
    "pending_edit": "quillonpending",
}
# In the order the tests hide them; the expiry passes last (the clock moves on).
MADE_HIDDEN = {
    "unpublished": "quillonunpublished",
    "password": "quillonpassword",
    "login": "quillonlogin",
    "hidden_blog": "quillonorphan",
    "members_blog": "quillonmembers",
    "deleted": "quillondeleted",
    "expired": "quillonexpired",
}
MARKERS = NEVER_PUBLIC | MADE_HIDDEN
SECRET_TITLE = "SECRET DRAFT TITLE"
PUBLIC_TITLES = ["Public alpha", "Public beta", "Public gamma", "Public post with pending edits"]
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# Where the expired post's expiry lies, and how far the clock moves on past it.
EXPIRES_IN = timedelta(hours=1)
LATER = timedelta(hours=2)


@pytest.fixture(autouse=True, params=["every cache on", "every cache off"])
def reader_caches(request):
    """Every test here runs twice: with the page cache and the content cache on (production's
    settings) and with both off (the uncached paths)."""
    if request.param == "every cache on":
        request.getfixturevalue("page_cache")
        # Entries outlive the clock's move (LATER): what hides a post must be the change
        # itself, not an entry that happened to time out.
        settings = request.getfixturevalue("settings")
        settings.PAGE_CACHE_TTL = settings.CONTENT_CACHE_TTL = 24 * 3600
    return request.param == "every cache on"


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
def site(home, blog, author, topic, commit):
    """A blog with four public posts, a post in every state a reader must never see, and one
    public post for every way a post leaves the readers' view."""
    with commit():
        return build_site(home, blog, author, topic)


def build_site(home, blog, author, topic):
    blog.posts_per_page = 2
    blog.save_revision().publish()
    now = timezone.now()
    tags = {"authors": [author], "topics": [topic]}
    posts = {}
    for age, title in enumerate(PUBLIC_TITLES[:3], start=1):
        posts[title] = publish_post(
            blog,
            title,
            featured=title == "Public beta",
            published_at=now - timedelta(days=age),
            **tags,
        )

    hidden = {"draft": draft_post(blog, **tags, **hidden_fields(MARKERS["draft"]))}
    hidden["scheduled"] = draft_post(
        blog, go_live_at=now + timedelta(days=1), **tags, **hidden_fields(MARKERS["scheduled"])
    )
    # An approved publish with a future go-live time schedules the post instead of publishing it.
    hidden["scheduled"].get_latest_revision().publish()

    pending = publish_post(
        blog,
        "Public post with pending edits",
        slug="pending-edits",
        published_at=now - timedelta(days=4),
        **tags,
    )
    marker = MARKERS["pending_edit"]
    pending.title = f"{SECRET_TITLE} {marker}"
    pending.summary = hidden_fields(marker)["summary"]
    pending.body = hidden_fields(marker)["body"]
    pending.featured = True
    pending.save_revision()
    posts[PUBLIC_TITLES[3]] = pending

    # Public for now: newer than the public posts, so each is on the home page, the first page
    # of the listings and among the related posts until it leaves.
    for state in ["unpublished", "password", "login", "deleted"]:
        hidden[state] = publish_post(blog, **tags, **hidden_fields(MARKERS[state]))
    hidden["expired"] = publish_post(
        blog, expire_at=now + EXPIRES_IN, **tags, **hidden_fields(MARKERS["expired"])
    )
    other_blog = make_blog_index(home, title="Hidden blog", slug="hidden-blog")
    hidden["hidden_blog"] = publish_post(
        other_blog,
        authors=[author],
        topics=[topic, make_topic("Orphan topic")],
        **hidden_fields(MARKERS["hidden_blog"]),
    )
    members_blog = make_blog_index(home, title="Members", slug="members")
    hidden["members_blog"] = publish_post(
        members_blog, **tags, **hidden_fields(MARKERS["members_blog"])
    )
    return {
        "blog": blog,
        "topic": topic,
        "public": posts,
        "hidden": hidden,
        "hidden_urls": {state: post.url for state, post in hidden.items()},
        "blogs": {"hidden_blog": other_blog, "members_blog": members_blog},
    }


def make_hidden(site, state):
    """What an editor does to take the post of this state out of the readers' view."""
    post = site["hidden"][state]
    if state == "unpublished":
        post.unpublish()
    elif state in ("password", "login"):
        PageViewRestriction.objects.create(
            page=post, restriction_type=state, password="s3cret" if state == "password" else ""
        )
    elif state == "hidden_blog":
        site["blogs"][state].unpublish()
    elif state == "members_blog":
        # A restriction on an ancestor hides every post below it.
        PageViewRestriction.objects.create(page=site["blogs"][state], restriction_type="login")
    elif state == "deleted":
        post.delete()


def later():
    """The clock moved on past the expired post's expiry."""
    return time_machine.travel(timezone.now() + LATER, tick=False)


class Reader:
    """An anonymous visitor who keeps every response, to be searched for markers afterwards.
    A warming reader only reads: the pages it opens may still show what is about to go."""

    def __init__(self, client, warming=False):
        self.client = client
        self.warming = warming
        self.seen = {}

    def get(self, url, expect=(200,)):
        response = self.client.get(url)
        if not self.warming:
            assert response.status_code in expect, f"{url} answered {response.status_code}"
        self.seen[url] = response.content
        return response

    def assert_nothing_leaked(self, markers=MARKERS):
        leaks = self.leaks(markers)
        assert not leaks, "Hidden content shown to a reader:\n" + "\n".join(
            f"  {word!r} on {url}" for url, word in leaks
        )

    def leaks(self, markers=MARKERS):
        found = []
        for url, content in self.seen.items():
            for marker in markers.values():
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


def walk_every_reader_surface(reader, site, states=MARKERS):
    """Every page a reader can open that lists, links or finds posts, and the addresses of the
    posts of these states."""
    topic = site["topic"]
    public_urls = [post.url for post in site["public"].values()]

    read_listing(reader, "/blog/")
    read_listing(reader, f"/blog/topic/{topic.slug}/")
    read_listing(reader, "/blog/topic/orphan-topic/")
    reader.get("/")
    if len(states) == 1:
        # After one change, the newest public post's related posts stand for all of them.
        public_urls = public_urls[:1]
    for url in public_urls:  # post pages with their related posts, meta tags and JSON-LD
        reader.get(url)
    for feed in ["feed", "atom", f"topic/{topic.slug}/feed", f"topic/{topic.slug}/atom"]:
        reader.get(f"/blog/{feed}/")
    reader.get("/sitemap.xml")
    for feed in ["", "feed/", "atom/", f"topic/{topic.slug}/feed/"]:
        if "hidden_blog" in states:
            reader.get(f"/hidden-blog/{feed}", expect=(404,))
        if "members_blog" in states:
            # The routes of a restricted blog send a reader to log in.
            reader.get(f"/members/{feed}", expect=(302,))

    for state in states:
        marker = MARKERS[state]
        reader.get(f"/search/?q={marker}deep")
        reader.get(f"/search/?q={marker}")
        # A suggestion endpoint that does not exist (404) trivially shows no marker.
        reader.get(f"/search/suggest/?q={marker[:-3]}", expect=(200, 404))

        if state == "pending_edit":
            continue  # its address serves the live version, read above with the public posts
        url = site["hidden_urls"][state]
        if state == "password":
            form = reader.get(url)
            assert reader.warming or b'type="password"' in form.content
        elif state in ("login", "members_blog"):
            response = reader.get(url, expect=(302,))
            assert reader.warming or response["Location"].startswith("/")
        else:
            reader.get(url, expect=(404,))


def warm_every_reader_surface(client, site, reader_caches):
    """Readers open every surface while the posts about to go are still public: with the
    caches on, each surface is then remembered showing them."""
    reader = Reader(client, warming=True)
    walk_every_reader_surface(reader, site)
    words = " ".join(word for _url, word in reader.leaks(MADE_HIDDEN))
    shown = {marker for marker in MADE_HIDDEN.values() if marker in words}
    assert shown == set(MADE_HIDDEN.values()), "a post about to go was never public"
    reader.assert_nothing_leaked(NEVER_PUBLIC)
    if reader_caches:
        assert client.get("/blog/")["X-Cache"] == "HIT"


def test_no_hidden_post_shows_on_any_reader_surface(client, site, commit, reader_caches):
    warm_every_reader_surface(client, site, reader_caches)
    hidden = dict(NEVER_PUBLIC)
    for state in list(MADE_HIDDEN)[:-1]:
        with commit():
            make_hidden(site, state)
        hidden[state] = MADE_HIDDEN[state]
        # Each change alone must reach every surface: the pages read after the previous one
        # are what the caches now hold.
        reader = Reader(client)
        walk_every_reader_surface(reader, site, states=[state])
        reader.assert_nothing_leaked(hidden)

    with later():
        # Past its expiry, the post is still flagged live until the scheduler's next pass.
        reader = Reader(client)
        walk_every_reader_surface(reader, site)
        assert len(reader.seen) > 50
        reader.assert_nothing_leaked()

        with commit():
            result = run_pass(interval=30)
        assert (result.unpublished, result.published, result.failed) == (1, 0, 0)
        assert not BlogPage.objects.get(slug=f"{MARKERS['expired']}-post").live
        assert not BlogPage.objects.get(slug=f"{MARKERS['scheduled']}-post").live
        reader = Reader(client)
        walk_every_reader_surface(reader, site)
        reader.assert_nothing_leaked()


def test_counts_agree_with_what_is_listed(client, site, commit, reader_caches):
    warm_every_reader_surface(client, site, reader_caches)
    with commit():
        for state in list(MADE_HIDDEN)[:-1]:
            make_hidden(site, state)
    with later():
        reader = Reader(client)
        check_counts(reader, site)
        reader.assert_nothing_leaked()


def check_counts(reader, site):
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
