"""The chrome around a page's content, rendered once for the values it shows.

A listing's parts around its cards, each a function of a few values: the pagination (of the
page's number and the number of pages), the topic filter (of the blog's address, the topics'
counts and the topic chosen) and the head (of the posts listed). Django's templates spend
~0.3 ms on each, as long as the listing's query takes; each is remembered like any other value.

Every page's header and footer: Wagtail's {% wagtailcache %} (Django's {% cache %}, which
renders previews afresh), keyed and timed by ChromeCache.
"""

import math

from django.template.loader import render_to_string

from blog.seo import blog_index_meta
from home.middleware import site_id

from .fragments import post_id
from .generation import content_key, shared_cache_enabled
from .remembered import lifetime_until_next_expiry, remember


class ChromeCache:
    """What {% wagtailcache %} keeps a block of the chrome by, as everything kept for readers:

        {% wagtailcache chrome_cache.seconds site-footer chrome_cache.key %}

    `key` names the content generation and the code release, so the next change retires the
    block, and the site (links are relative on the reader's own site); `seconds` end it no
    later than the next visible post's expiry. Templates ask for them only on a page that
    caches a block. With the content cache off, blocks go to a cache that keeps nothing (the
    "template_fragments" cache, config/settings) and neither asks for the generation."""

    def __init__(self, request):
        self.request = request

    def key(self):
        if not shared_cache_enabled():
            return None
        return f"{content_key('chrome')}:{site_id(self.request)}"

    def seconds(self):
        return math.ceil(lifetime_until_next_expiry()) if shared_cache_enabled() else 0


def pagination(page):
    """The links to a listing's other pages (relative, "?page=N"): the same for every listing
    with as many pages. Its template compares each number with the paginator's translated
    ellipsis and localises it, ~0.3 ms a listing."""
    number, num_pages = page.number, page.paginator.num_pages

    def build():
        page_range = list(page.paginator.get_elided_page_range(number))
        return render_to_string(
            "components/pagination.html", {"posts": page, "page_range": page_range}
        )

    return remember(f"pagination:{number}:{num_pages}", build)


def topic_filter(request, blog, topics, active_topic, total_posts):
    """The topic chips, remembered like the counts they show (Blog.topic_counts): until the
    content changes or a post expires."""
    url = blog.get_url(request)
    active = active_topic.pk if active_topic else None
    context = {
        "page": blog,
        "request": request,
        "topics": topics,
        "active_topic": active_topic,
        "total_posts": total_posts,
    }
    return remember(
        f"topic-filter:{blog.pk}:{url}:{active}",
        lambda: render_to_string("components/topic_filter.html", context),
    )


def listing_head(request, blog, *, topic, page, listed, entries):
    """The head of a page of the listing: its canonical address, feeds and structured data,
    which names each post listed (`entries`, as listed_post gives them)."""

    def build():
        meta = blog_index_meta(blog, request, topic=topic, page=page, listed=entries)
        return render_to_string("components/meta.html", {"meta": meta}, request)

    if getattr(request, "is_preview", False):  # the editor's unsaved title, not the live one
        return build()
    ids = [post_id(post) for post in listed]
    name = f"listing-head:{blog.pk}:{topic and topic.pk}:{page.number}:{ids}:{site_id(request)}"
    return remember(name, build)
