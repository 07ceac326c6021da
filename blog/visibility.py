"""What readers may see: one rule, asked of a queryset (visible_to_readers) or of one page
(is_visible_to_readers), by every reader surface and every editor screen that speaks of it.

A page is visible to readers when it is live, not past its expiry (between the expiry and the
scheduler's next pass it is still flagged live), no view restriction applies to it or to any
ancestor (nor, for an alias, to its source), and every ancestor is live: Wagtail's live() and
public() say nothing of an unpublished ancestor, and live() nothing of expiry.

Routing and Wagtail's serve-time restriction check answer the same rule in their own terms: a
page refused outright is a 404 (routing_refuses), a restricted one asks for a login or a
password (view_restrictions_over). What the scheduler must unpublish is awaiting_unpublish.
"""

from django.db.models import CharField, Exists, ExpressionWrapper, F, Min, OuterRef, Q
from django.db.models.functions import Length, Substr
from django.utils import timezone
from wagtail.models import Page, PageViewRestriction

from .caching.generation import remember_until_changed

# Hides a page from readers, and everything below it: a view restriction on it, or on the page
# it is an alias of (an alias has none of its own and follows its source's).
RESTRICTED = Q(view_restrictions__isnull=False) | Q(alias_of__view_restrictions__isnull=False)


def visible_to_readers(pages, now=None, *, children_of=None, few=False):
    """The pages of `pages` readers may see.

    How the ancestors are tested depends on what the caller knows, never the answer:
    - `children_of`: only that page's children are wanted. Their ancestors are the same for
      every row, tested once inside the query, or by the parent itself when routing fetched it
      for a reader (is_visible_to_readers, no query); each child is tested for its own state.
    - `few`: the query finds a row or two (the blogs). Each row's ancestors are tested inside
      the query, where reading the hidden branches would cost a query of its own.
      Only with a limit (`.first()`): SQLite, asked for the whole result, tests every page
      against every row (22 s at 10,000 posts).
    - otherwise the hidden branches, a short list remembered until the content changes: a
      listing of thousands of posts tests a few path prefixes, with no subquery per row."""
    if children_of is not None:
        return _children_visible_to_readers(pages, children_of, now)
    pages = _live_and_unexpired(pages, now)
    if few:
        return pages.exclude(Exists(_hidden_at_or_above(OuterRef("path"))))
    for branch in remember_until_changed("hidden-branches", _hidden_branches):
        pages = pages.exclude(path__startswith=branch)
    return pages


def is_visible_to_readers(page, now=None):
    """Whether readers may see `page`: visible_to_readers for one page. A page routing fetched
    for a reader carries whether a view restriction applies (flag_view_restricted), and routing
    has refused it if an ancestor is unpublished: serving a public page asks nothing more. Any
    other page costs one query."""
    if not page.live or _is_past_expiry(page, now):
        return False
    restricted = getattr(page, "view_restricted", None)
    if restricted is not None:
        return not restricted
    return not _hidden_at_or_above(page.path).exists()


def routing_refuses(page, path_components, now=None):
    """Whether routing answers 404 on reaching `page`, served itself (no `path_components`) or
    on the way to a page below. Wagtail's route refuses only a page that is not live, and only
    the one it lands on: here a page past its expiry is refused too, and an unpublished page
    hides everything below it. A view restriction is not refused here: Wagtail's serve checks
    it (view_restrictions_over) and asks for a login or a password."""
    if path_components:
        return not page.live
    return not page.live or _is_past_expiry(page, now)


def flag_view_restricted(pages):
    """Pages that each say whether a view restriction applies to them (`view_restricted`), in
    the query that fetches them: the same test as view_restrictions_over, so that routing a
    public page (nearly every request) needs no restrictions query at all. For routing only:
    is_visible_to_readers takes a page that carries the flag to have live ancestors."""
    served_path = ExpressionWrapper(OuterRef("path"), output_field=CharField())
    applies = PageViewRestriction.objects.alias(served_path=served_path).filter(
        Q(served_path__startswith=F("page__path"))
        | Q(served_path__startswith=F("page__aliases__path"))
    )
    return pages.annotate(view_restricted=Exists(applies))


def view_restrictions_over(page):
    """The view restrictions Wagtail's serve checks for `page` (its get_view_restrictions):
    those on the page or an ancestor, or on the page one of them is an alias of, in one query
    (the ancestors' paths are prefixes of the page's own). None at all, and no query, when
    flag_view_restricted said so."""
    if getattr(page, "view_restricted", None) is False:
        return PageViewRestriction.objects.none()
    paths = _paths_at_and_above(page.path)
    return PageViewRestriction.objects.filter(
        Q(page__path__in=paths) | Q(page__aliases__path__in=paths)
    ).distinct()


def awaiting_unpublish(pages, now=None):
    """Pages still flagged live whose expiry has passed: readers no longer see them, and the
    scheduler must unpublish them."""
    return pages.filter(still_live_past_expiry(now))


def still_live_past_expiry(now=None):
    """awaiting_unpublish as a condition on each row, for a query that annotates what it
    lists: a `pk__in` subquery inside an annotation ran once per row (the editorial
    calendar at 10,000 posts: 700 ms instead of 65)."""
    return Q(live=True, expire_at__lte=now or timezone.now())


def next_expiry():
    """When the next live page stops being visible without anyone publishing: the deadline of
    everything remembered for readers, recorded with the content generation at each change
    (blog/caching/invalidation.py)."""
    pages = _live_and_unexpired(Page.objects.all())
    return pages.aggregate(Min("expire_at"))["expire_at__min"]


def _live_and_unexpired(pages, now=None):
    now = now or timezone.now()
    return pages.filter(Q(live=True), Q(expire_at__isnull=True) | Q(expire_at__gt=now))


def _is_past_expiry(page, now=None):
    return page.expire_at is not None and page.expire_at <= (now or timezone.now())


def _paths_at_and_above(path):
    steplen = Page.steplen
    return [path[:end] for end in range(steplen, len(path) + 1, steplen)]


def _hidden_at_or_above(path):
    """The pages at or above `path` (a path, or OuterRef("path") for each row of a query) that
    hide it from readers: unpublished or restricted. Its own state is tested apart."""
    if isinstance(path, str):
        at_or_above = Q(path__in=_paths_at_and_above(path))
    else:
        at_or_above = Q(path=Substr(path, 1, Length("path")))
    return Page.objects.filter(at_or_above).filter(Q(live=False) | RESTRICTED)


def _hidden_branches():
    """Tree paths under which no reader sees anything: an unpublished page with pages below
    it, and a restricted page or an alias of one (itself and everything below). One query
    finds them all."""
    return list(
        Page.objects.filter(Q(live=False, numchild__gt=0) | RESTRICTED)
        .values_list("path", flat=True)
        .distinct()
    )


def _children_visible_to_readers(pages, parent, now):
    own_restriction = PageViewRestriction.objects.filter(
        Q(page=OuterRef("pk")) | Q(page=OuterRef("alias_of"))
    )
    children = _live_and_unexpired(pages.child_of(parent), now).exclude(Exists(own_restriction))
    if getattr(parent, "view_restricted", None) is not None:
        # A parent routing fetched for a reader (the blog being served) answers for itself
        # and its ancestors without a query (is_visible_to_readers): no subquery to build or
        # run on every listing request.
        return children if is_visible_to_readers(parent, now) else children.none()
    # No OuterRef: the database tests the parent and its ancestors once for the whole query.
    return children.exclude(Exists(_hidden_at_or_above(parent.path)))
