"""What the blog's pages answer readers: the listing's and the post's template context, and the
feeds, built from fragments rendered once and shared (blog/caching/).

The view layer of the page models. Wagtail serves a page through its model, so BlogIndexPage's
routes and BlogPage.get_context hand over to this module, which BlogConfig.ready() gives them
as their `views`: the content model never imports the rendering and caching layers (the layers
contract in pyproject.toml).
"""

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import Http404

from .caching import chrome
from .caching.fragments import (
    ARTICLE,
    CARD,
    FEATURED_CARD,
    LISTED_POST,
    POST_HEAD,
    render_fragments,
)
from .caching.pages import reads_page_number
from .caching.remembered import remember_ids
from .feeds import BlogAtom, BlogFeed
from .models import BlogPage, prefetch_cards
from .renditions import body_pictures
from .seo import post_meta


def listing_context(blog, request, topic=None):
    """A page of the blog's listing, or of one topic's: the featured post, the cards, the topic
    filter, the pagination and the head."""
    featured = blog.featured() if topic is None else None
    topics = blog.topic_counts()
    total_posts = topics[0].total_posts if topics else blog.posts().count()
    # The paginator numbers the pages from the counts, known already: no second COUNT over
    # the same rows. The page's posts are found below, and only when not remembered.
    paginator = Paginator((), blog.posts_per_page)
    if topic is None:
        paginator.count = total_posts - (1 if featured else 0)
    else:
        paginator.count = next((t.post_count for t in topics if t.pk == topic.pk), 0)
    page = page_of(paginator, request)
    first = (page.number - 1) * paginator.per_page

    def find_posts():
        # Building the query costs as much as a remembered page's whole lookup (~1 ms).
        return blog.listed(topic, featured).card_fields()[first : first + paginator.per_page]

    # The page's posts by id, until the next change; their cards come from the cache, and a
    # post is fetched (by id) only for a card not in it.
    ids, load = remember_ids(
        f"listed:{blog.pk}:{topic and topic.pk}:{featured and featured.pk}:{page.number}",
        find_posts,
        lambda wanted: BlogPage.objects.card_fields().in_bulk(wanted),
    )
    page.object_list = ids
    featured = featured if page.number == 1 else None
    listed = [featured, *page.object_list] if featured else page.object_list
    # Each post's card and its entry in the structured data; what is not in the cache is
    # built after one query for those posts, one for their bylines, one for topics and one
    # for pictures.
    cards = [(post, FEATURED_CARD if post is featured else CARD) for post in listed]
    entries = [(post, LISTED_POST) for post in listed]
    built = render_fragments(request, cards + entries, prefetch_cards, load=load)
    cards, entries = built[: len(listed)], built[len(listed) :]
    listing_total = total_posts if topic is None else page.paginator.count
    # The header links to this blog; it need not look the blog up again.
    request._blog_index_for_header = blog
    return {
        "posts": page,
        "featured": featured,
        "featured_card": cards[0] if featured else None,
        "cards": cards[1:] if featured else cards,
        "active_topic": topic,
        "total_posts": total_posts,
        "listing_total": listing_total,
        "shown_count": len(page.object_list),
        "pagination": chrome.pagination(page),
        "topic_filter": chrome.topic_filter(request, blog, topics, topic, total_posts),
        "head_meta": chrome.listing_head(
            request, blog, topic=topic, page=page, listed=listed, entries=entries
        ),
    }


def page_of(paginator, request):
    """The page the address names: a number past the last page (or below the first) is not
    found, so no address pads the page cache with copies of the last page; anything that is
    no number at all is the first page."""
    reads_page_number(request)
    try:
        return paginator.page(request.GET.get("page") or 1)
    except PageNotAnInteger:
        return paginator.page(1)
    except EmptyPage:
        raise Http404("No such page") from None


def post_context(post, request):
    """A post's page: its head, its article and the cards of its related posts."""
    context = {}
    request._blog_index_for_header = post.blog_index
    related, load = remember_ids(
        f"related-posts:{post.pk}", post.related_posts, BlogPage.objects.card_fields().in_bulk
    )
    related_cards = [(other, CARD) for other in related]
    if getattr(request, "is_preview", False) or post.pk is None:
        # The editor's unsaved bylines, topics and body, under the live post's id: built
        # afresh, never shared. Only the related posts' cards are the live ones.
        cards = render_fragments(request, related_cards, prefetch_cards, load=load)
        meta, article = post_meta(post, request), None
        # The related posts share this post's first topic, which the meta names already.
        context.update(meta=meta, related_topic=meta.section)
        # Wagtail's checks count the words and reading time of the preview's first
        # `main, [role="main"]` (hard-coded in its core.js): there the body alone is the
        # main region, so they count what the reader's "min read" counts. Readers keep
        # <main> around the whole post, title included, where the skip link lands.
        context["main_is_article_body"] = getattr(request, "is_preview", False)
    else:

        def lookups(posts):
            # The body's pictures, if the article is built, with the heroes' renditions.
            prefetch_cards(posts, pictures=body_pictures(post) if post in posts else ())

        # What is not cached is built after one query each for the bylines, topics and
        # pictures (heroes and body) of this post and the related ones together.
        head, article, *cards = render_fragments(
            request, [(post, POST_HEAD), (post, ARTICLE), *related_cards], lookups, load=load
        )
        context.update(head_meta=head.html, related_topic=head.section)
    context.update(article=article, related_posts=related, related_cards=cards)
    return context


def feed(blog, request, topic_slug=None, atom=False):
    """The blog's RSS or Atom feed, or one topic's."""
    feed_type = BlogAtom if atom else BlogFeed
    return feed_type(blog, topic_slug=topic_slug)(request)
