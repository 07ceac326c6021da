"""What readers may see: the one rule every reader surface asks.

A page is visible to readers when it is live, not past its expiry (between the expiry and the
scheduler's next pass it is still flagged live), no view restriction applies to it or to any
ancestor, and every ancestor is live: Wagtail's live() and public() say nothing of an
unpublished ancestor, and live() nothing of expiry. Listings, topic pages, the post and home
pages, feeds, the sitemap, search and its suggestions, related posts and the header's blog all
filter or check through here, and nothing else decides.
"""

from django.db.models import CharField, Exists, ExpressionWrapper, F, Min, OuterRef, Q
from django.db.models.functions import Length, Substr
from django.utils import timezone
from wagtail.models import Page, PageViewRestriction

from .caching.generation import remember_until_changed


def current(pages, now=None):
    """Live and not past expiry: the page's own part of the rule."""
    now = now or timezone.now()
    return pages.filter(Q(live=True), Q(expire_at__isnull=True) | Q(expire_at__gt=now))


def hidden_branches():
    """Tree paths under which no reader sees anything: an unpublished page with pages below
    it, and a restricted page or an alias of one (itself and everything below). One query
    finds them all."""
    return list(
        Page.objects.filter(
            Q(live=False, numchild__gt=0)
            | Q(view_restrictions__isnull=False)
            | Q(alias_of__view_restrictions__isnull=False)
        )
        .values_list("path", flat=True)
        .distinct()
    )


def visible(pages, now=None):
    """The pages of `pages` readers may see. The hidden branches are a short list, remembered
    until the content changes, so a listing of thousands of posts tests a few prefixes."""
    pages = current(pages, now)
    for branch in remember_until_changed("hidden-branches", hidden_branches):
        pages = pages.exclude(path__startswith=branch)
    return pages


def visible_in_one_query(pages, now=None):
    """visible() with the ancestors tested inside the query: for a query that finds a row or
    two, where reading the hidden branches would cost a query of its own."""
    hidden_ancestor = Page.objects.filter(
        Q(live=False)
        | Q(view_restrictions__isnull=False)
        | Q(alias_of__view_restrictions__isnull=False),
        path=Substr(OuterRef("path"), 1, Length("path")),
    )
    return current(pages, now).exclude(Exists(hidden_ancestor))


def visible_children(page, pages, now=None):
    """visible() for the children of a page being served: routing has already refused the
    page if it or an ancestor is hidden (hides_its_subtree, restrictions_over), so only each
    child's own restriction (or, for an alias, its source's) is left, and the test costs no
    query of its own."""
    own_restriction = PageViewRestriction.objects.filter(
        Q(page=OuterRef("pk")) | Q(page=OuterRef("alias_of"))
    )
    return current(pages.child_of(page), now).exclude(Exists(own_restriction))


def hides_its_subtree(page):
    """Routing stops here: Wagtail checks only the page it lands on, and an unpublished page
    hides everything below it."""
    return not page.live


def past_expiry(pages, now=None):
    """Pages still flagged live whose expiry has passed: hidden already, for the scheduler to
    unpublish."""
    return pages.filter(live=True, expire_at__lte=now or timezone.now())


def is_past_expiry(page, now=None):
    return page.expire_at is not None and page.expire_at <= (now or timezone.now())


def is_visible(page):
    """Whether readers may see a page that routing has reached (so its ancestors are live)."""
    return page.live and not is_past_expiry(page) and not page.get_view_restrictions().exists()


def with_restriction_flag(pages):
    """Pages that each say whether a view restriction applies to them, in the query that
    fetches them: the same test as restrictions_over, so that routing a public page (nearly
    every request) needs no restrictions query at all."""
    served_path = ExpressionWrapper(OuterRef("path"), output_field=CharField())
    applies = PageViewRestriction.objects.alias(served_path=served_path).filter(
        Q(served_path__startswith=F("page__path"))
        | Q(served_path__startswith=F("page__aliases__path"))
    )
    return pages.annotate(under_view_restriction=Exists(applies))


def restrictions_over(page):
    """The view restrictions on a page or an ancestor, or on the page one of them is an alias
    of (an alias has none of its own and follows its source's), in one query: the ancestors'
    paths are prefixes of the page's own. None at all when with_restriction_flag said so."""
    if getattr(page, "under_view_restriction", None) is False:
        return PageViewRestriction.objects.none()
    steps = range(page.steplen, len(page.path) + 1, page.steplen)
    paths = [page.path[:end] for end in steps]
    return PageViewRestriction.objects.filter(
        Q(page__path__in=paths) | Q(page__aliases__path__in=paths)
    ).distinct()


def next_expiry():
    """When the next visible page stops being visible without anyone publishing: the deadline
    of everything remembered for readers, recorded with the content generation at each change
    (blog/caching/invalidation.py)."""
    pages = current(Page.objects.all())
    return pages.aggregate(Min("expire_at"))["expire_at__min"]
