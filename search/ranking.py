"""One page of ranked results in two steps: rank ids on the search index alone, then fetch
those posts with everything their cards need.

modelsearch ranks inside the posts' own query, so ranking a broad word also joins pages and
hero images for every match, and its SQLite backend scores each match with a subquery that
re-runs the FTS match (quadratic: seconds per search at 10,000 posts).
"""

from django.db.models import CharField, F, IntegerField
from django.db.models.functions import Cast
from modelsearch.utils import get_descendants_content_types_pks

from blog.models import BlogPage


def ranked_ids(results, start, stop):
    """Ids of the matching posts from start to stop, best first (ties: newest id first)."""
    backend = type(results.backend).__module__
    if backend.startswith("modelsearch.backends.database.sqlite"):
        return sqlite_ranked_ids(results.query_compiler, start, stop)
    if backend.startswith("modelsearch.backends.database"):
        # Without select_related the posts' own query ranks only what it matches on.
        return list(results[start:stop].get_queryset().values_list("pk", flat=True))
    return [post.pk for post in results[start:stop]]  # OpenSearch ranks on its own server


def sqlite_ranked_ids(compiler, start, stop):
    """bm25() in a single pass over the FTS table, as modelsearch computes it per match."""
    # The FTS model exists only where the SQLite backend is in use.
    from modelsearch.backends.database.sqlite.query import MatchExpression, normalize
    from modelsearch.backends.database.sqlite.sqlite import SQLiteFTSIndexEntry

    query = compiler.build_search_query(normalize(compiler.query))
    score = compiler._build_rank_expression(compiler.get_search_vectors(), None)
    candidates = compiler.queryset.order_by().values(text_pk=Cast("pk", CharField()))
    ranked = (
        SQLiteFTSIndexEntry.objects.filter(
            MatchExpression(compiler.FTS_TABLE_FIELDS, query),
            index_entry__content_type__in=get_descendants_content_types_pks(
                compiler.queryset.model
            ),
            index_entry__object_id__in=candidates,
        )
        .annotate(score=score, post_id=F("index_entry__object_id"))
        # bm25 is lower for better matches; modelsearch orders the same way.
        .order_by("score", Cast("index_entry__object_id", IntegerField()).desc())
        .values_list("post_id", flat=True)
    )
    return [int(post_id) for post_id in ranked[start:stop]]


def fetch_in_order(ids, queryset):
    """The posts with these ids, in this order, through a queryset that fetches their cards."""
    posts = queryset.in_bulk(ids)
    return [posts[post_id] for post_id in ids if post_id in posts]


class RankedResults:
    """What the paginator pages through: a known count, and each page ranked then fetched."""

    def __init__(self, results, count):
        self.results = results
        self._count = count

    def count(self):
        if self._count is None:
            self._count = self.results.count()
        return self._count

    def __len__(self):
        return self.count()

    def __getitem__(self, page):
        ids = ranked_ids(self.results, page.start, page.stop)
        return fetch_in_order(ids, BlogPage.objects.for_cards())
