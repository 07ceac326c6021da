"""A GIN index on the tsvector that searches match against (PostgreSQL only).

modelsearch matches `title || body @@ query` but indexes title and body apart, so PostgreSQL
could not use either index and read every entry of the model to find a rare word.
"""

from django.db import migrations

INDEX = "cedana_indexentry_title_body_gin"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON wagtailsearch_indexentry "
            "USING gin ((title || body))"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("search", "0001_text_search_config")]

    operations = [migrations.RunPython(forwards, backwards)]
