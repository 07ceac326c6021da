"""Every use of a Wagtail, Django or modelsearch internal in the apps, in one place.

Each one works around something the library does not offer in public; each has a test in
tests/test_library_adapters.py that fails, saying what changed, when an upgrade moves it.
Callers import these functions, never the internals.
"""

import copy

from django.core.cache.backends.filebased import FileBasedCache
from django.db.models import CharField, IntegerField
from django.db.models.expressions import Col
from django.db.models.functions import Cast
from django.http.request import split_domain_port
from modelsearch.utils import get_descendants_content_types_pks

# Site.find_for_request keeps the site it found as `request._wagtail_site` (its docstring
# says so) and looks it up with one query per request otherwise; Wagtail has no public way to
# hand it a site found elsewhere (a cached lookup was proposed in wagtail/wagtail#4142 and
# closed).
# home/middleware.py finds it from the content cache and leaves it there for Wagtail.
SITE_ON_REQUEST = "_wagtail_site"


def site_known(request):
    """Whether Wagtail has already found (or been given) the site of this request."""
    return hasattr(request, SITE_ON_REQUEST)


def give_site(request, site):
    """The site Site.find_for_request will return for this request, without a query."""
    setattr(request, SITE_ON_REQUEST, site)


def request_hostname(request):
    """The host name Wagtail matches sites on: the raw Host header, port removed, before
    ALLOWED_HOSTS is checked (Site._find_for_request reads `request._get_raw_host()`)."""
    return split_domain_port(request._get_raw_host())[0]


def matching_site(sites, hostname, port):
    """The site wagtail.models.sites.get_site_for_hostname finds, chosen from `sites` instead
    of a query: the one of that name and port, else the default site if it has that name,
    else the only site of that name, else the default site (None if there is none)."""
    named = [site for site in sites if site.hostname == hostname]
    exact = [site for site in named if str(site.port) == port]
    if exact:
        return exact[0]
    default = next((site for site in sites if site.is_default_site), None)
    if default in named or len(named) != 1:
        return default
    return named[0]


def settings_for_request(site_settings, request):
    """A copy of remembered site settings that knows this request, as
    BaseSiteSetting.for_request makes them: it sets the private `_request` that the settings'
    page URLs use (and that pickling leaves out)."""
    site_settings = copy.copy(site_settings)
    site_settings._request = request
    return site_settings


# A page found below a parent the router already holds: treebeard's MP_Node.get_parent() keeps
# the parent it fetched as `_cached_parent_obj` and returns it on the next call, and Wagtail's
# own Page.route hands it to each child the same way (wagtail/models/pages.py); neither offers
# a public setter. Given here, the post's breadcrumbs, blog and related posts need no query for
# the parent.
PARENT_ON_PAGE = "_cached_parent_obj"


def give_parent(page, parent):
    """The page get_parent() will return for `page`, without a query."""
    setattr(page, PARENT_ON_PAGE, parent)


# Asked for a parent table's key, the ORM answers with the child table's link to it
# (blog_blogpage.page_ptr_id for the page table's id), and has no public expression naming a
# column of a given table. SQLite cannot tell the two are equal: ordered by the link column, it
# sorts every post instead of walking Wagtail's first_published_at index, which holds the page
# table's id (16 ms a listing at 10,000 posts).
def table_column(model, field_name):
    """The column of `model`'s own table, for a query that already joins that table."""
    return Col(model._meta.db_table, model._meta.get_field(field_name))


# The demo generator (blog/demo/generate.py) writes thousands of pages in batches, as treebeard's
# add_child and Django's save would leave them but without a query per page. treebeard has no
# public way to compute a child's path (MP_Node._get_path, _str2int), and Django's bulk_create
# refuses a model with a parent table, so each table is written through the manager's _insert,
# which bulk_create itself uses, into the columns the model's own table holds
# (Options.local_concrete_fields, which Django's _meta API leaves undocumented).
def child_path(parent, step):
    """The tree path of `parent`'s child number `step` (1 for the first), as add_child gives it."""
    return parent._get_path(parent.path, parent.depth + 1, step)


def child_step(path, steplen):
    """The number of the child a tree path ends with: child_path's inverse."""
    from wagtail.models import Page

    return Page._str2int(path[-steplen:])


def insert_rows(model, objs, *, new_keys=False):
    """One INSERT of many rows into every column of `model`'s own table (not its parents').
    With `new_keys`, the database picks each row's primary key, and they are returned in
    order; without, the objects carry their keys (a child table's link to its parent row)."""
    fields = [f for f in model._meta.local_concrete_fields if not (new_keys and f.primary_key)]
    returning = [model._meta.pk] if new_keys else None
    rows = model._base_manager._insert(
        objs, fields=fields, returning_fields=returning, using="default"
    )
    return [pk for (pk,) in rows] if new_keys else None


# modelsearch's SQLite backend ranks each match with a subquery that runs the FTS match again
# (wagtail/django-modelsearch#85: 25 s for a word in most posts at 10,000 posts), and offers no
# public way to score the matches in one pass. Built here from its query compiler's parts: the
# same MATCH and the same bm25 rank, over the FTS table once.
def sqlite_scored_matches(results):
    """Every post modelsearch's SQLite `results` match, as rows of post_id and score (higher
    is better, as PostgreSQL's)."""
    # Only importable where SQLite is the database: the FTS model exists only there.
    from modelsearch.backends.database.sqlite.query import MatchExpression, normalize
    from modelsearch.backends.database.sqlite.sqlite import SQLiteFTSIndexEntry

    compiler = results.query_compiler
    query = compiler.build_search_query(normalize(compiler.query))
    # bm25 is lower for better matches.
    score = compiler._build_rank_expression(compiler.get_search_vectors(), None) * -1
    candidates = compiler.queryset.order_by().values(text_pk=Cast("pk", CharField()))
    return (
        SQLiteFTSIndexEntry.objects.filter(
            MatchExpression(compiler.FTS_TABLE_FIELDS, query),
            index_entry__content_type__in=get_descendants_content_types_pks(
                compiler.queryset.model
            ),
            index_entry__object_id__in=candidates,
        )
        .annotate(score=score, post_id=Cast("index_entry__object_id", IntegerField()))
        .values("post_id", "score")
    )


# A search's topic counts, total and page come from one statement that matches the query once
# (search/views.py): SQL of our own around the matches modelsearch's query selects, as a
# materialised common table expression, which the ORM cannot write. Django has no public way
# to hand a queryset's SQL to a cursor; Query.sql_with_params is what its compiler offers.
def queryset_sql(queryset):
    """The SQL and parameters a queryset would run, for a cursor."""
    return queryset.query.sql_with_params()


# Django's file cache lists its whole folder before every write, to learn whether it holds
# more than MAX_ENTRIES (FileBasedCache._cull). With a few thousand entries that costs
# milliseconds a write, and the first page after a change writes dozens (cards, remembered
# values, the page): in `make bench` a cold blog index spent 400 ms of CPU instead of 90.
# diskcache's DjangoCache would need no override, but its last release (5.6.3) carries
# CVE-2025-69872 / GHSA-w8v5-vhqr-4h9v (pickled values) with no fixed version: `make audit`
# would flag it.
class FileCache(FileBasedCache):
    """Django's file cache (the shared cache on one machine), counting its entries once every
    MAX_ENTRIES / 100 writes in each thread: the folder may pass MAX_ENTRIES by that many
    writes a thread before the next count culls it. Counting by time instead (once a second)
    made the first page after a quiet spell always pay a count: ~30 ms at 20,000 entries."""

    def __init__(self, dir, params):
        super().__init__(dir, params)
        self.count_every_writes = max(1, self._max_entries // 100)
        self.writes_since_count = 0

    def _cull(self):
        self.writes_since_count += 1
        if self.writes_since_count < self.count_every_writes:
            return
        self.writes_since_count = 0
        super()._cull()
