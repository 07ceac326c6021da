"""Wagtail's database search backend, matching PostgreSQL searches against the stored
`title || body` column (search/migrations/0003, read through home/library_adapters.py) instead
of concatenating it per row.

Everything else (indexing, ranking, autocomplete, SQLite, MySQL) is modelsearch's own.
"""

from functools import cache

from django.db import connection
from modelsearch.backends import database
from modelsearch.query import Fuzzy, MatchAll, Not

from home.library_adapters import StoredTitleAndBody, ordered_and_scored, rank_expression


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
            rank = rank_expression(self, vectors, config)
            queryset = self.queryset.annotate(_vector_=StoredTitleAndBody()).filter(
                _vector_=search_query
            )
            return ordered_and_scored(self, queryset, rank, start, stop, score_field)

    class StoredVectorSearchBackend(PostgresSearchBackend):
        query_compiler_class = StoredVectorQueryCompiler

    return StoredVectorSearchBackend


def SearchBackend(params):  # noqa: N802 - the name Wagtail looks for in a backend module
    if connection.vendor != "postgresql":
        return database.SearchBackend(params)
    return stored_vector_backend_class()(params)
