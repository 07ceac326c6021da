"""Indexing many posts at once for search, as `update_index` would: the demo's bulk writer and
the importer write rows without the per-save signal, then hand the new posts here."""

from modelsearch.backends import get_search_backend

from .models import BlogPage

BATCH = 1000


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
