"""Keeping posts in the search index.

A post is indexed as it is saved, by modelsearch's own handlers, except in a thread that paused
them: the importer writes each post three times (created, revision, publish) and indexes what
it wrote in one batch at the end, as `update_index` would. The pause holds for that thread only,
like Wagtail's own disable_reference_index_auto_update: an editor saving a post in another
thread or process meanwhile is indexed at once (issue 32). BlogPage opts out of modelsearch's
automatic registration (`search_auto_update = False`) so that the handlers below are its only
ones.

A draft save of a post that was ever published writes only the draft's columns of its row
(DRAFT_ONLY_FIELDS): what the index holds of the post, the live title, summary, body, topics
and bylines, has not changed, and re-indexing it cost some 20 queries on every Save draft,
autosave, submit and approval. The database backend keeps only the searched text in its index
(filters run in SQL), so there such a save is not re-indexed; OpenSearch also keeps a copy of
latest_revision_created_at, by which the admin's page search can sort, and is still told.
"""

import threading
from contextlib import contextmanager

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from modelsearch.backends import get_search_backend
from modelsearch.signal_handlers import post_delete_signal_handler, post_save_signal_handler

from .caching.invalidation import DRAFT_ONLY_FIELDS
from .models import BlogPage

BATCH = 1000

_paused = threading.local()


@contextmanager
def indexing_paused():
    """Saves of posts in this thread leave the index alone until the block ends; the caller
    indexes what it wrote with index_posts()."""
    was_paused = getattr(_paused, "value", False)
    _paused.value = True
    try:
        yield
    finally:
        _paused.value = was_paused


DATABASE_BACKEND = "modelsearch.backends.database"


def index_holds_only_searched_text():
    return all(
        backend["BACKEND"] == DATABASE_BACKEND
        for backend in settings.WAGTAILSEARCH_BACKENDS.values()
    )


@receiver(post_save, sender=BlogPage, dispatch_uid="blog_index_saved_post")
def index_saved_post(sender, instance, update_fields=None, **kwargs):
    if getattr(_paused, "value", False):
        return
    draft_only = bool(update_fields) and update_fields <= DRAFT_ONLY_FIELDS
    if draft_only and index_holds_only_searched_text():
        return
    post_save_signal_handler(instance, update_fields=update_fields, **kwargs)


@receiver(post_delete, sender=BlogPage, dispatch_uid="blog_unindex_deleted_post")
def unindex_deleted_post(sender, instance, **kwargs):
    post_delete_signal_handler(instance, **kwargs)


def index_posts(ids):
    """Index the posts with these ids in batches, through the search backend's public bulk API."""
    backend = get_search_backend()
    for start in range(0, len(ids), BATCH):
        batch = (
            BlogPage.objects.filter(pk__in=ids[start : start + BATCH])
            .select_related("hero_image")
            .prefetch_related("topic_links__topic", "author_links__author")
        )
        backend.add_bulk(BlogPage, list(batch))
