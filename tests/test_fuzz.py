"""Whatever a visitor puts in an address (query values, topic slugs, odd paths) gets a page or a
readable 4xx, never a 5xx, and for no more work than an ordinary page (how fast, the benchmark
measures)."""

import os
from urllib.parse import quote, quote_from_bytes

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.factories import publish_post

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    # No clock: on a shared machine a 50 ms request took over a second from contention alone.
    # The work is bounded by a query count in fetch() instead.
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def encoded(value):
    """A value as it would appear in a URL; lone surrogates become the invalid UTF-8 a hostile
    client can send."""
    if isinstance(value, bytes):
        return quote_from_bytes(value, safe="")
    return quote(value, safe="", errors="surrogatepass")


def huge(alphabet):
    return st.builds(lambda char, count: char * count, alphabet, st.integers(1_000, 60_000))


# Any text (control characters and lone surrogates included), raw bytes, and very long values.
hostile = st.one_of(
    st.text(),
    st.text(st.characters(codec=None, categories=("Cc", "Cs", "Zs", "P", "S"))),
    st.binary(),
    st.from_regex(r"-?[0-9]{1,400}(\.[0-9]+)?(e[0-9]+)?", fullmatch=True),
    huge(st.sampled_from(["9", "a", "%", "\x00", "é", "-", "'"])),
)


@pytest.fixture
def site(blog, author, topic, client):
    for n in range(2):
        publish_post(blog, f"Fuzzed post {n}", authors=[author], topics=[topic])
    addresses = {"blog": blog.url, "topic": f"{blog.url}topic/{topic.slug}/"}
    # The first view of a card draws its image renditions; readers after that don't wait.
    for address in addresses.values():
        client.get(address)
    ordinary = [
        *addresses.values(),
        f"{blog.url}?page=2",
        f"{blog.url}topic/no-such-topic/",
        f"{blog.url}no-such-post/",
        "/search/?q=fuzzed",
        "/search/?q=never+seen",
        "/search/?q=never+seen&page=2",
    ]
    addresses["queries"] = max(len(queries_for(client, address)[1]) for address in ordinary)
    return addresses


def queries_for(client, address):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(address)
    return response, captured.captured_queries


def fetch(client, address, site):
    """Any address: an answer below 500, for no more queries than the costliest ordinary page
    (nothing in the address multiplies the work: no query per character, per page number)."""
    response, queries = queries_for(client, address)
    assert response.status_code < 500, (address[:300], response.status_code)
    assert len(queries) <= site["queries"], (address[:300], [q["sql"][:200] for q in queries])
    return response


@pytest.mark.django_db
@FUZZ
@given(value=hostile, listing=st.sampled_from(["blog", "topic"]))
@example(value="\x00", listing="blog")
@example(value="1e309", listing="blog")
@example(value="-1", listing="topic")
@example(value="99999", listing="blog")
@example(value="9" * 5000, listing="topic")
def test_any_page_number_on_the_blog_and_topic_listings(client, site, value, listing):
    fetch(client, f"{site[listing]}?page={encoded(value)}", site)


@pytest.mark.django_db
@FUZZ
@given(slug=hostile.filter(lambda value: len(value) > 0))
@example(slug="' OR 1=1--")
@example(slug="../../etc/passwd")
@example(slug="\u202egpu")
@example(slug="\x00")
def test_any_topic_in_the_path(client, site, slug):
    response = fetch(client, f"{site['blog']}topic/{encoded(slug)}/", site)
    assert response.status_code in {200, 301, 302, 400, 404}


@pytest.mark.django_db
@FUZZ
@given(query=hostile, page=hostile)
@example(query="it's", page="1")
@example(query='"unbalanced', page="")
@example(query="NOT", page="")
@example(query="-Data OR", page="")
@example(query="\\", page="")
@example(query="ice & fire | !:*(", page="2")
@example(query="foo\x00bar", page="")
@example(query="a" * 50_000, page="")
def test_any_search_query_and_page(client, site, query, page):
    fetch(client, f"/search/?q={encoded(query)}&page={encoded(page)}", site)


segment = st.one_of(st.text(max_size=40), st.binary(max_size=40), st.sampled_from(["..", ".", ""]))


@pytest.mark.django_db
@FUZZ
@given(segments=st.lists(segment, min_size=1, max_size=8))
@example(segments=["", "", "etc"])
@example(segments=["topic", ";", ".."])
@example(segments=["x" * 5000])
def test_any_path_under_the_blog(client, site, segments):
    fetch(client, site["blog"] + "/".join(encoded(part) for part in segments), site)
