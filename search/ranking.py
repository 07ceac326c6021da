"""One page of ranked results as ids, ranked on the search index alone; what each row shows
comes apart (search/rows.py).

modelsearch ranks inside the posts' own query, so ranking a broad word also joins pages and
hero images for every match, and its SQLite backend scores each match with a subquery that
re-runs the FTS match (quadratic: seconds per search at 10,000 posts).
"""

from functools import cached_property

from django.db.models import CharField, IntegerField
from django.db.models.functions import Cast
from modelsearch.utils import get_descendants_content_types_pks

from home.library_adapters import rank_expression


def backend_family(backend):
    """ "sqlite", "database" (PostgreSQL or MySQL) or "server" (OpenSearch), whatever subclass
    of modelsearch's backends the settings name."""
    modules = [cls.__module__ for cls in type(backend).__mro__]
    if any(module.startswith("modelsearch.backends.database.sqlite") for module in modules):
        return "sqlite"
    if any(module.startswith("modelsearch.backends.database") for module in modules):
        return "database"
    return "server"


def ranked_ids(results, start, stop):
    """Ids of the matching posts from start to stop, best first (ties: newest id first)."""
    family = backend_family(results.backend)
    if family == "sqlite":
        return sqlite_ranked_ids(results.query_compiler, start, stop)
    if family == "database":
        # Without select_related the posts' own query ranks only what it matches on.
        return list(results[start:stop].get_queryset().values_list("pk", flat=True))
    return [post.pk for post in results[start:stop]]  # OpenSearch ranks on its own server


def sqlite_ranked_ids(compiler, start, stop):
    """bm25() in a single pass over the FTS table, as modelsearch computes it per match."""
    ranked = (
        sqlite_scored(compiler).order_by("-score", "-post_id").values_list("post_id", flat=True)
    )
    return list(ranked[start:stop])


def sqlite_scored(compiler):
    """Every match as (post_id, score), higher is better, from the FTS table in one pass."""
    # The FTS model exists only where the SQLite backend is in use.
    from modelsearch.backends.database.sqlite.query import MatchExpression, normalize
    from modelsearch.backends.database.sqlite.sqlite import SQLiteFTSIndexEntry

    query = compiler.build_search_query(normalize(compiler.query))
    # bm25 is lower for better matches; negated, both backends sort the same way.
    score = rank_expression(compiler, compiler.get_search_vectors(), None) * -1
    candidates = compiler.queryset.order_by().values(text_pk=Cast("pk", CharField()))
    return SQLiteFTSIndexEntry.objects.filter(
        MatchExpression(compiler.FTS_TABLE_FIELDS, query),
        index_entry__content_type__in=get_descendants_content_types_pks(compiler.queryset.model),
        index_entry__object_id__in=candidates,
    ).annotate(score=score, post_id=Cast("index_entry__object_id", IntegerField()))


def scored_matches(results):
    """SQL and parameters of every match as (post_id, score), higher is better, or None where
    the backend is not the database (OpenSearch)."""
    family = backend_family(results.backend)
    if family == "sqlite":
        scored = sqlite_scored(results.query_compiler).values("post_id", "score")
    elif family == "database":
        scored = results.annotate_score("_score").get_queryset().values("pk", "_score")
    else:
        return None
    return scored.order_by().query.sql_with_params()


class RankedResults:
    """What the paginator pages through: a known count, and the ids of each page ranked (rows
    are shown from search/rows.py). The page the reader asked for may come ranked already
    (from topics_and_page)."""

    def __init__(self, find, count, ranked_page=None):
        # The search itself, built only when the count or the page is not known already:
        # building it costs as much as the rest of a remembered search.
        self.find = find
        self._count = count
        self.ranked_page = ranked_page  # (start, stop, ids)

    @cached_property
    def results(self):
        return self.find()

    def count(self):
        if self._count is None:
            self._count = self.results.count()
        return self._count

    def __len__(self):
        return self.count()

    def __getitem__(self, page):
        ranked = self.ranked_page
        # The paginator ends the last page at the count, short of a full page.
        if ranked and ranked[0] == page.start and page.stop <= ranked[1]:
            return ranked[2][: page.stop - page.start]
        return ranked_ids(self.results, page.start, page.stop)
