import re

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.template.response import TemplateResponse
from django.utils.functional import SimpleLazyObject
from modelsearch.utils import normalise_query_string
from wagtail.contrib.search_promotions.models import SearchPromotion

from blog.caching.remembered import remember
from blog.models import BlogPage, BlogPageTopic, Topic
from home.library_adapters import queryset_sql

from .excerpts import excerpt, highlight, match_pattern, shows_summary
from .hits import count_hit
from .query import MAX_QUERY_LENGTH, QueryTooLong, ReaderQuery
from .ranking import RankedResults, scored_matches
from .rows import PostsToShow, rows_by_id, texts_by_id

RESULTS_PER_PAGE = 10
SUGGESTIONS = 8
SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")


def matching(readable, query):
    """Readable posts that match, as a search over an id filter: the backends only accept
    filters on indexed fields, and readable() filters on fields the index doesn't hold.
    Cards are fetched apart (RankedResults), so ranking joins nothing it does not rank on."""
    return BlogPage.objects.filter(pk__in=readable.values("pk")).search(query)


def topics_and_page(results, topic, start, stop):
    """Topics of every matching post (not just this page) with how many posts each, the
    number of all matching posts, and the ids ranked from start to stop (in the topic, if one
    is chosen). One statement matches the query once for all three: reading the ~9,000 index
    rows a broad word matches at 10,000 posts is most of a search's time."""
    scored = scored_matches(results)
    if scored is None:
        return [], None, None
    scored_sql, params = queryset_sql(scored.order_by())
    links, topics = BlogPageTopic._meta.db_table, Topic._meta.db_table
    in_topic = ""
    if topic is not None:
        in_topic = f"WHERE post_id IN (SELECT page_id FROM {links} WHERE topic_id = %s)"  # noqa: S608
        params = (*params, topic.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH matched AS MATERIALIZED ({scored_sql}) "  # noqa: S608 - SQL from the ORM, values are parameters
            f"SELECT topic.id, topic.name, topic.slug, COUNT(DISTINCT link.page_id), "
            f"CAST(NULL AS BIGINT), NULL "
            f"FROM {topics} topic JOIN {links} link ON link.topic_id = topic.id "
            f"JOIN matched ON matched.post_id = link.page_id GROUP BY topic.id "
            f"UNION ALL SELECT NULL, NULL, NULL, post_id, NULL, score FROM ("
            f"SELECT post_id, score FROM matched {in_topic} "
            f"ORDER BY score DESC, post_id DESC LIMIT %s OFFSET %s) ranked "
            # Last, and the first branch's NULL count cast: PostgreSQL types a UNION's columns
            # from its earlier branches (a bare NULL in each would be text).
            f"UNION ALL SELECT NULL, NULL, NULL, NULL, (SELECT COUNT(*) FROM matched), NULL",
            (*params, stop - start, start),
        )
        rows = cursor.fetchall()
    found, total, ranked = [], None, []
    for topic_id, name, slug, count, matched, score in rows:
        if matched is not None:
            total = matched
        elif topic_id is None:
            ranked.append((score, count))
        else:
            found.append(Topic(pk=topic_id, name=name, slug=slug))
            found[-1].post_count = count
    found.sort(key=lambda row: (-row.post_count, row.name))
    ranked.sort(reverse=True)
    return found, total, (start, stop, [post_id for _, post_id in ranked])


def editors_picks(readable):
    """Every editors' pick of a readable post, as {query string: [(post id, description), ...]}
    in the editors' order: a few dozen rows, read once per content change instead of once per
    search. Search shows them without fetching the posts, so only readable ones are kept."""
    picks = {}
    for query_string, page_id, description in (
        SearchPromotion.objects.filter(page__in=readable.values("pk"))
        .values_list("query__query_string", "page_id", "description")
        .order_by("sort_order", "pk")
    ):
        picks.setdefault(query_string, []).append((page_id, description))
    return picks


def ranking_name(query, topic, first):
    """Searches that differ only in case rank alike and share what is remembered."""
    return f"search:{normalise_query_string(query.text)}:{topic.pk if topic else ''}:{first}"


def rank_page(query, topic, readable, first):
    return topics_and_page(
        matching(readable, query.as_search_query()), topic, first, first + RESULTS_PER_PAGE
    )


def ranked_search(query, topic, readable, first, rank=rank_page):
    """Topic counts, the number of matches and the ranked ids of one page of results, shared
    by every process until the content changes (ranking a broad word reads thousands of index
    rows). A post that expires meanwhile is dropped: the answer lives no longer than that."""
    return remember(ranking_name(query, topic, first), lambda: rank(query, topic, readable, first))


def landing_choices(readable):
    """The six topics with the most readable posts (with their counts) and the ids of the five
    newest readable posts."""
    popular = (
        Topic.objects.filter(post_links__page__in=readable.values("pk"))
        .annotate(post_count=Count("post_links__page", distinct=True))
        .order_by("-post_count", "name")[:6]
    )
    return list(popular), list(readable.newest_first().values_list("pk", flat=True)[:5])


def landing_context(request, readable):
    """What an empty or fruitless search offers instead: topics to browse, the newest posts.
    The same for every search, so chosen once per content change (or expiry), and the posts
    shown from their remembered rows."""
    popular, recent = remember("search-landing", lambda: landing_choices(readable))
    rows = rows_by_id(request, PostsToShow(readable, recent))
    return {"popular_topics": popular, "recent_posts": [rows[pk] for pk in recent if pk in rows]}


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
        topic = Topic.by_slug(topic_slug) if SLUG.match(topic_slug) else None
        if topic is None:
            raise Http404("No such topic")

    # Built only if something is not remembered: readable() costs a cache lookup and a query
    # set of its own, a third of what a remembered search costs otherwise.
    readable = SimpleLazyObject(BlogPage.objects.readable)
    context = {
        "search_query": query.text,
        "active_topic": topic,
        "max_query_length": MAX_QUERY_LENGTH,
    }
    if not query:
        context.update(landing_context(request, readable))
        return TemplateResponse(request, "search/search.html", context)

    query_string = count_hit(query.text)

    # The page asked for is ranked with the counts; an odd or too-high number falls back to
    # what the paginator picks, ranked apart.
    page_number = request.GET.get("page", "1")
    wanted = int(page_number) if re.fullmatch(r"[1-9][0-9]{0,5}", page_number) else 1
    first = (wanted - 1) * RESULTS_PER_PAGE
    topics, matched, ranked_page = ranked_search(query, topic, readable, first)
    count = matched  # None where the search server ranks (OpenSearch): RankedResults counts
    if topic is not None and matched is not None:
        count = next((t.post_count for t in topics if t.pk == topic.pk), 0)

    def find():
        in_topic = readable if topic is None else readable.filter(topic_links__topic=topic)
        return matching(in_topic, query.as_search_query())

    results = RankedResults(find, count, ranked_page)
    paginator = Paginator(results, RESULTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))

    # Editors' picks for this query, on the first page; their rows and the page's come from
    # the cache, and only the title and excerpt are marked for this query.
    picked = []
    if wanted == 1 and page.number == 1:
        all_picks = remember("editors-picks", lambda: editors_picks(readable))
        picked = all_picks.get(query_string, [])
    shown = PostsToShow(readable, list(dict.fromkeys([*page, *(pk for pk, _ in picked)])))
    rows = rows_by_id(request, shown)
    pattern = match_pattern(query.terms)
    ranked_rows = [(pk, rows[pk]) for pk in page if pk in rows]
    texts = texts_by_id(
        request,
        shown,
        [pk for pk, row in ranked_rows if not shows_summary(row["summary"], pattern)],
    )
    context.update(
        {
            "results": page,
            "page_range": page.paginator.get_elided_page_range(page.number),
            "hits": [
                {
                    "row": row,
                    "title": highlight(row["title"], pattern),
                    "excerpt": excerpt(row["summary"], texts.get(pk), pattern),
                }
                for pk, row in ranked_rows
            ],
            "topics": topics,
            "picks": [
                {"row": rows[pk], "description": description}
                for pk, description in picked
                if pk in rows
            ],
        }
    )
    if not page.paginator.count:
        context.update(landing_context(request, readable))
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
