"""The editorial overview: every post with its status, and the weeks ahead of go-lives."""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.contrib.contenttypes.models import ContentType
from django.db.models import (
    Case,
    CharField,
    Exists,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone
from wagtail.models import Page, Revision, WorkflowState
from wagtail.permission_policies.pages import PagePermissionPolicy

from .models import BlogPage, card_prefetches

DRAFT, IN_REVIEW, SCHEDULED, LIVE, EXPIRED = "draft", "in_review", "scheduled", "live", "expired"
STATUS_LABELS = {
    DRAFT: "Draft",
    IN_REVIEW: "In review",
    SCHEDULED: "Scheduled",
    LIVE: "Live",
    EXPIRED: "Expired",
}
CALENDAR_WEEKS = 8


def with_editorial_status(posts):
    """Annotate each post with its status and scheduled go-live, in a fixed number of queries."""
    page_id = Cast(OuterRef("pk"), output_field=CharField())
    now = timezone.now()
    scheduled_revisions = Revision.page_revisions.filter(
        object_id=page_id, approved_go_live_at__isnull=False
    )
    return posts.annotate(
        scheduled_at=Subquery(scheduled_revisions.values("approved_go_live_at")[:1]),
        in_review=Exists(
            WorkflowState.objects.active().filter(
                base_content_type=ContentType.objects.get_for_model(Page), object_id=page_id
            )
        ),
        editorial_status=Case(
            # Wagtail flags expiry on its next pass; until then a past expire_at is expired too.
            When(Q(expired=True) | Q(expire_at__lte=now), then=Value(EXPIRED)),
            When(scheduled_at__isnull=False, then=Value(SCHEDULED)),
            When(in_review=True, then=Value(IN_REVIEW)),
            When(live=True, then=Value(LIVE)),
            default=Value(DRAFT),
            output_field=CharField(),
        ),
    )


def editorial_posts(user):
    """The posts this user may edit or publish, whatever their state, with what the overview
    prints about each. Drafts of pages outside the user's rights are nobody else's business."""
    workable = PagePermissionPolicy().instances_user_has_any_permission_for(
        user, ["change", "publish"]
    )
    posts = BlogPage.objects.filter(pk__in=workable.values("pk"))
    return with_editorial_status(posts).prefetch_related(*card_prefetches())


def in_editor_zone(moment):
    """'12 Mar 2027, 09:30 Europe/Berlin': the editor's own clock, with the zone named."""
    local = timezone.localtime(moment)
    return f"{local:%-d %b %Y, %H:%M} {timezone.get_current_timezone_name()}"


@dataclass
class CalendarWeek:
    starts: date
    go_lives: list = field(default_factory=list)
    expiries: list = field(default_factory=list)

    @property
    def ends(self):
        return self.starts + timedelta(days=6)

    @property
    def is_empty(self):
        return not (self.go_lives or self.expiries)


def calendar_weeks(user, today=None, weeks=CALENDAR_WEEKS):
    """The coming weeks (Monday to Sunday in the editor's zone), each with the go-lives and
    expiries of the posts this user may edit or publish."""
    today = today or timezone.localdate()
    first_monday = today - timedelta(days=today.weekday())
    tz = timezone.get_current_timezone()
    window_start = datetime.combine(first_monday, time.min, tzinfo=tz)
    window_end = window_start + timedelta(weeks=weeks)
    calendar = [CalendarWeek(first_monday + timedelta(weeks=n)) for n in range(weeks)]

    def week_of(moment):
        return calendar[(timezone.localdate(moment, tz) - first_monday).days // 7]

    scheduled = (
        editorial_posts(user)
        .filter(scheduled_at__gte=window_start, scheduled_at__lt=window_end)
        .order_by("scheduled_at", "pk")
    )
    for post in scheduled:
        week_of(post.scheduled_at).go_lives.append(post)
    expiring = (
        editorial_posts(user)
        .filter(expire_at__gte=max(window_start, timezone.now()), expire_at__lt=window_end)
        .filter(Q(live=True) | Q(scheduled_at__isnull=False))
        .order_by("expire_at", "pk")
    )
    for post in expiring:
        week_of(post.expire_at).expiries.append(post)
    return calendar
