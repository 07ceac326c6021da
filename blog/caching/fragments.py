"""Posts' cards and articles rendered once for every process, and reused by every page that
shows them.

Rendering a post's card is most of the cost of a listing: a responsive picture (four to nine
renditions, each with its filter parsed), its links and its byline; a post's article adds the
body's blocks. The same card appears on the index, its topic pages, later pages as posts move
down and under related posts, so each is rendered once and kept in the shared cache, keyed by
the content generation (generation.py): any change readers could see, an image's
included, moves the generation on and retires every fragment at once. Like every remembered
value (remembered.py), a fragment is kept no later than the next visible post's expiry. One get_many fetches a
page's fragments; only the missing ones are rendered, after what they show is prefetched.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import prefetch_related_objects
from django.template.loader import get_template, render_to_string

from blog.seo import listed_post, post_meta
from config.storage import outage_seen
from home.middleware import site_id

from . import memory
from .generation import content_key, shared_cache_enabled
from .remembered import lifetime_until_next_expiry


@dataclass(frozen=True)
class PostFragment:
    """Something built from one post alone (and the site it is shown on): a name for its key,
    and how to build it from the request and the post."""

    name: str
    build: Callable


def template_fragment(template, variable="post"):
    """A template that shows one post, knowing it by `variable`. The request only makes links
    relative on the reader's own site: no context processors, which would run per fragment."""

    def render(request, post):
        return get_template(template).render({variable: post, "request": request})

    return PostFragment(template, render)


CARD = template_fragment("components/post_card.html")
FEATURED_CARD = template_fragment("components/featured_post.html")
ARTICLE = template_fragment("components/post_article.html", variable="page")
# What a listing's structured data says of each post, bylines included: a listing whose cards
# all come from the cache need not fetch the bylines for it.
LISTED_POST = PostFragment("listed-post", lambda request, post: listed_post(post, request))


@dataclass(frozen=True)
class PostHead:
    """A post page's head, rendered (description, share picture, structured data), and the
    topic it names as the article's section, which the related posts share."""

    html: str
    section: str


def post_head(request, post):
    meta = post_meta(post, request)
    return PostHead(render_to_string("components/meta.html", {"meta": meta}, request), meta.section)


POST_HEAD = PostFragment("post-head", post_head)


def render_fragments(request, fragments, lookups=(), load=None):
    """Each (post, fragment) pair built, in order.

    `lookups` are the prefetches the fragments need (bylines, topics, renditions), or a
    function that fetches what they need for a list of posts. A post may be given by its id
    alone, with `load`: a function from ids to posts by id (QuerySet.in_bulk), so a listing
    whose fragments are all cached fetches no post at all. Only the posts of fragments not in
    the cache are loaded and given their lookups."""
    if not shared_cache_enabled():
        pairs = with_posts(fragments, load)
        prepare(unique_posts(pairs), lookups)
        return [fragment.build(request, post) if post else "" for post, fragment in pairs]
    prefix = key_prefix(request)
    keys = [f"{prefix}:{fragment.name}:{post_id(post)}" for post, fragment in fragments]
    found = memory.fetch(keys)
    missing = [(key, pair) for key, pair in zip(keys, fragments, strict=True) if key not in found]
    if missing:
        pairs = with_posts([pair for _, pair in missing], load)
        prepare(unique_posts(pairs), lookups)
        fresh = {
            key: fragment.build(request, post)
            for (key, _), (post, fragment) in zip(missing, pairs, strict=True)
            if post is not None
        }
        # A picture shown as its alt text while the object store is down must not outlive it.
        if not outage_seen.get():
            memory.keep(fresh, lifetime_until_next_expiry())
        found.update(fresh)
    # A post deleted since its id was listed shows nothing rather than failing the page.
    return [found.get(key, "") for key in keys]


def post_id(post):
    return post if isinstance(post, int) else post.pk


def with_posts(fragments, load):
    """The pairs with each post given by id replaced by the post (None if it is gone)."""
    ids = [post for post, _ in fragments if isinstance(post, int)]
    if not ids:
        return fragments
    loaded = load(ids)
    return [
        (loaded.get(post) if isinstance(post, int) else post, fragment)
        for post, fragment in fragments
    ]


def unique_posts(pairs):
    return list({id(post): post for post, _ in pairs if post is not None}.values())


def prepare(posts, lookups):
    if callable(lookups):
        lookups(posts)
    else:  # prefetch_related_objects skips what a post already has
        prefetch_related_objects(posts, *lookups)


def key_prefix(request):
    # Links are relative on the post's own site and absolute elsewhere, and absolute addresses
    # come from the site's configured one, never the Host header: one copy per site.
    return f"{content_key('fragment')}:{site_id(request)}"
