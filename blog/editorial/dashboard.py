"""The "Scheduled publishing" panel on the Wagtail dashboard: is the scheduler alive, what's next."""

from datetime import timedelta

from django.conf import settings
from django.utils import dateformat, timezone
from wagtail.admin.ui.components import Component
from wagtail.models import Page, Revision, get_default_page_content_type
from wagtail.permission_policies.pages import PagePermissionPolicy

from ..models import SchedulerHeartbeat

UPCOMING_LIMIT = 10


def editor_time(value):
    """'Tue 1 Dec, 09:00 (Europe/London)' in the time zone Wagtail activated for this editor."""
    local = timezone.localtime(value)
    return f"{dateformat.format(local, 'D j M, H:i')} ({timezone.get_current_timezone_name()})"


class ScheduledPublishingPanel(Component):
    name = "scheduled_publishing"
    template_name = "blog/admin/scheduled_publishing_panel.html"
    order = 50

    def get_context_data(self, parent_context):
        now = timezone.now()
        heartbeat = SchedulerHeartbeat.current()
        last_success = heartbeat.last_success_at if heartbeat else None
        interval = heartbeat.interval_seconds if heartbeat else settings.SCHEDULER_INTERVAL
        return {
            "last_success": last_success and editor_time(last_success),
            "last_success_at": last_success,
            "is_stale": last_success is None
            or now - last_success > timedelta(seconds=2 * interval),
            "last_error": heartbeat.last_error if heartbeat and heartbeat.last_error_at else "",
            "error_is_recent": bool(
                heartbeat
                and heartbeat.last_error_at
                and (last_success is None or heartbeat.last_error_at >= last_success)
            ),
            "upcoming": self.upcoming(parent_context["request"].user, now),
        }

    def upcoming(self, user, now):
        """The next scheduled go-lives among pages this editor may edit or publish."""
        revisions = list(
            Revision.objects.filter(
                approved_go_live_at__isnull=False,
                base_content_type=get_default_page_content_type(),
            ).order_by("approved_go_live_at", "pk")[:UPCOMING_LIMIT]
        )
        page_ids = [int(revision.object_id) for revision in revisions]
        permitted = set(
            PagePermissionPolicy()
            .instances_user_has_any_permission_for(user, ["change", "publish"])
            .filter(pk__in=page_ids)
            .values_list("pk", flat=True)
        )
        live = set(Page.objects.filter(pk__in=permitted, live=True).values_list("pk", flat=True))
        return [
            {
                "page_id": int(revision.object_id),
                "title": revision.object_str,
                "go_live": editor_time(revision.approved_go_live_at),
                "overdue": revision.approved_go_live_at <= now,
                "is_update": int(revision.object_id) in live,
            }
            for revision in revisions
            if int(revision.object_id) in permitted
        ]
