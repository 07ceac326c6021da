"""An import confirmed in the admin runs as a task on the queue in the database (the
"background" backend of TASKS), which the worker process takes from it: `manage.py db_worker
--backend background`, started by `make run` beside the scheduler (docs/deploy.md). The request
that confirmed it answers at once, and the run's page follows the progress the task writes on
its ImportRun.

Nothing of it lives in an app server: the upload waits with the run in the database
(ImportUpload), so restarting or deploying the app servers leaves a queued or running import
alone. If the worker stops mid-way, the run's clock stops with it and its page says so: every
post is its own transaction and running the same export again finishes the job without
duplicating anything.
"""

import secrets
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from blog.models import BlogIndexPage

from .importer import Importer
from .models import ImportRun, ImportUpload
from .sources import import_folder, opened

# A running import records its progress at least this often; silent for longer, it stopped.
PROGRESS_EVERY_SECONDS = 1
STOPPED_AFTER = timedelta(minutes=2)


def queue_import(blog, user, name, path):
    """Queue the import of the upload at `path` (a confirmed dry run) and remove the file: the
    run keeps it. Returns the run."""
    with transaction.atomic():
        run = ImportRun.objects.create(blog=blog, user=user, export_name=name[:255])
        ImportUpload.objects.create(run=run, suffix=path.suffix.lower(), data=path.read_bytes())
        # In the run's transaction: the worker never sees a task without its run.
        import_upload.enqueue(run.pk)
    path.unlink(missing_ok=True)
    return run


@task(backend="background")
def import_upload(run_id):
    run = ImportRun.objects.select_related("user", "upload").get(pk=run_id)
    blog = BlogIndexPage.objects.get(pk=run.blog_id)
    ImportRun.objects.filter(pk=run_id).update(status=ImportRun.RUNNING, updated_at=timezone.now())
    path = import_folder() / f"{secrets.token_urlsafe(24)}{run.upload.suffix}"
    last_saved = 0.0

    def progress(done, total, outcome):
        nonlocal last_saved
        if done == total or time.monotonic() - last_saved >= PROGRESS_EVERY_SECONDS:
            ImportRun.objects.filter(pk=run_id).update(
                done=done, total=total, updated_at=timezone.now()
            )
            last_saved = time.monotonic()

    try:
        path.write_bytes(run.upload.data)
        with opened(path) as (export, media):
            ImportRun.objects.filter(pk=run_id).update(total=len(export.posts))
            report = Importer(blog, media, user=run.user, progress=progress).run(export)
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.DONE, report=report.as_json(), updated_at=timezone.now()
        )
    except Exception as error:
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.FAILED,
            error=f"The import stopped: {error}. Posts imported before it are kept; "
            "importing the export again finishes the job.",
        )
        raise  # the worker logs it and marks the task failed
    finally:
        path.unlink(missing_ok=True)
        ImportUpload.objects.filter(run=run_id).delete()


def has_stopped(run):
    return run.status == ImportRun.RUNNING and timezone.now() - run.updated_at > STOPPED_AFTER


def is_waiting_long(run):
    """Queued for longer than a running import may stay silent: no worker is taking tasks."""
    return run.status == ImportRun.QUEUED and timezone.now() - run.updated_at > STOPPED_AFTER


def running_imports(blog):
    """The blog's imports queued or running (not stopped, as has_stopped() tells), newest
    first."""
    return (
        ImportRun.objects.filter(blog=blog, status__in=[ImportRun.QUEUED, ImportRun.RUNNING])
        .exclude(status=ImportRun.RUNNING, updated_at__lt=timezone.now() - STOPPED_AFTER)
        .order_by("-started_at")
    )
