"""Popular searches ranked ahead of readers.

A search's ranking is remembered until the content changes (search/views.py). The first reader
after a publish pays for ranking afresh, which for a word in most posts reads most of the
index. The scheduler calls warm_popular_searches() after every pass, so the searches readers
make most often are ranked again within one pass of any change, before most readers ask.
"""

from datetime import timedelta

from django.db.models import Sum
from django.utils import timezone
from wagtail.contrib.search_promotions.models import QueryDailyHits

from blog.caching.generation import shared_cache_enabled
from blog.models import BlogPage

from .query import QueryTooLong, ReaderQuery
from .views import rank_page, ranked_search

POPULAR_SEARCHES = 20
POPULAR_OVER_DAYS = 7


def popular_query_strings(limit=POPULAR_SEARCHES, days=POPULAR_OVER_DAYS):
    since = timezone.now().date() - timedelta(days=days)
    return list(
        QueryDailyHits.objects.filter(date__gte=since)
        .values("query__query_string")
        .annotate(total=Sum("hits"))
        .order_by("-total", "query__query_string")
        .values_list("query__query_string", flat=True)[:limit]
    )


def warm_popular_searches():
    """Rank the first page of each popular search unless it is remembered already; the number
    ranked (0 when nothing changed since the last pass)."""
    if not shared_cache_enabled():
        return 0
    readable, ranked = BlogPage.objects.readable(), []

    def rank(*args):
        ranked.append(args[0])
        return rank_page(*args)

    for query_string in popular_query_strings():
        try:
            query = ReaderQuery.parse(query_string)
        except QueryTooLong:
            continue
        if query:
            ranked_search(query, None, readable, 0, rank=rank)
    return len(ranked)


def warm_after_pass(**kwargs):
    ranked = warm_popular_searches()
    return f"Ranked {ranked} popular searches afresh." if ranked else None
