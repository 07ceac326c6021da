"""Posts' cards and articles rendered once for every process, and reused by every page that
shows them.

Rendering a post's card is most of the cost of a listing: a responsive picture (four to nine
renditions, each with its filter parsed), its links and its byline; a post's article adds the
body's blocks. The same card appears on the index, its topic pages, later pages as posts move
down and under related posts, so each is rendered once and kept in the shared cache, keyed by
the content generation (blog/generation.py): any change readers could see, an image's
included, moves the generation on and retires every fragment at once. One get_many fetches a
page's fragments; only the missing ones are rendered, after what they show is prefetched.
"""

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import prefetch_related_objects
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from wagtail.models import Site

from .generation import current_generation, shared_cache_enabled


@dataclass(frozen=True)
class PostFragment:
    """A template that shows one post, and the name it knows the post by."""

    template: str
    variable: str = "post"


CARD = PostFragment("components/post_card.html")
FEATURED_CARD = PostFragment("components/featured_post.html")
ARTICLE = PostFragment("components/post_article.html", variable="page")


def render_fragments(request, fragments, lookups=()):
    """The HTML of each (post, fragment) pair, in order. `lookups` are the prefetches the
    fragments need (bylines, topics, renditions); the posts of fragments not in the cache are
    given them, skipping any a post already has."""
    if not shared_cache_enabled():
        prefetch_related_objects([post for post, _ in fragments], *lookups)
        return [render(request, post, fragment) for post, fragment in fragments]
    prefix = key_prefix(request)
    keys = [f"{prefix}:{fragment.template}:{post.pk}" for post, fragment in fragments]
    found = cache.get_many(keys)
    missing = [(key, pair) for key, pair in zip(keys, fragments, strict=True) if key not in found]
    if missing:
        prefetch_related_objects([post for _, (post, _) in missing], *lookups)
        fresh = {key: render(request, post, fragment) for key, (post, fragment) in missing}
        cache.set_many(fresh, settings.CONTENT_CACHE_TTL)
        found.update(fresh)
    return [mark_safe(found[key]) for key in keys]  # noqa: S308 (our templates rendered them)


def render(request, post, fragment):
    # The request only makes links relative on the reader's own site: no context processors,
    # which would run once per fragment.
    return get_template(fragment.template).render({fragment.variable: post, "request": request})


def key_prefix(request):
    # Links are relative on the post's own site and absolute elsewhere: one copy per site.
    site = Site.find_for_request(request)
    return f"fragment:{current_generation()}:{site.pk if site else 0}"
