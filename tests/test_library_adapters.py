"""The library internals home/library_adapters.py relies on are still there and still behave as
the public API does. A failure here after an upgrade says which internal moved: fix the adapter
(or drop it, if the library now offers a public way), not its callers."""

import ast
from importlib.util import find_spec
from pathlib import Path

import pytest
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connection
from django.test import RequestFactory
from wagtail.models import Page, Site

from blog.models import BlogPage
from home.library_adapters import (
    PARENT_ON_PAGE,
    FileCache,
    child_path,
    child_step,
    give_parent,
    give_site,
    insert_rows,
    matching_site,
    queryset_sql,
    request_hostname,
    settings_for_request,
    site_known,
    sqlite_scored_matches,
    table_column,
)
from home.models import SiteSettings
from tests.factories import publish_post
from tests.search.helpers import body

pytestmark = pytest.mark.django_db


def test_wagtail_still_takes_the_site_given_to_a_request(home, django_assert_num_queries):
    site = Site.objects.get(is_default_site=True)
    request = RequestFactory().get("/")
    assert not site_known(request)
    give_site(request, site)
    with django_assert_num_queries(0):
        found = Site.find_for_request(request)
    assert found is site, (
        "Site.find_for_request no longer returns request._wagtail_site: the site the content "
        "cache found is ignored and every request queries for it (home/middleware.py)"
    )
    assert site_known(request)


def test_treebeard_still_returns_the_parent_given_to_a_page(home, django_assert_num_queries):
    page = Page.objects.get(pk=home.pk)
    stand_in = Page(title="Given parent")
    give_parent(page, stand_in)
    with django_assert_num_queries(0):
        parent = page.get_parent()
    assert parent is stand_in, (
        "MP_Node.get_parent() no longer returns page._cached_parent_obj: routing a post or a "
        "blog costs a query for its parent again (blog/models.py, home/models.py)"
    )


def test_a_fetched_parent_is_kept_where_the_adapter_puts_it(home):
    page = Page.objects.get(pk=home.pk)
    parent = page.get_parent()
    assert parent is page.get_parent()
    assert getattr(page, PARENT_ON_PAGE, None) is parent, (
        "MP_Node.get_parent() no longer keeps its parent as page._cached_parent_obj"
    )


def test_treebeard_still_numbers_children_as_the_demo_generator_does(home):
    first = home.add_child(instance=Page(title="First", slug="first"))
    second = home.add_child(instance=Page(title="Second", slug="second"))
    assert [child_path(home, 1), child_path(home, 2)] == [first.path, second.path], (
        "treebeard's MP_Node._get_path no longer gives add_child's paths: generated posts "
        "would sit at the wrong place in the tree (blog/demo/generate.py)"
    )
    assert child_step(second.path, Page.steplen) == 2


def test_djangos_insert_still_writes_rows_and_returns_their_keys(home):
    sites = [Site(hostname=f"bulk{n}.example", port=80, root_page=home) for n in range(2)]
    keys = insert_rows(Site, sites, new_keys=True)
    stored = Site.objects.filter(hostname__startswith="bulk").order_by("pk")
    assert [(site.pk, site.hostname) for site in stored] == [
        (pk, f"bulk{n}.example") for n, pk in enumerate(keys)
    ], "Manager._insert no longer writes rows and returns their keys (blog/demo/generate.py)"


def test_a_found_site_is_kept_where_the_adapter_looks(home):
    request = RequestFactory().get("/")
    Site.find_for_request(request)
    assert site_known(request), (
        "Site.find_for_request no longer keeps its site as request._wagtail_site"
    )


@pytest.mark.parametrize("with_default", [True, False], ids=["a default site", "no default"])
def test_the_adapters_site_for_any_host_is_the_one_wagtail_finds(home, with_default):
    Site.objects.filter(is_default_site=True).update(is_default_site=with_default)
    for hostname, port in [("blog.example", 80), ("blog.example", 8080), ("one.example", 80)]:
        Site.objects.create(hostname=hostname, port=port, root_page=home)
    Site.objects.create(hostname="two.example", port=81, root_page=home)
    Site.objects.create(hostname="two.example", port=82, root_page=home)
    sites = list(Site.objects.all())
    for host in ("localhost", "Blog.Example", "blog.example:8080", "one.example", "two.example"):
        for port in ("80", "81", "443", "8080"):
            request = RequestFactory().get("/", HTTP_HOST=host, SERVER_PORT=port)
            ours = matching_site(sites, request_hostname(request), request.get_port())
            wagtails = Site.find_for_request(request)
            assert ours == wagtails, (
                f"Wagtail now finds {wagtails} for {host} on port {port}, the adapter {ours}: "
                "its rules for matching a host to a site changed (home/library_adapters.py)"
            )


def test_site_settings_still_learn_their_request_as_the_adapter_teaches_them(home):
    request = RequestFactory().get("/")
    wagtails = SiteSettings.for_request(request)
    assert getattr(wagtails, "_request", None) is request, (
        "BaseSiteSetting.for_request no longer sets _request: settings_for_request must follow"
    )
    remembered = SiteSettings.for_site(Site.objects.get(is_default_site=True))
    ours = settings_for_request(remembered, request)
    assert ours._request is request
    assert not hasattr(remembered, "_request"), "the remembered settings stay request-free"
    assert "_request" not in ours.__getstate__(), "a pickled copy forgets its request"


SQLITE = "modelsearch.backends.database.sqlite.sqlite"


def method_arguments(module, cls, method):
    """The arguments of a method as written in the installed module, read without importing it
    (modelsearch's SQLite module only imports where SQLite is the database)."""
    tree = ast.parse(Path(find_spec(module).origin).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return ast.unparse(item.args)
    return None


@pytest.mark.parametrize(
    ("module", "cls", "method", "expected"),
    [
        (SQLITE, "SQLiteSearchQueryCompiler", "_build_rank_expression", "self, vectors, config"),
        (SQLITE, "SQLiteSearchQueryCompiler", "get_search_vectors", "self"),
        (SQLITE, "SQLiteSearchQueryCompiler", "build_search_query", "self, query, config=None"),
    ],
)
def test_modelsearch_still_has_the_sqlite_methods_the_adapter_calls(module, cls, method, expected):
    found = method_arguments(module, cls, method)
    assert found is not None, (
        f"modelsearch's {cls}.{method} is gone: home/library_adapters.sqlite_scored_matches "
        "calls it"
    )
    assert found == expected, f"modelsearch's {cls}.{method} now takes ({found}), not ({expected})"


@pytest.mark.skipif(connection.vendor != "sqlite", reason="modelsearch's SQLite backend only")
def test_the_one_pass_sqlite_ranking_orders_posts_as_modelsearch_does(blog, author):
    """modelsearch's own ranking (a subquery per match) on a few posts, against the adapter's
    single pass: the same posts in the same order."""
    from search.views import matching

    titles = ["Restore", "Restore restore drill", "Restore latency", "Latency", "Drill restore"]
    bodies = ["", "A restore.", "Restore it, then restore again.", "Restore once.", "Restore."]
    for title, text in zip(titles, bodies, strict=True):
        publish_post(blog, title, authors=[author], body=body(text))
    results = matching(BlogPage.objects.readable(), "restore")
    theirs = [post.pk for post in results]
    ours = sqlite_scored_matches(results).order_by("-score", "-post_id")
    assert len(theirs) == 5
    assert [row["post_id"] for row in ours] == theirs, (
        "modelsearch now ranks SQLite matches differently from the adapter's single pass "
        "(home/library_adapters.sqlite_scored_matches)"
    )


def test_the_file_cache_counts_its_entries_once_a_hundredth_of_its_limit_and_still_culls(
    tmp_path, monkeypatch
):
    """Django counts the folder in FileBasedCache._list_cache_files, from _cull, before each
    write; FileCache spaces the counts out. Fails if Django stops culling through them."""
    counts = []
    list_files = FileBasedCache._list_cache_files
    monkeypatch.setattr(
        FileBasedCache, "_list_cache_files", lambda self: counts.append(1) or list_files(self)
    )
    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 500, "CULL_FREQUENCY": 2}})
    for number in range(1_000):
        cache.set(f"entry-{number}", number)
    assert len(counts) == 200, "a thousand writes count the folder once every five writes"
    assert len(list(tmp_path.glob("*.djcache"))) <= 500 + 5, "past MAX_ENTRIES it is culled"


def test_a_table_column_orders_by_that_table_and_not_the_childs_link_to_it():
    ours = BlogPage.objects.values_list("title").order_by(table_column(Page, "id").desc())
    djangos = BlogPage.objects.values_list("title").order_by("-id")
    assert str(ours.query).endswith('ORDER BY "wagtailcore_page"."id" DESC'), (
        "Col no longer names a column of the table given: listings sort every post on SQLite "
        "(BlogPageQuerySet.newest_first)"
    )
    assert str(djangos.query).endswith('ORDER BY "blog_blogpage"."page_ptr_id" DESC'), (
        "Django orders by the parent table's key now: drop table_column and order by '-id'"
    )


def test_a_querysets_sql_run_on_a_cursor_gives_its_rows(home):
    pages = Page.objects.filter(depth__gte=1).order_by("pk").values_list("pk", "title")
    sql, params = queryset_sql(pages)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.fetchall() == list(pages), (
            "Query.sql_with_params no longer gives SQL a cursor runs: search's topic counts and "
            "page cannot be read (search/views.py)"
        )
