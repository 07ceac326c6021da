"""Counting a search for the "Popular searches" report in as few round trips as possible.

Wagtail's `Query.get(text).add_hit()` takes three (find or create the query, find or create
today's row, update it). An upsert does the same work: one statement on PostgreSQL, two on
SQLite (which has no INSERT inside WITH).
"""

from django.db import connection
from django.utils import timezone
from modelsearch.utils import normalise_query_string
from wagtail.contrib.search_promotions.models import Query, QueryDailyHits


def count_hit(text):
    query_string = normalise_query_string(text)
    today = timezone.now().date()  # the date Query.add_hit() would use
    queries, hits = Query._meta.db_table, QueryDailyHits._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"""
                WITH stored AS (
                    INSERT INTO {queries} (query_string) VALUES (%s)
                    ON CONFLICT (query_string) DO UPDATE SET query_string = EXCLUDED.query_string
                    RETURNING id
                )
                INSERT INTO {hits} (query_id, date, hits) SELECT id, %s, 1 FROM stored
                ON CONFLICT (query_id, date) DO UPDATE SET hits = {hits}.hits + 1
                """,  # noqa: S608 - table names come from the models, values are parameters
                [query_string, today],
            )
        else:
            cursor.execute(
                f"INSERT INTO {queries} (query_string) VALUES (%s) "  # noqa: S608 - as above
                "ON CONFLICT (query_string) DO NOTHING",
                [query_string],
            )
            # "WHERE true" tells SQLite's parser the ON CONFLICT belongs to the INSERT.
            cursor.execute(
                f"INSERT INTO {hits} (query_id, date, hits) "  # noqa: S608 - as above
                f"SELECT id, %s, 1 FROM {queries} WHERE query_string = %s AND true "
                f"ON CONFLICT (query_id, date) DO UPDATE SET hits = hits + 1",
                [today, query_string],
            )
    return query_string
