"""What the head of a page tells search engines, feed readers and link previews.

Page models build a `PageMeta` in `get_context`; `templates/components/meta.html` renders it.
"""

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin

from django.conf import settings
from django.utils.text import Truncator
from wagtail.images.models import SourceImageIOError
from wagtail.models import Site

from home.models import SiteSettings

SHARE_IMAGE_SPEC = "fill-1200x630"
DESCRIPTION_MAX_LENGTH = 300


@dataclass
class PageMeta:
    title: str
    description: str = ""
    canonical: str = ""
    og_type: str = "website"
    image_url: str = ""
    image_alt: str = ""
    image_width: int | None = None
    image_height: int | None = None
    published: datetime | None = None
    modified: datetime | None = None
    authors: list[str] = field(default_factory=list)
    section: str = ""
    tags: list[str] = field(default_factory=list)
    feeds: list[dict] = field(default_factory=list)
    json_ld: dict | None = None

    @property
    def twitter_card(self):
        return "summary_large_image" if self.image_url else "summary"


def brand_name(request):
    return SiteSettings.for_request(request).brand_name


def plain(text):
    return Truncator(" ".join((text or "").split())).chars(DESCRIPTION_MAX_LENGTH)


def site_root_url(request):
    """The address of the site serving the request, as configured (Wagtail's Site), without a
    trailing slash. Never the Host header: what is cached for a site is served to every port
    and alias that reaches it, as Wagtail's own page URLs are."""
    site = Site.find_for_request(request)
    return site.root_url if site else settings.WAGTAILADMIN_BASE_URL.rstrip("/")


def absolute_url(url, request):
    """A link on this site (a picture's: relative, or absolute on a storage's own host) as an
    absolute address."""
    return urljoin(f"{site_root_url(request)}/", url)


def absolute_page_url(page, request):
    # A page being previewed before its first save has no URL yet.
    return page.get_full_url(request) or absolute_url(request.path, request)


def share_image(image, request):
    """The 1200×630 picture link previews show, as (absolute url, width, height)."""
    if image is None:
        return "", None, None
    try:
        # Not get_rendition, which writes the rendition to the cache on every call, found
        # among the prefetched ones or not; get_renditions writes only what it looked up.
        rendition = image.get_renditions(SHARE_IMAGE_SPEC)[SHARE_IMAGE_SPEC]
    except SourceImageIOError:
        # The original is unreadable (object store down, file lost): the page goes out without
        # a preview picture rather than not at all; the next request tries again.
        return "", None, None
    return absolute_url(rendition.url, request), rendition.width, rendition.height


def person_list(names):
    return [{"@type": "Person", "name": name} for name in names]


def publication_dates(post):
    dates = {"datePublished": post.first_published_at, "dateModified": post.last_published_at}
    return {key: value.isoformat() for key, value in dates.items() if value}


def blog_feeds(blog, request, topic=None):
    """The feeds a reader's feed reader should offer on this page: the blog's, then the topic's."""
    base = blog.get_full_url(request)
    feeds = [
        {"type": "application/rss+xml", "title": f"{blog.title} (RSS)", "href": base + "feed/"},
        {"type": "application/atom+xml", "title": f"{blog.title} (Atom)", "href": base + "atom/"},
    ]
    if topic is not None:
        topic_base = base + blog.reverse_subpage("topic_posts", kwargs={"slug": topic.slug})[:-1]
        feeds += [
            {
                "type": "application/rss+xml",
                "title": f"{blog.title}: {topic.name} (RSS)",
                "href": topic_base + "/feed/",
            },
            {
                "type": "application/atom+xml",
                "title": f"{blog.title}: {topic.name} (Atom)",
                "href": topic_base + "/atom/",
            },
        ]
    return feeds


def post_meta(post, request):
    canonical = absolute_page_url(post, request)
    title = post.seo_title or post.title
    description = plain(post.search_description or post.summary)
    image_url, width, height = share_image(post.hero_image, request)
    authors = [author.name for author in post.authors]
    topics = [topic.name for topic in post.topics]
    publisher = {"@type": "Organization", "name": brand_name(request)}
    json_ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": title,
        "description": description,
        "url": canonical,
        "mainEntityOfPage": {"@type": "WebPage", "@id": canonical},
        "author": person_list(authors),
        "publisher": publisher,
    }
    if image_url:
        json_ld["image"] = [image_url]
    json_ld.update(publication_dates(post))
    if topics:
        json_ld["articleSection"] = topics[0]
        json_ld["keywords"] = topics
    blog = post.get_parent().specific
    return PageMeta(
        title=title,
        description=description,
        canonical=canonical,
        og_type="article",
        image_url=image_url,
        image_alt=post.hero_alt if image_url else "",
        image_width=width,
        image_height=height,
        published=post.first_published_at,
        modified=post.last_published_at,
        authors=authors,
        section=topics[0] if topics else "",
        tags=topics,
        feeds=blog_feeds(blog, request),
        json_ld=json_ld,
    )


def listed_post(post, request):
    """A post as a listing's structured data names it."""
    return {
        "@type": "BlogPosting",
        "headline": post.title,
        "url": post.get_full_url(request),
        "author": person_list(author.name for author in post.authors),
        **publication_dates(post),
    }


def blog_index_meta(blog, request, *, topic, page, listed):
    """Meta for a page of the listing (`listed`: its posts as listed_post gives them); page 2
    onwards is its own canonical address."""
    base = absolute_page_url(blog, request)
    if topic is not None:
        base += blog.reverse_subpage("topic_posts", kwargs={"slug": topic.slug})
    canonical = base if page.number == 1 else f"{base}?page={page.number}"
    if topic is not None:
        title = f"{topic.name} · {blog.seo_title or blog.title}"
        description = topic.description or f"Posts about {topic.name} from {blog.title}."
    else:
        title = blog.seo_title or blog.title
        description = blog.search_description or blog.hero_intro
    json_ld = {
        "@context": "https://schema.org",
        "@type": "Blog",
        "name": title,
        "description": plain(description),
        "url": canonical,
        "publisher": {"@type": "Organization", "name": brand_name(request)},
        "blogPost": listed,
    }
    return PageMeta(
        title=title,
        description=plain(description),
        canonical=canonical,
        feeds=blog_feeds(blog, request, topic),
        json_ld=json_ld,
    )


def generic_meta(request, page=None):
    """For pages that build nothing of their own (the home page, search, errors)."""
    if page is None:
        return PageMeta(title="")
    description = page.search_description or getattr(page, "intro", "")
    return PageMeta(
        title=page.seo_title or page.title,
        description=plain(description),
        canonical=absolute_page_url(page, request),
    )
