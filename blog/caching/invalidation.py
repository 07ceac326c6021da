"""What retires what readers are shown: every change they could see, in one place.

Inside the project nothing is purged. Every page, fragment and remembered value is kept under
a key that names the content generation (generation.py), so one bump retires all of it in
every process at once; what a post's expiry retires, each entry's own deadline retires
(remembered.py). A change readers could see is:

- a saved or deleted row of a page, topic, author, byline, topic link, picture, site, site
  setting, view restriction or search promotion. A draft save is not: on a post that was ever
  published it writes only the draft's columns of the page row, and on a post never published
  (which Wagtail saves whole, bylines and topics too) nothing a reader can reach;
- a publish, unpublish or move (Wagtail's own signals, which the row saves already cover);
- what no row save reports, whose writers call content_changed themselves: featuring a post
  (an update() of two columns) and the demo generator's bulk inserts.

Outside the project, a CDN or Varnish in front of it (WAGTAILFRONTENDCACHE) is told which
addresses show a page that was published or unpublished; Wagtail's frontend_cache app purges
the page itself.
"""

import threading

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.urls import reverse
from wagtail.contrib.frontend_cache.utils import PurgeBatch
from wagtail.contrib.search_promotions.models import SearchPromotion
from wagtail.contrib.settings.models import BaseGenericSetting, BaseSiteSetting
from wagtail.images import get_image_model
from wagtail.models import COMMENTS_RELATION_NAME, Page, PageViewRestriction, Site
from wagtail.signals import page_published, page_unpublished, post_page_move

from blog.models import Author, BlogIndexPage, BlogPage, BlogPageAuthor, BlogPageTopic, Topic
from blog.visibility import next_expiry

from .generation import bump_generation

# Changing a row of any of these changes what some reader page shows.
READER_VISIBLE_MODELS = (
    Page,
    Topic,
    Author,
    BlogPageAuthor,
    BlogPageTopic,
    BaseSiteSetting,
    BaseGenericSetting,
    Site,
    PageViewRestriction,
    SearchPromotion,
)


class _PendingBump(threading.local):
    # What the commit callbacks registered since the last bump share: an approval saves the
    # page three times and its bylines and topics, and registered one bump for each (7, some
    # 25 queries and as many cache writes). The first callback to run after a commit bumps
    # once for all; a rolled-back transaction drops its callbacks, and the next change's
    # callback bumps for it. Shared per thread, as a database connection is.
    batch = None


_pending = _PendingBump()


def content_changed(**kwargs):
    """Retire every cached page once the current transaction commits (a rolled-back change
    retires nothing), with one bump however many rows the transaction changed."""
    if _pending.batch is None or _pending.batch["bumped"]:
        _pending.batch = {"bumped": False}
    batch = _pending.batch
    transaction.on_commit(lambda: bump_with_next_expiry(batch))


def bump_with_next_expiry(batch=None):
    if batch is not None and batch["bumped"]:
        return
    # After the commit: the expiry as the change left the pages.
    bump_generation(next_expiry=next_expiry)
    if batch is not None:  # only once it has happened: a failed bump leaves it to the next
        batch["bumped"] = True


# Saving a draft (by hand or by autosave, every few seconds while an editor types) writes only
# these columns of the page row: nothing a reader sees, so no reader's cached page is retired.
DRAFT_ONLY_FIELDS = frozenset(
    {
        "latest_revision",
        "latest_revision_created_at",
        "draft_title",
        "has_unpublished_changes",
        COMMENTS_RELATION_NAME,
    }
)


def never_published(page):
    """A page that was never live: no reader's page has shown it. Publishing it goes through a
    save with `live` set, and unpublishing a page that was live has a signal of its own."""
    return not page.live and page.first_published_at is None


def only_a_draft_changed(sender, instance, update_fields, created):
    if not issubclass(sender, Page):
        # A byline or topic of a post never published: saved with the post's draft.
        if issubclass(sender, BlogPageAuthor | BlogPageTopic):
            try:
                return never_published(instance.page)
            except Page.DoesNotExist:
                return False
        return False
    if update_fields and update_fields <= DRAFT_ONLY_FIELDS:
        return True
    # created is None for a deleted row: a new or deleted page always retires (a new page
    # can be a hidden branch's first child, see blog/visibility.py).
    return created is False and never_published(instance)


@receiver(post_save)
@receiver(post_delete)
def row_changed(sender, instance, update_fields=None, created=None, **kwargs):
    if not (issubclass(sender, READER_VISIBLE_MODELS) or sender is get_image_model()):
        return
    if only_a_draft_changed(sender, instance, update_fields, created):
        return
    content_changed()


# Wagtail's own signals are covered by the page row saves above; listening to them as well keeps
# the cache right if a future Wagtail publishes without saving the page row.
page_published.connect(content_changed, dispatch_uid="page_cache_published")
page_unpublished.connect(content_changed, dispatch_uid="page_cache_unpublished")
post_page_move.connect(content_changed, dispatch_uid="page_cache_moved")


# Frontend cache (CDN, Varnish) -------------------------------------------------------------


def listing_urls(blog):
    """Every address of a blog that lists posts: its pages, its feeds, each topic's pages and
    feeds. Later pages of a listing than FRONTEND_CACHE_PURGE_PAGES are left to expire."""
    base = blog.get_full_url()
    if base is None:  # not routable from any site
        return []
    pages = range(2, settings.FRONTEND_CACHE_PURGE_PAGES + 1)

    def listing(path):
        return [base + path, *(f"{base}{path}?page={number}" for number in pages)]

    urls = [*listing(""), base + "feed/", base + "atom/"]
    for slug in Topic.objects.values_list("slug", flat=True):
        topic = blog.reverse_subpage("topic_posts", kwargs={"slug": slug})
        urls += [*listing(topic), f"{base}{topic}feed/", f"{base}{topic}atom/"]
    return urls


def purge_what_shows(page):
    """The addresses outside the page itself that show it: the blog's listings and feeds, the
    home page (newest posts) and the sitemap. Wagtail's frontend_cache app purges the page."""
    blog = page if isinstance(page, BlogIndexPage) else page.get_parent().specific
    batch = PurgeBatch(listing_urls(blog))
    home = blog.get_parent()
    root = home.get_full_url()
    if root is not None:
        batch.add_url(root)
        batch.add_url(root.rstrip("/") + reverse("sitemap"))
    batch.purge()


def purge_listings(sender, instance, **kwargs):
    if not settings.WAGTAILFRONTENDCACHE:
        return
    # After commit, so that a CDN refetching at once gets the new listing, not the old one.
    transaction.on_commit(lambda: purge_what_shows(instance))


for page_type in (BlogPage, BlogIndexPage):
    page_published.connect(
        purge_listings, sender=page_type, dispatch_uid=f"purge_published_{page_type.__name__}"
    )
    page_unpublished.connect(
        purge_listings, sender=page_type, dispatch_uid=f"purge_unpublished_{page_type.__name__}"
    )
