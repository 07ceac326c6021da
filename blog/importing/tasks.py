"""An export uploaded in the admin is checked (its dry run), then imported once its Publisher
confirms, each as a task on the queue in the database (the "background" backend of TASKS),
which the worker process takes from it: `manage.py db_worker --backend background`, started by
`make run` beside the scheduler (docs/deploy.md). The request that uploaded or confirmed answers
at once (a large zip read inside it outlived the app server's timeout), and the run's page
follows the progress the task writes on its ImportRun.

Nothing of it lives in an app server: the upload waits with the run in the database
(ImportUpload), so restarting or deploying the app servers leaves a queued or running import
alone. If the worker stops mid-way, the run's clock stops with it and its page says so: every
post is its own transaction and running the same export again finishes the job without
duplicating anything.
"""

import secrets
import time
from datetime import timedelta
from pathlib import Path

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from blog.models import BlogIndexPage

from .importer import Importer
from .models import ImportRun, ImportUpload
from .safety import ExportError
from .sources import import_folder, opened

# A running import records its progress at least this often; silent for longer, it stopped.
PROGRESS_EVERY_SECONDS = 1
STOPPED_AFTER = timedelta(minutes=2)


def queue_dry_run(blog, user, upload):
    """Keep the uploaded export with a new run and queue its dry run; returns the run. Reading
    a large export takes longer than a request may: the request only stores it."""
    suffix = Path(upload.name).suffix.lower()
    with transaction.atomic():
        run = ImportRun.objects.create(
            blog=blog, user=user, export_name=upload.name[:255], dry_run=True
        )
        ImportUpload.objects.create(run=run, suffix=suffix, data=b"".join(upload.chunks()))
        # In the run's transaction: the worker never sees a task without its run.
        import_upload.enqueue(run.pk)
    return run


def queue_import(dry_run, user):
    """Queue the import of the export a finished dry run checked, which moves to the import's
    run; returns that run, or None when the upload is gone (confirmed already, or swept)."""
    with transaction.atomic():
        upload = (
            ImportUpload.objects.select_for_update()
            .filter(run=dry_run, run__dry_run=True, run__status=ImportRun.DONE)
            .first()
        )
        if upload is None:
            return None
        run = ImportRun.objects.create(
            blog_id=dry_run.blog_id, user=user, export_name=dry_run.export_name
        )
        upload.run = run
        upload.save(update_fields=["run"])
        import_upload.enqueue(run.pk)
    return run


@task(backend="background")
def import_upload(run_id):
    """The dry run or the import of the run's upload, as the run says."""
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

    keep_upload = False
    try:
        path.write_bytes(run.upload.data)
        with opened(path, name=run.export_name) as (export, media):
            ImportRun.objects.filter(pk=run_id).update(total=len(export.posts))
            report = Importer(
                blog, media, dry_run=run.dry_run, user=run.user, progress=progress
            ).run(export)
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.DONE, report=report.as_json(), updated_at=timezone.now()
        )
        # A checked export waits for its Publisher to confirm it (or for the sweep).
        keep_upload = run.dry_run
    except Exception as error:
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.FAILED, error=what_stopped(run, error), updated_at=timezone.now()
        )
        # An export this import cannot read is its Publisher's to fix, told on the run's page.
        if not (run.dry_run and isinstance(error, ExportError)):
            raise  # the worker logs it and marks the task failed
    finally:
        path.unlink(missing_ok=True)
        if not keep_upload:
            ImportUpload.objects.filter(run=run_id).delete()


def what_stopped(run, error):
    if not run.dry_run:
        return (
            f"The import stopped: {error}. Posts imported before it are kept; "
            "importing the export again finishes the job."
        )
    if isinstance(error, ExportError):
        return f"The export could not be read: {error}"
    # An upload is untrusted: its Publisher gets an answer, the error goes to the worker's log.
    return (
        "The export could not be read: it is not shaped like the exports this import knows. "
        "The error is in the server's log."
    )


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
