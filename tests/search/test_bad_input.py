"""Odd and hostile input: every one gets a readable page on both databases, for no more work
than an ordinary search (how fast that work is, the benchmark measures)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import publish_post

from .helpers import page_text, soup

pytestmark = pytest.mark.django_db

ODD_QUERIES = [
    "",
    "   ",
    "tab\there",
    "ünïcödé Grüße 東京 ✓",
    "🔥🚀 gpu 🔥",
    "nul\x00byte",
    "\x00",
    '"unbalanced quote',
    'one "two',
    '"',
    '""',
    "-word",
    "gpu -word",
    "-",
    "|",
    "gpu | restore",
    "&",
    "gpu & restore",
    "!",
    "!gpu",
    ":*",
    "gpu:*",
    "(",
    "(gpu",
    "gpu)",
    "\\",
    "gpu\\",
    "\\'",
    "a\\b\\c",
    "'; DROP TABLE wagtailcore_page; --",
    "1' OR '1'='1",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "NEAR(gpu restore)",
    "gpu AND OR NOT",
    "title:gpu",
    "%",
    "_",
    "a" * 200,
    "restore " * 20,
    ".",
    "99.9%",
]


@pytest.fixture
def searchable(client, blog, author):
    publish_post(blog, "GPU restore notes", authors=[author])
    # The first request of a run builds middleware and compiles templates; count the rest.
    client.get("/search/", {"q": "warm up"})


def queries_for(client, path, params):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, params)
    return response, [query["sql"] for query in captured.captured_queries]


@pytest.fixture
def ordinary_cost(client, searchable):
    """The most queries an ordinary search costs, on each address: one that finds the post
    and one that finds nothing."""
    return {
        path: max(len(queries_for(client, path, {"q": q})[1]) for q in ("gpu", "nothing here"))
        for path in ("/search/", "/search/suggest/")
    }


def fetch(client, path, params, ordinary_cost):
    """The response, after checking an odd query cost no more queries than an ordinary one:
    nothing in it multiplies the work (a query per word, per character)."""
    response, queries = queries_for(client, path, params)
    assert len(queries) <= ordinary_cost[path], queries
    return response


@pytest.mark.parametrize("q", ODD_QUERIES)
def test_odd_queries_get_a_page_with_the_query_shown_escaped(client, ordinary_cost, q):
    response = fetch(client, "/search/", {"q": q}, ordinary_cost)
    assert response.status_code == 200
    field = soup(response).select_one("#search-page-q")
    shown = " ".join(q.replace("\x00", " ").split())
    assert field["value"] == shown
    assert "<script>alert(1)" not in response.content.decode()


@pytest.mark.parametrize("q", ODD_QUERIES)
def test_odd_queries_get_json_suggestions(client, ordinary_cost, q):
    response = fetch(client, "/search/suggest/", {"q": q}, ordinary_cost)
    assert response.status_code == 200
    assert isinstance(response.json()["results"], list)


def test_the_noisy_query_still_finds_the_post(client, searchable):
    for q in ("gpu -restore", "(gpu)", "gpu:*", "gpu\\", '"gpu restore'):
        response = client.get("/search/", {"q": q})
        assert "GPU restore notes" in page_text(response), q


@pytest.mark.parametrize("q", ["x" * 201, "gpu " * 2500, "\\" * 10_000])
def test_an_over_long_query_is_refused_with_a_readable_message(client, searchable, q):
    response, queries = queries_for(client, "/search/", {"q": q})
    assert response.status_code == 400
    assert "at most 200 characters" in page_text(response)
    suggestions, suggest_queries = queries_for(client, "/search/suggest/", {"q": q})
    assert suggestions.status_code == 400
    # Refused before any search runs: neither the index nor the posts were asked.
    for sql in queries + suggest_queries:
        assert "modelsearch_" not in sql, sql
        assert "blog_blogpage" not in sql, sql


@pytest.mark.parametrize("page", ["0", "-1", "abc", "999999", "1.5", "\x00", "9" * 50])
def test_odd_page_numbers_give_a_valid_page(client, searchable, page):
    response = client.get("/search/", {"q": "gpu", "page": page})
    assert response.status_code == 200
    assert "GPU restore notes" in page_text(response)


@pytest.mark.parametrize("topic", ["no-such-topic", "\x00", "../etc", "a" * 500, "<b>"])
def test_an_unknown_topic_is_a_404(client, searchable, topic):
    assert client.get("/search/", {"q": "gpu", "topic": topic}).status_code == 404


def test_repeated_parameters_use_the_last_value(client, searchable):
    response = client.get("/search/?q=zzz&q=gpu&page=1&page=2")
    assert response.status_code == 200
    assert "GPU restore notes" in page_text(response)
