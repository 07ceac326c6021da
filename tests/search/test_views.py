"""The search page as a reader sees it, and what editors get from it."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.contrib.search_promotions.models import Query, SearchPromotion

from tests.factories import draft_post, make_topic, publish_post, publish_posts

from .helpers import body, excerpts, facet_counts, page_text, result_titles, soup

pytestmark = pytest.mark.django_db


def test_a_result_shows_title_topic_author_date_and_a_marked_excerpt(client, blog, author, topic):
    publish_post(
        blog,
        "Checkpoint timing",
        summary="How often to checkpoint a long run.",
        published_at=timezone.now() - timedelta(days=2),
        authors=[author],
        topics=[topic],
    )
    response = client.get("/search/", {"q": "checkpoint"})
    result = soup(response).select_one(".search-result")
    text = " ".join(result.get_text(" ").split())
    assert result.select_one(".search-result__title a").get_text() == "Checkpoint timing"
    assert "GPU reliability" in text
    assert "Ada Lovelace" in text
    assert result.select_one("time")["datetime"]
    assert [m.get_text() for m in result.select(".search-result__excerpt mark")] == ["checkpoint"]
    assert "1 result for “checkpoint”" in page_text(response)


def test_the_excerpt_comes_from_the_body_around_the_match(client, blog, author):
    filler = " ".join(["padding"] * 80)
    publish_post(
        blog,
        "Long post",
        summary="A summary without the word.",
        body=body(f"{filler} the watchdog fired {filler}"),
        authors=[author],
    )
    [excerpt] = excerpts(client.get("/search/", {"q": "watchdog"}))
    assert "<mark>watchdog</mark>" in excerpt
    assert excerpt.startswith("… ") and excerpt.endswith(" …")
    assert len(excerpt) < 400


def test_html_in_a_post_is_shown_escaped_and_only_matches_are_marked(client, blog, author):
    publish_post(
        blog,
        "Escaping",
        summary="Nothing to see.",
        body=body("Never paste &lt;script&gt;alert(1)&lt;/script&gt; into the console."),
        authors=[author],
    )
    response = client.get("/search/", {"q": "console"})
    [excerpt] = excerpts(response)
    assert "<script>" not in response.content.decode().split('class="search-results"')[1]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; into the <mark>console</mark>." in excerpt


def test_a_title_with_markup_is_escaped(client, blog, author):
    publish_post(blog, "<b>Bold</b> claims", authors=[author])
    response = client.get("/search/", {"q": "bold"})
    assert "&lt;b&gt;<mark>Bold</mark>&lt;/b&gt; claims" in response.content.decode()


def test_results_are_paginated_and_pages_keep_the_query(client, blog, author, topic):
    publish_posts(blog, 23, authors=[author], topics=[topic])
    first = client.get("/search/", {"q": "post"})
    assert len(result_titles(first)) == 10
    assert "23 results" in page_text(first)
    links = [a["href"] for a in soup(first).select(".pagination a")]
    assert "?q=post&page=2" in links
    third = client.get("/search/", {"q": "post", "page": "3"})
    assert len(result_titles(third)) == 3


def test_topic_counts_cover_every_result_and_narrow_them(client, blog, author):
    gpus, notes = make_topic("GPUs"), make_topic("Notes")
    for n in range(12):
        publish_post(blog, f"Eviction story {n}", authors=[author], topics=[gpus])
    publish_post(blog, "Eviction notes", authors=[author], topics=[notes])
    publish_post(blog, "Something else", authors=[author], topics=[notes])

    response = client.get("/search/", {"q": "eviction"})
    assert facet_counts(response) == {"GPUs": 12, "Notes": 1}

    narrowed = client.get("/search/", {"q": "eviction", "topic": "notes"})
    assert result_titles(narrowed) == ["Eviction notes"]
    assert "1 result for “eviction” in Notes" in page_text(narrowed)
    assert facet_counts(narrowed) == {"GPUs": 12, "Notes": 1}


def test_an_empty_search_offers_topics_and_recent_posts(client, blog, author, topic):
    publish_post(blog, "Fresh post", authors=[author], topics=[topic])
    for q in ("", "   "):
        response = client.get("/search/", {"q": q})
        assert response.status_code == 200
        text = page_text(response)
        assert "Popular topics" in text and "GPU reliability" in text
        assert "Recent posts" in text and "Fresh post" in text
        assert not Query.objects.exists()


def test_no_results_says_so_and_offers_recent_posts(client, blog, author, topic):
    publish_post(blog, "Fresh post", authors=[author], topics=[topic])
    text = page_text(client.get("/search/", {"q": "xylophone"}))
    assert "0 results for “xylophone”" in text
    assert "Nothing matched" in text
    assert "Recent posts" in text and "Fresh post" in text


def test_search_pages_ask_robots_not_to_index_them(client, blog):
    response = client.get("/search/", {"q": "anything"})
    assert soup(response).select_one('meta[name="robots"]')["content"] == "noindex"


def test_the_blog_index_and_header_have_search_boxes(client, blog):
    page = soup(client.get("/blog/"))
    forms = page.select('form[role="search"]')
    assert len(forms) == 2
    assert all(f["action"] == "/search/" and f.select_one('input[name="q"]') for f in forms)


def test_editors_picks_come_first_when_readers_can_see_them(client, blog, author):
    pick = publish_post(blog, "Our restore guide", summary="Read this first.", authors=[author])
    hidden = draft_post(blog, "Unfinished guide", authors=[author])
    publish_post(blog, "Restore notes", authors=[author])
    query = Query.get("restore")
    SearchPromotion.objects.create(query=query, page=hidden, sort_order=0)
    SearchPromotion.objects.create(query=query, page=pick, sort_order=1, description="Start here")

    page = soup(client.get("/search/", {"q": "Restore"}))
    picks = [a.get_text() for a in page.select(".search-pick__title")]
    assert picks == ["Our restore guide"]
    assert "Start here" in page.select_one(".search-picks").get_text()
    assert "Unfinished guide" not in page.get_text()


def test_every_search_is_counted_for_the_popular_searches_report(client, blog):
    client.get("/search/", {"q": "GPU  Failures"})
    client.get("/search/", {"q": "gpu failures"})
    client.get("/search/", {"q": "x" * 200})
    assert Query.objects.get(query_string="gpu failures").hits == 2
    assert Query.objects.get(query_string="x" * 200).hits == 1


def test_suggestions_are_titles_matching_the_prefix(client, blog, author):
    post = publish_post(blog, "GPU failure budgets", authors=[author])
    publish_post(blog, "Kernel state", authors=[author])
    data = client.get("/search/suggest/", {"q": "gpu fai"}).json()
    assert data == {"results": [{"title": "GPU failure budgets", "url": post.url}]}
    assert client.get("/search/suggest/", {"q": "  "}).json() == {"results": []}


def search_queries(client, q):
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/search/", {"q": q}).status_code == 200
    return len(queries)


def test_a_search_runs_the_same_number_of_queries_for_5_or_30_posts(client, blog, author, topic):
    publish_posts(blog, 5, authors=[author], topics=[topic])
    search_queries(client, "post")  # the first search creates the query's hit rows
    few = search_queries(client, "post")
    more = make_topic("More")
    for n in range(25):
        publish_post(blog, f"Later post {n}", authors=[author], topics=[topic, more])
    many = search_queries(client, "post")
    assert few == many
    # Without the shared content cache (tests/search/test_shared_cache.py has it on, as in
    # production): readable()'s hidden branches, the hit (one upsert; SQLite needs two), the
    # topic counts, total and ranked ids (one statement), the page's posts, their bylines and
    # topics, editors' picks, and the site, its settings, the header's blog.
    assert many == (11 if connection.vendor == "sqlite" else 10)
