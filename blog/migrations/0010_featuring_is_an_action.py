"""Featuring is one action on a post (blog/editorial/featuring.py): the blog's "Featured post"
pin goes.

A pinned post becomes featured, featured last, so readers keep seeing what they saw."""

from django.db import migrations, models
from django.utils import timezone


def pins_become_featured_posts(apps, schema_editor):
    BlogIndexPage = apps.get_model("blog", "BlogIndexPage")
    BlogPage = apps.get_model("blog", "BlogPage")
    now = timezone.now()
    for pinned_id in BlogIndexPage.objects.exclude(featured_post=None).values_list(
        "featured_post_id", flat=True
    ):
        BlogPage.objects.filter(pk=pinned_id).update(featured=True, featured_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0009_post_is_the_editors_word"),
    ]

    operations = [
        migrations.AddField(
            model_name="blogpage",
            name="featured_at",
            field=models.DateTimeField(
                blank=True, editable=False, help_text="When the post was last featured.", null=True
            ),
        ),
        migrations.AlterField(
            model_name="blogpage",
            name="featured",
            field=models.BooleanField(
                default=False,
                help_text="Shown in the featured slot at the top of the blog when it is the "
                "featured post readers can see that was featured last.",
            ),
        ),
        migrations.RunPython(pins_become_featured_posts, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="blogindexpage",
            name="featured_post",
        ),
    ]
