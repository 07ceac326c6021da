"""RSS 2.0 and Atom feeds of a blog and of each of its topics (routes of BlogIndexPage)."""

import mimetypes
import re

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.db.models import Prefetch
from django.utils.feedgenerator import Atom1Feed, Enclosure, Rss201rev2Feed
from wagtail.images import get_image_model

from .seo import SHARE_IMAGE_SPEC, brand_name

DUBLIN_CORE = "http://purl.org/dc/elements/1.1/"
RSS_CONTENT = "http://purl.org/rss/1.0/modules/content/"
SITE_RELATIVE_LINK = re.compile(r'(\s(?:href|src))="/(?!/)')


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
    """The newest readable posts of one blog, or of one topic in it. Query strings are ignored."""

    feed_type = BlogRssFeed
    feed_name = "feed"

    def __init__(self, blog, topic=None):
        super().__init__()
        self.blog = blog
        self.topic = topic

    def __call__(self, request, *args, **kwargs):
        self.request = request
        return super().__call__(request, *args, **kwargs)

    def listing_url(self):
        url = self.blog.get_full_url(self.request)
        if self.topic is not None:
            url += self.blog.reverse_subpage("topic_posts", kwargs={"slug": self.topic.slug})
        return url

    def title(self):
        name = self.blog.title if self.topic is None else f"{self.blog.title}: {self.topic.name}"
        return f"{name} · {brand_name(self.request)}"

    def link(self):
        return self.listing_url()

    def feed_url(self):
        return f"{self.listing_url()}{self.feed_name}/"

    def description(self):
        if self.topic is not None and self.topic.description:
            return self.topic.description
        return self.blog.hero_intro or self.blog.title

    def author_name(self):
        return brand_name(self.request)

    def items(self):
        posts = self.blog.posts()
        if self.topic is not None:
            posts = posts.filter(topic_links__topic=self.topic).distinct()
        images = get_image_model().objects.prefetch_renditions(SHARE_IMAGE_SPEC)
        return posts.for_cards().prefetch_related(Prefetch("hero_image", queryset=images))[
            : settings.BLOG_FEED_ITEMS
        ]

    def item_title(self, post):
        return post.title

    def item_link(self, post):
        return post.get_full_url(self.request)

    def item_description(self, post):
        return post.summary

    def item_pubdate(self, post):
        return post.first_published_at

    def item_updateddate(self, post):
        return post.last_published_at

    def item_categories(self, post):
        return [topic.name for topic in post.topics]

    def item_enclosures(self, post):
        if post.hero_image is None:
            return []
        try:
            rendition = post.hero_image.get_rendition(SHARE_IMAGE_SPEC)
            length = rendition.file.size
        except OSError:  # SourceImageIOError too: the original can't be read to make one
            # A lost media file costs the item its picture, not the whole feed.
            return []
        mime_type = mimetypes.guess_type(rendition.file.name)[0] or "image/jpeg"
        url = self.request.build_absolute_uri(rendition.url)
        return [Enclosure(url, str(length), mime_type)]

    def item_extra_kwargs(self, post):
        content = ""
        if settings.BLOG_FEED_FULL_TEXT:
            # Feed readers resolve links against the feed, not the site: make them absolute.
            root = self.request.build_absolute_uri("/").rstrip("/")
            content = SITE_RELATIVE_LINK.sub(rf'\1="{root}/', str(post.body))
        return {"authors": [author.name for author in post.authors], "content": content}


class BlogAtom(BlogFeed):
    feed_type = BlogAtomFeed
    feed_name = "atom"

    def subtitle(self):
        return self.description()
