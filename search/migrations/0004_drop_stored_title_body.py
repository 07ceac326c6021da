"""Back to matching modelsearch's own `title || body` through 0002's expression index (PostgreSQL
only): the stored column of 0003 made no search faster. Timed in one process at 1,000 and
10,000 posts with every cache off, a results page took the same CPU either way, and its wall
time was 7-16 % shorter without the column for a word in most posts and 38 % shorter for a
rare one; the backend that read it is gone with it."""

from django.db import migrations

COLUMN = "cedana_title_body"
STORED_INDEX = "cedana_indexentry_title_body_stored_gin"
EXPRESSION_INDEX = "cedana_indexentry_title_body_gin"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {EXPRESSION_INDEX} ON wagtailsearch_indexentry "
            "USING gin ((title || body))"
        )
        # Its index goes with it.
        schema_editor.execute(f"ALTER TABLE wagtailsearch_indexentry DROP COLUMN IF EXISTS {COLUMN}")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"ALTER TABLE wagtailsearch_indexentry ADD COLUMN IF NOT EXISTS {COLUMN} tsvector "
            "GENERATED ALWAYS AS (title || body) STORED"
        )
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {STORED_INDEX} ON wagtailsearch_indexentry "
            f"USING gin ({COLUMN})"
        )
        schema_editor.execute(f"DROP INDEX IF EXISTS {EXPRESSION_INDEX}")


class Migration(migrations.Migration):
    dependencies = [("search", "0003_stored_title_body")]

    operations = [migrations.RunPython(forwards, backwards)]
