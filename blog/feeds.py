"""RSS 2.0 and Atom feeds of a blog and of each of its topics (routes of BlogIndexPage)."""

import mimetypes
import re
from collections import defaultdict

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.db.models import Exists, F, IntegerField, OuterRef, TextField, Value
from django.http import Http404
from django.utils.feedgenerator import Atom1Feed, Enclosure, Rss201rev2Feed
from django.utils.html import escape

from .caching.fragments import PostFragment, render_fragments
from .caching.remembered import remember_ids
from .models import BlogPage, BlogPageAuthor, BlogPageTopic, Topic
from .seo import SHARE_IMAGE_SPEC, absolute_url, brand_name, site_root_url

DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"
RSS_CONTENT = "http://purl.org/rss/1.0/modules/content/"
SITE_RELATIVE_LINK = re.compile(r'(\s(?:href|src))="/(?!/)')
AUTHOR, TOPIC, FEED_TOPIC = "author", "topic", "feed topic"


class BlogRssFeed(Rss201rev2Feed):
    """RSS with one dc:creator per author and the full text in content:encoded."""

    def rss_attributes(self):
        return {**super().rss_attributes(), "xmlns:dc": DUBLIN_CORE, "xmlns:content": RSS_CONTENT}

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        for name in item["authors"]:
            handler.addQuickElement("dc:creator", name)
        if item["content"]:
            handler.addQuickElement("content:encoded", item["content"])


class BlogAtomFeed(Atom1Feed):
    """Atom with one <author> per author and the full text in <content>."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        for name in item["authors"]:
            handler.startElement("author", {})
            handler.addQuickElement("name", name)
            handler.endElement("author")
        if item["content"]:
            handler.addQuickElement("content", item["content"], {"type": "html"})


class BlogFeed(Feed):
    """The newest readable posts of one blog, or of one topic in it. Query strings are ignored.

    Past routing, a feed's posts are remembered by id until the next change, and each item is
    built once per post and kept in the content cache (blog/caching/fragments.py).

    What an editor typed is shown as typed. RSS cannot say whether a <title> or <description>
    is text or HTML, and feed readers render both as HTML (descriptions by the spec, titles by
    habit), and many do the same with an item's dc:creator and <category>: so the channel's
    and each item's title and description, and each byline and topic name, are escaped as HTML
    once, before the XML writer encodes them. A reader that decodes the XML and renders the HTML
    shows "<script>" or "&amp;" literally and runs nothing. Atom declares which is which
    (BlogAtom)."""

    feed_type = BlogRssFeed
    feed_name = "feed"

    def __init__(self, blog, topic_slug=None):
        super().__init__()
        self.blog = blog
        self.topic_slug = topic_slug
        self.topic = None

    def __call__(self, request, *args, **kwargs):
        self.request = request
        # Everything a feed says of a post (title, link, dates, bylines, topics, the share
        # picture's size, a round trip each on S3, and the full text) is built once per post
        # and kept, like its card, until the content changes.
        fragment = feed_item_fragment()
        newest, load = remember_ids(
            f"fed:{self.blog.pk}:{self.topic_slug}",
            self.newest_posts,
            BlogPage.objects.select_related("hero_image").in_bulk,
        )
        entries = render_fragments(
            request, [(post, fragment) for post in newest], self.attach_labels, load=load
        )
        self.entries = [entry for entry in entries if entry]
        if self.topic_slug is not None and self.topic is None:
            self.topic = Topic.by_slug(self.topic_slug)
            if self.topic is None:
                raise Http404("No such topic")
        response = super().__call__(request, *args, **kwargs)
        # The feed writer leaves thousands of small chunks, which a WSGI server sends to a
        # client that takes no gzip one system call each: 165 feeds a second where pages make
        # 320. One chunk instead.
        response.content = response.content
        return response

    def newest_posts(self):
        """The newest posts, with their pictures (their topics come with their labels,
        attach_labels)."""
        posts = self.blog.posts()
        if self.topic_slug is not None:
            in_topic = BlogPageTopic.objects.filter(
                page=OuterRef("pk"), topic__slug=self.topic_slug
            )
            posts = posts.filter(Exists(in_topic))
        newest = list(posts.select_related("hero_image")[: settings.BLOG_FEED_ITEMS])
        # Refused before anything is remembered under the slug: anyone may ask for any slug,
        # and an empty entry for each would fill the cache. Only a feed with no posts pays
        # for the lookup.
        if not newest and self.topic_slug is not None and Topic.by_slug(self.topic_slug) is None:
            raise Http404("No such topic")
        return newest

    def attach_labels(self, posts):
        """Each post's author and topic names as post.feed_labels, in sort order, in one query;
        the feed's own topic comes in the same round trip (a row with no post)."""
        listed = [post.pk for post in posts]
        columns = ("post", "kind", "position", "label", "slug", "text")
        bylines = BlogPageAuthor.objects.filter(page__in=listed).annotate(
            post=F("page_id"),
            kind=Value(AUTHOR),
            position=F("sort_order"),
            label=F("author__name"),
            slug=F("author__slug"),
            text=Value("", output_field=TextField()),
        )
        topic_names = BlogPageTopic.objects.filter(page__in=listed).annotate(
            post=F("page_id"),
            kind=Value(TOPIC),
            position=F("sort_order"),
            label=F("topic__name"),
            slug=F("topic__slug"),
            text=F("topic__description"),
        )
        # SQLite refuses ORDER BY inside a UNION, and the link models are ordered by default.
        rows = (
            bylines.order_by()
            .values_list(*columns)
            .union(topic_names.order_by().values_list(*columns), all=True)
        )
        if self.topic_slug is not None:
            feed_topic = Topic.objects.filter(slug=self.topic_slug).annotate(
                post=Value(None, output_field=IntegerField()),
                kind=Value(FEED_TOPIC),
                position=F("pk"),  # a topic has no position: its row carries its id there
                label=F("name"),
                slug_=F("slug"),
                text=F("description"),
            )
            rows = rows.union(
                feed_topic.order_by().values_list(*columns[:4], "slug_", "text"), all=True
            )
        labels = defaultdict(lambda: {AUTHOR: [], TOPIC: []})
        # Links saved outside the editor may carry no sort order; they come last, as in SQL.
        in_order = sorted(rows, key=lambda row: (row[2] is None, row[2] or 0))
        for post, kind, position, label, slug, text in in_order:
            if kind == FEED_TOPIC:
                self.topic = Topic(pk=position, name=label, slug=slug, description=text)
            else:
                labels[post][kind].append(label)
        for post in posts:
            post.feed_labels = labels[post.pk]

    def listing_url(self):
        url = self.blog.get_full_url(self.request)
        if self.topic is not None:
            url += self.blog.reverse_subpage("topic_posts", kwargs={"slug": self.topic.slug})
        return url

    def as_shown(self, text):
        """Typed text as this format carries it to a reader (see the class docstring)."""
        return escape(text)

    def title(self):
        name = self.blog.title if self.topic is None else f"{self.blog.title}: {self.topic.name}"
        return self.as_shown(f"{name} · {brand_name(self.request)}")

    def link(self):
        return self.listing_url()

    def feed_url(self):
        return f"{self.listing_url()}{self.feed_name}/"

    def description(self):
        if self.topic is not None and self.topic.description:
            return self.as_shown(self.topic.description)
        return self.as_shown(self.blog.hero_intro or self.blog.title)

    def author_name(self):
        return brand_name(self.request)

    def items(self):
        return self.entries

    def item_title(self, entry):
        return self.as_shown(entry["title"])

    def item_link(self, entry):
        return entry["link"]

    def item_description(self, entry):
        return entry["description"]

    def item_pubdate(self, entry):
        return entry["published"]

    def item_updateddate(self, entry):
        return entry["updated"]

    def item_categories(self, entry):
        return [self.as_shown(name) for name in entry["topics"]]

    def item_enclosures(self, entry):
        return [Enclosure(*entry["enclosure"])] if entry["enclosure"] else []

    def item_extra_kwargs(self, entry):
        authors = [self.as_shown(name) for name in entry["authors"]]
        return {"authors": authors, "content": entry["content"]}


def feed_item_fragment():
    # Named by the setting too: a feed switched to full text must not reuse summary-only items.
    full_text = "full-text" if settings.BLOG_FEED_FULL_TEXT else "summary"
    return PostFragment(f"feed-item:{full_text}", feed_entry)


def feed_entry(request, post):
    """What a feed says of a post."""
    return {
        "title": post.title,
        "link": post.get_full_url(request),
        # RSS <description> and Atom <summary type="html"> are HTML to a feed reader (see
        # BlogFeed); the summary is plain text, so "<script>" typed into it must arrive as text.
        "description": escape(post.summary),
        "published": post.first_published_at,
        "updated": post.last_published_at,
        "authors": post.feed_labels[AUTHOR],
        "topics": post.feed_labels[TOPIC],
        "enclosure": share_enclosure(request, post),
        "content": full_text(request, post),
    }


def share_enclosure(request, post):
    if post.hero_image is None:
        return None
    try:
        rendition = post.hero_image.get_renditions(SHARE_IMAGE_SPEC)[SHARE_IMAGE_SPEC]
        length = rendition.file.size
    except OSError:  # SourceImageIOError too: the original can't be read to make one
        # A lost media file costs the item its picture, not the whole feed.
        return None
    mime_type = mimetypes.guess_type(rendition.file.name)[0] or "image/jpeg"
    return (absolute_url(rendition.url, request), str(length), mime_type)


def full_text(request, post):
    if not settings.BLOG_FEED_FULL_TEXT:
        return ""
    # Feed readers resolve links against the feed, not the site: make them absolute.
    return SITE_RELATIVE_LINK.sub(rf'\1="{site_root_url(request)}/', str(post.body))


class BlogAtom(BlogFeed):
    feed_type = BlogAtomFeed
    feed_name = "atom"

    def as_shown(self, text):
        # Atom's <title> and <subtitle> are text (no type="html"), which readers show as it is.
        return text

    def subtitle(self):
        return self.description()
