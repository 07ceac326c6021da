"""Matches as post ids and scores, ranked on the search index alone; what each row shows comes
apart (search/rows.py).

modelsearch ranks inside the posts' own query, so ranking a broad word also fetches every
column of the posts it pages through; and its SQLite backend scores each match with a subquery
that re-runs the FTS match (quadratic: seconds per search at 10,000 posts).
"""

from functools import cached_property

from django.conf import settings
from django.db import connection
from django.db.models import F

from home.library_adapters import sqlite_scored_matches

# modelsearch's database backend, which ranks in the site's own database (PostgreSQL or SQLite,
# as the database is); the other choice, a search server (OpenSearch), ranks on its own.
DATABASE_BACKEND = "modelsearch.backends.database"


def ranks_in_the_database():
    return settings.WAGTAILSEARCH_BACKENDS["default"]["BACKEND"] == DATABASE_BACKEND


def scored_matches(results):
    """Every match as rows of post_id and score, higher is better (a queryset of values); None
    where a search server ranks (OpenSearch)."""
    if not ranks_in_the_database():
        return None
    if connection.vendor == "sqlite":
        return sqlite_scored_matches(results)
    return results.annotate_score("score").get_queryset().values("score", post_id=F("pk"))


def best_first(scored):
    """Ties: the newest id first."""
    return scored.order_by("-score", "-post_id")


def ranked_ids(results, start, stop):
    """Ids of the matching posts from start to stop, best first."""
    scored = scored_matches(results)
    if scored is None:
        return [post.pk for post in results[start:stop]]
    return list(best_first(scored).values_list("post_id", flat=True)[start:stop])


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
