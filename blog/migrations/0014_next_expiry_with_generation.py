from django.db import migrations, models
from django.db.models import Min
from django.utils import timezone


def record_next_expiry(apps, schema_editor):
    """The generation row as a bump would leave it: the earliest expiry of a page still shown
    (blog.visibility.next_expiry, written over this migration's models). Until the next bump,
    what is remembered keeps to it."""
    Page = apps.get_model("wagtailcore", "Page")
    ContentGeneration = apps.get_model("blog", "ContentGeneration")
    shown = Page.objects.filter(live=True, expire_at__gt=timezone.now())
    ContentGeneration.objects.filter(pk=1).update(
        next_expiry=shown.aggregate(Min("expire_at"))["expire_at__min"]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0013_imports_redirect_on_go_live_and_runs"),
    ]

    operations = [
        migrations.AddField(
            model_name="contentgeneration",
            name="next_expiry",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(record_next_expiry, migrations.RunPython.noop),
    ]
