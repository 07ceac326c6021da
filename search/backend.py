"""Wagtail's database search backend, matching PostgreSQL searches against the stored
`title || body` column (search/migrations/0003) instead of concatenating it per row.

Everything else (indexing, ranking, autocomplete, SQLite, MySQL) is modelsearch's own.
"""

from functools import cache

from django.contrib.postgres.search import SearchVectorField
from django.db import connection
from django.db.models import F, Func
from modelsearch.backends import database
from modelsearch.query import Fuzzy, MatchAll, Not

COLUMN = "cedana_title_body"


class StoredTitleAndBody(Func):
    """The index entry's `title || body`, read from its stored column. Wraps the entry's title
    so the ORM joins the index table as it does for ranking, then names the sibling column."""

    output_field = SearchVectorField()

    def __init__(self):
        super().__init__(F("index_entries__title"))

    def as_sql(self, compiler, connection, **extra_context):
        title_sql, params = compiler.compile(self.source_expressions[0])
        table, column = title_sql.rsplit(".", 1)
        if column != '"title"':  # pragma: no cover - a future ORM quoting differently
            raise ValueError(f"Unexpected index column {title_sql}")
        return f'{table}."{COLUMN}"', params


@cache
def stored_vector_backend_class():
    """Built on first use: modelsearch's PostgreSQL module is only imported on PostgreSQL."""
    from modelsearch.backends.database.postgres.postgres import (
        PostgresSearchBackend,
        PostgresSearchQueryCompiler,
    )

    class StoredVectorQueryCompiler(PostgresSearchQueryCompiler):
        def search(self, config, start, stop, score_field=None, backend=None):
            # Searches on chosen fields, fuzzy ones and match-alls are modelsearch's own.
            plain = self.fields is None and not isinstance(self.query, (MatchAll, Not, Fuzzy))
            if not plain:
                return super().search(config, start, stop, score_field, backend)
            search_query = self.build_tsquery(self.query, config=config)
            vectors = self.get_search_vectors(search_query)
            rank_expression = self._build_rank_expression(vectors, config)
            queryset = self.queryset.annotate(_vector_=StoredTitleAndBody()).filter(
                _vector_=search_query
            )
            return self._apply_ordering_and_scoring(
                queryset, rank_expression, start, stop, score_field
            )

    class StoredVectorSearchBackend(PostgresSearchBackend):
        query_compiler_class = StoredVectorQueryCompiler

    return StoredVectorSearchBackend


def SearchBackend(params):  # noqa: N802 - the name Wagtail looks for in a backend module
    if connection.vendor != "postgresql":
        return database.SearchBackend(params)
    return stored_vector_backend_class()(params)
