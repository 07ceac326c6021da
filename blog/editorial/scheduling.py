"""Scheduled publishing: publish revisions whose go-live time has come, unpublish expired pages.

Wagtail's own `publish_scheduled` does the same work, but without a lock, without isolating a
failing item from the rest of the batch, and it leaves the go-live/expiry fields behind
(wagtail #13896). Publishing still goes through Wagtail's APIs with Wagtail's audit actions, so
page history, signals, the search index and caches follow as they do for an editor's publish.
"""

import logging
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import DatabaseError, connection, transaction
from django.dispatch import Signal
from django.utils import timezone
from wagtail.models import Page, Revision, get_default_page_content_type

from ..models import SchedulerHeartbeat
from ..visibility import awaiting_unpublish

logger = logging.getLogger(__name__)

# Sent by run_scheduler after each pass, for work that should follow changes without a reader
# waiting for it (search/warming.py ranks popular searches again).
pass_finished = Signal()

# Any constant shared by every scheduler process; "cedana" scheduler, spelled in digits.
PASS_LOCK_KEY = 0x5CED_A5C4

PUBLISH_ACTION = "wagtail.publish.scheduled"
UNPUBLISH_ACTION = "wagtail.unpublish.scheduled"


@dataclass
class PassResult:
    published: int = 0
    unpublished: int = 0
    failed: int = 0
    skipped: bool = False
    stopped_early: bool = False
    errors: list = field(default_factory=list)

    @property
    def summary(self):
        if self.skipped:
            return "skipped: another scheduler is running a pass"
        line = f"published {self.published}, unpublished {self.unpublished}, failed {self.failed}"
        return line + (" (stopped early)" if self.stopped_early else "")


@contextmanager
def pass_lock():
    """Yield whether this process may run a pass: on PostgreSQL only one process at a time may.

    Other databases always get True; docs/editors.md asks for a single scheduler there. Each item
    is also re-checked under a row lock, so a second pass could never publish twice anyway.
    """
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [PASS_LOCK_KEY])
        acquired = cursor.fetchone()[0]
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [PASS_LOCK_KEY])


def due_revision_ids(now):
    return list(
        Revision.objects.filter(approved_go_live_at__lte=now)
        .order_by("approved_go_live_at", "pk")
        .values_list("pk", flat=True)
    )


def expired_page_ids(now):
    return list(
        awaiting_unpublish(Page.objects.all(), now)
        .order_by("expire_at", "pk")
        .values_list("pk", flat=True)
    )


def publish_due_revision(revision_id, now):
    """Publish one scheduled revision; False if another scheduler (or an editor) got there first."""
    with transaction.atomic():
        revision = (
            Revision.objects.select_for_update(skip_locked=True)
            .filter(pk=revision_id, approved_go_live_at__lte=now)
            .first()
        )
        if revision is None:
            return False
        revision.publish(log_action=PUBLISH_ACTION, skip_permission_checks=True)
        if revision.base_content_type_id == get_default_page_content_type().pk:
            # The go-live time has done its job; left behind it confuses the next edit.
            Page.objects.filter(pk=revision.object_id, go_live_at__lte=now).update(go_live_at=None)
        return True


def unpublish_expired_page(page_id, now):
    """Unpublish one expired page; False if it is no longer live or no longer expired."""
    with transaction.atomic():
        locked = Page.objects.select_for_update(skip_locked=True)
        page = awaiting_unpublish(locked, now).filter(pk=page_id).first()
        if page is None:
            return False
        page.unpublish(set_expired=True, log_action=UNPUBLISH_ACTION)
        # A past expiry kept on the page makes the admin refuse the next save (wagtail #13896).
        Page.objects.filter(pk=page_id).update(expire_at=None)
        return True


def describe(model, pk):
    title = model.objects.filter(pk=pk).values_list(
        "title" if model is Page else "object_str", flat=True
    )
    return f"{model.__name__} {pk} ({title.first() or 'gone'})"


def run_items(result, ids, handle, model, now, should_stop):
    """Handle each item in its own transaction; returns how many were done, counts failures."""
    done = 0
    for pk in ids:
        if should_stop():
            result.stopped_early = True
            break
        try:
            done += handle(pk, now)
        except Exception as error:  # noqa: BLE001 - one broken post must not hold back the rest
            result.failed += 1
            label = describe(model, pk)
            result.errors.append(f"{label}: {error}")
            logger.exception("Scheduled publishing failed for %s; it stays scheduled", label)
    return done


def run_pass(*, interval, should_stop=lambda: False):
    """One pass over everything due now. Records a heartbeat unless another process held the lock."""
    with pass_lock() as acquired:
        if not acquired:
            return PassResult(skipped=True)
        now = timezone.now()
        SchedulerHeartbeat.record(last_started_at=now, interval_seconds=interval)
        result = PassResult()
        try:
            result.unpublished = run_items(
                result, expired_page_ids(now), unpublish_expired_page, Page, now, should_stop
            )
            result.published = run_items(
                result, due_revision_ids(now), publish_due_revision, Revision, now, should_stop
            )
        except DatabaseError as error:
            record_failure(f"The pass stopped: {error}")
            raise
        finished = timezone.now()
        heartbeat = {"last_success_at": finished, "last_summary": result.summary}
        if result.errors:
            heartbeat |= {"last_error_at": finished, "last_error": "\n".join(result.errors)}
        SchedulerHeartbeat.record(**heartbeat)
        return result


def record_failure(message):
    try:
        SchedulerHeartbeat.record(last_error_at=timezone.now(), last_error=message)
    except DatabaseError:
        logger.exception("Could not record the scheduler's failure")
