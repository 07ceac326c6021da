"""Editors may add a topic while writing a post, from the topic chooser (blog/editorial/roles.py)."""

from django.db import migrations

from blog.editorial.roles import ensure_roles


def let_editors_add_topics(apps, schema_editor):
    ensure_roles(apps)


class Migration(migrations.Migration):
    dependencies = [("blog", "0016_blog_default_author_and_missing_pictures")]

    operations = [migrations.RunPython(let_editors_add_topics, migrations.RunPython.noop)]
