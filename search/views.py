import re

from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef
from django.db.models.functions import Length, Substr
from django.http import Http404, JsonResponse
from django.template.response import TemplateResponse
from wagtail.contrib.search_promotions.models import SearchPromotion
from wagtail.models import PageViewRestriction

from blog.models import BlogIndexPage, BlogPage, BlogPageTopic, Topic

from .excerpts import excerpt, highlight, match_pattern
from .hits import count_hit
from .query import MAX_QUERY_LENGTH, QueryTooLong, ReaderQuery
from .ranking import RankedResults

RESULTS_PER_PAGE = 10
SUGGESTIONS = 8
SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")


def header_blog_index():
    """The blog the header links to, as the context processor would find it, in one query
    (PageQuerySet.public() spends one listing every restriction first)."""
    restricted_ancestor = PageViewRestriction.objects.filter(
        page__path=Substr(OuterRef("path"), 1, Length("page__path"))
    )
    return (
        BlogIndexPage.objects.live().exclude(Exists(restricted_ancestor)).order_by("path").first()
    )


def matching(readable, query, ranked=True):
    """Readable posts that match, as a search over an id filter: the backends only accept
    filters on indexed fields, and readable() filters on fields the index doesn't hold.
    Cards are fetched apart (RankedResults), so ranking joins nothing it does not rank on."""
    return BlogPage.objects.filter(pk__in=readable.values("pk")).search(
        query, order_by_relevance=ranked
    )


def topic_counts(results):
    """Topics of every matching post (not just this page), with how many posts each. Each row
    also carries the number of all matching posts, so the result count needs no query."""
    # SearchResults has no values(); the backend's own queryset is the exact matching set.
    # It is matched once (a materialised CTE) for both counts: matching a broad word is the
    # costly part, ~70 ms over 9,000 of 10,000 posts on PostgreSQL.
    matched_sql, params = results.get_queryset().order_by().values("pk").query.sql_with_params()
    links = BlogPageTopic._meta.db_table
    return list(
        Topic.objects.raw(
            f"WITH matched (post_id) AS MATERIALIZED ({matched_sql}) "  # noqa: S608 - SQL from the ORM, values are parameters
            f"SELECT topic.*, COUNT(DISTINCT link.page_id) AS post_count, "
            f"(SELECT COUNT(*) FROM matched) AS matched "
            f"FROM {Topic._meta.db_table} topic JOIN {links} link ON link.topic_id = topic.id "
            f"WHERE link.page_id IN (SELECT post_id FROM matched) "
            f"GROUP BY topic.id ORDER BY post_count DESC, topic.name",
            params,
        )
    )


def promotions(readable, query_string):
    """Editors' picks for this query whose post a reader may see, in the editors' order."""
    return (
        SearchPromotion.objects.filter(
            query__query_string=query_string, page__in=readable.values("pk")
        )
        .select_related("page__blogpage")
        .order_by("sort_order")
    )


def landing_context(readable):
    """What an empty or fruitless search offers instead: topics to browse, the newest posts."""
    return {
        "popular_topics": Topic.objects.filter(post_links__page__in=readable.values("pk"))
        .annotate(post_count=Count("post_links__page", distinct=True))
        .order_by("-post_count", "name")[:6],
        "recent_posts": readable.newest_first().for_cards()[:5],
    }


def search(request):
    try:
        query = ReaderQuery.parse(request.GET.get("q", ""))
    except QueryTooLong:
        context = {
            "error": f"That search is too long. Please use at most {MAX_QUERY_LENGTH} characters.",
            "max_query_length": MAX_QUERY_LENGTH,
        }
        return TemplateResponse(request, "search/search.html", context, status=400)

    topic = None
    topic_slug = request.GET.get("topic", "")
    if topic_slug:
        topic = Topic.objects.filter(slug=topic_slug).first() if SLUG.match(topic_slug) else None
        if topic is None:
            raise Http404("No such topic")

    readable = BlogPage.objects.readable()
    request._blog_index_for_header = header_blog_index()
    context = {
        "search_query": query.text,
        "active_topic": topic,
        "max_query_length": MAX_QUERY_LENGTH,
    }
    if not query:
        context.update(landing_context(readable))
        return TemplateResponse(request, "search/search.html", context)

    query_string = count_hit(query.text)

    # Facets and counts need the matching set, never its order: unranked is cheaper.
    topics = topic_counts(matching(readable, query.as_search_query(), ranked=False))
    in_topic = readable if topic is None else readable.filter(topic_links__topic=topic)
    count = None  # nothing matched, or only posts without a topic: RankedResults counts them
    if topics:
        count = (
            topics[0].matched
            if topic is None
            else next((t.post_count for t in topics if t.pk == topic.pk), 0)
        )
    results = RankedResults(matching(in_topic, query.as_search_query()), count)
    paginator = Paginator(results, RESULTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))

    pattern = match_pattern(query.terms)
    context.update(
        {
            "results": page,
            "page_range": page.paginator.get_elided_page_range(page.number),
            "hits": [
                {
                    "post": post,
                    "title": highlight(post.title, pattern),
                    "excerpt": excerpt(post, pattern),
                }
                for post in page
            ],
            "topics": topics,
            "picks": promotions(readable, query_string) if page.number == 1 else [],
        }
    )
    if not page.paginator.count:
        context.update(landing_context(readable))
    return TemplateResponse(request, "search/search.html", context)


def suggest(request):
    """Titles of readable posts starting with what the reader has typed so far."""
    try:
        query = ReaderQuery.parse(request.GET.get("q", ""))
    except QueryTooLong:
        return JsonResponse({"results": []}, status=400)
    if not query.words:
        return JsonResponse({"results": []})
    readable = BlogPage.objects.readable()
    posts = BlogPage.objects.filter(pk__in=readable.values("pk")).autocomplete(
        " ".join(query.words)
    )[:SUGGESTIONS]
    return JsonResponse(
        {"results": [{"title": post.title, "url": post.get_url(request)} for post in posts]}
    )
