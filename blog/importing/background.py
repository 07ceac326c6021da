"""An import confirmed in the admin runs in a thread of the app server that took the upload,
so the request answers at once and the Publisher follows the progress on the run's page.

The thread is in the same process because the upload waits in that server's temporary folder
(never in media storage, which may be public). If the server stops mid-way (a deploy, a
restart), the run's clock stops with it and its page says so: every post is its own
transaction and running the same export again finishes the job without duplicating anything.
"""

import logging
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import connections
from django.utils import timezone

from .importer import Importer
from .models import ImportRun
from .safety import ExportError
from .sources import opened

logger = logging.getLogger(__name__)

# A running import records its progress at least this often; silent for longer, it stopped.
PROGRESS_EVERY_SECONDS = 1
STOPPED_AFTER = timedelta(minutes=2)


def start_import(run, path, blog):
    """Import the upload at `path` for `run`, in the background unless settings say inline
    (tests and the immediate tasks backend of a single-process setup)."""
    if getattr(settings, "IMPORT_IN_BACKGROUND", True):
        worker = threading.Thread(
            target=run_import,
            args=(run.pk, path, blog),
            kwargs={"in_background": True},
            name=f"import-{run.pk}",
            daemon=True,
        )
        worker.start()
    else:
        run_import(run.pk, path, blog)


def run_import(run_id, path, blog, *, in_background=False):
    run = ImportRun.objects.select_related("user").get(pk=run_id)
    last_saved = 0.0

    def progress(done, total, outcome):
        nonlocal last_saved
        if done == total or time.monotonic() - last_saved >= PROGRESS_EVERY_SECONDS:
            ImportRun.objects.filter(pk=run_id).update(
                done=done, total=total, updated_at=timezone.now()
            )
            last_saved = time.monotonic()

    try:
        with opened(path) as (export, media):
            ImportRun.objects.filter(pk=run_id).update(total=len(export.posts))
            report = Importer(blog, media, user=run.user, progress=progress).run(export)
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.DONE, report=report.as_json(), updated_at=timezone.now()
        )
    except ExportError as error:
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.FAILED, error=f"The export could not be read: {error}"
        )
    except Exception as error:  # noqa: BLE001 - the Publisher must learn the run ended
        logger.exception("Import run %s stopped", run_id)
        ImportRun.objects.filter(pk=run_id).update(
            status=ImportRun.FAILED,
            error=f"The import stopped: {error}. Posts imported before it are kept; "
            "importing the export again finishes the job.",
        )
        if not in_background:
            raise
    finally:
        path.unlink(missing_ok=True)
        if in_background:
            connections.close_all()  # this thread's own connections


def has_stopped(run):
    return run.status == ImportRun.RUNNING and timezone.now() - run.updated_at > STOPPED_AFTER


def running_imports(blog):
    """The blog's imports still running (not stopped, as has_stopped() tells), newest first."""
    return ImportRun.objects.filter(
        blog=blog, status=ImportRun.RUNNING, updated_at__gte=timezone.now() - STOPPED_AFTER
    ).order_by("-started_at")
