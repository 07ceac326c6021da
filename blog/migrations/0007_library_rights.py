"""Editors upload and choose images and documents and edit only their own; Publishers manage the
whole library (see blog/editorial/roles.py). Wagtail's default Editors group could replace or delete any
image or document, live posts' heroes among them."""

from django.db import migrations

from blog.editorial.roles import ensure_roles


def apply_library_rights(apps, schema_editor):
    ensure_roles(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0006_featured_posts_index"),
        ("wagtailimages", "0027_image_description"),
        ("wagtaildocs", "0014_alter_document_file_size"),
    ]

    operations = [migrations.RunPython(apply_library_rights, migrations.RunPython.noop)]
