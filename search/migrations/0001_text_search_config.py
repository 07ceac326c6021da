"""Accent- and case-insensitive, stemmed full-text search on both databases.

PostgreSQL: a text search configuration `cedana_english` (english stemming, plus unaccent when
the extension can be created; settings point SEARCH_CONFIG at it). SQLite: the FTS5 table that
modelsearch creates is rebuilt with the porter stemmer (unicode61 already folds accents).
"""

from django.db import migrations

PG_CONFIG = "cedana_english"
FTS_TABLE = "wagtailsearch_indexentry_fts"
ENTRY_TABLE = "wagtailsearch_indexentry"


def rebuild_fts(cursor, tokenize):
    cursor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")
    cursor.execute(
        f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(autocomplete, body, title, tokenize='{tokenize}')"
    )
    # The insert/update/delete triggers on the entry table name the FTS table, so they survive.
    cursor.execute(
        f"INSERT INTO {FTS_TABLE}(rowid, title, body, autocomplete) "  # noqa: S608
        f"SELECT id, title, body, autocomplete FROM {ENTRY_TABLE}"
    )


def unaccent_available(cursor):
    try:
        cursor.execute("SAVEPOINT cedana_unaccent")
        cursor.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
        cursor.execute("RELEASE SAVEPOINT cedana_unaccent")
        return True
    except Exception:  # noqa: BLE001 - no CREATE rights or no contrib package: stay accent-sensitive
        cursor.execute("ROLLBACK TO SAVEPOINT cedana_unaccent")
        return False


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {PG_CONFIG}")
            cursor.execute(f"CREATE TEXT SEARCH CONFIGURATION {PG_CONFIG} (COPY = english)")
            if unaccent_available(cursor):
                cursor.execute(
                    f"ALTER TEXT SEARCH CONFIGURATION {PG_CONFIG} "
                    "ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem"
                )
        elif connection.vendor == "sqlite":
            rebuild_fts(cursor, "porter unicode61 remove_diacritics 2")


def backwards(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {PG_CONFIG}")
        elif connection.vendor == "sqlite":
            rebuild_fts(cursor, "unicode61")


class Migration(migrations.Migration):
    dependencies = [("wagtailsearch", "0010_add_text_fields")]

    operations = [migrations.RunPython(forwards, backwards)]
