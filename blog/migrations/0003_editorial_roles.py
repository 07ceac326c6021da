"""Editors and Publishers groups and the "Editorial review" workflow (see blog/editorial/roles.py)."""

from django.db import migrations

from blog.editorial.roles import attach_roles_to_blog, ensure_roles


def create_roles(apps, schema_editor):
    ensure_roles(apps)
    # A database that already has a blog gets it wired now; a new blog index is wired by the
    # post_save handler in blog/signals.py when it is created.
    for page_id in apps.get_model("blog", "BlogIndexPage").objects.values_list("pk", flat=True):
        attach_roles_to_blog(apps, page_id)


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0002_scheduler_heartbeat"),
        ("home", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("wagtailcore", "0098_apitoken"),
        ("wagtailadmin", "0001_create_admin_access_permissions"),
        ("wagtailimages", "0027_image_description"),
    ]

    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
