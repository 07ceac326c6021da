"""The editorial overview: every post with its status, and a month calendar of what was
published, goes live and expires."""

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.contrib.contenttypes.models import ContentType
from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from wagtail.models import Page, Revision, WorkflowState
from wagtail.permission_policies.pages import PagePermissionPolicy

from ..models import BlogPage, card_prefetches
from ..visibility import still_live_past_expiry

DRAFT, IN_REVIEW, SCHEDULED, LIVE, EXPIRED = "draft", "in_review", "scheduled", "live", "expired"
STATUS_LABELS = {
    DRAFT: "Draft",
    IN_REVIEW: "In review",
    SCHEDULED: "Scheduled",
    LIVE: "Live",
    EXPIRED: "Expired",
}
# The other state a post can be in at the same time as its main one, as Wagtail's page
# explorer words it ("live + draft"): changes saved after what is live or scheduled.
NEWER_DRAFT = "draft"


def scheduled_revisions():
    """The revisions approved to go live later: Wagtail keeps at most one for each page."""
    return Revision.page_revisions.filter(approved_go_live_at__isnull=False)


def active_reviews():
    """The pages' reviews (workflows) in progress."""
    return WorkflowState.objects.active().filter(
        base_content_type=ContentType.objects.get_for_model(Page)
    )


def with_editorial_status(posts):
    """Annotate each post with its status, its scheduled go-live and whether it holds changes
    newer than what is live or scheduled, in a fixed number of queries."""
    page_id = Cast(OuterRef("pk"), output_field=CharField())
    now = timezone.now()
    scheduled_revisions_of_post = scheduled_revisions().filter(object_id=page_id)
    live_or_scheduled = Q(live=True) | Q(scheduled_at__isnull=False)
    # Revision ids start at 1: 0 stands for "none", so a missing revision never matches.
    newer_than_live_and_scheduled = (
        Q(latest_revision__isnull=False)
        & ~Q(latest_revision=Coalesce(F("live_revision"), Value(0)))
        & ~Q(latest_revision=Coalesce(F("scheduled_revision_pk"), Value(0)))
    )
    return posts.annotate(
        scheduled_at=Subquery(scheduled_revisions_of_post.values("approved_go_live_at")[:1]),
        scheduled_revision_pk=Subquery(scheduled_revisions_of_post.values("pk")[:1]),
        in_review=Exists(active_reviews().filter(object_id=page_id)),
        # Expired for readers already, though the scheduler flags it only on its next pass.
        is_expired=Case(
            When(Q(expired=True) | still_live_past_expiry(now), then=Value(True)),
            default=Value(False),
            output_field=BooleanField(),
        ),
        # A draft is a second state only beside something live or scheduled; a post that
        # was never either is simply a draft.
        has_newer_draft=Case(
            When(live_or_scheduled & newer_than_live_and_scheduled, then=Value(True)),
            default=Value(False),
            output_field=BooleanField(),
        ),
        # The main state. What readers see comes first, as in Wagtail's "live + scheduled".
        editorial_status=Case(
            When(is_expired=True, then=Value(EXPIRED)),
            When(live=True, then=Value(LIVE)),
            When(scheduled_at__isnull=False, then=Value(SCHEDULED)),
            When(in_review=True, then=Value(IN_REVIEW)),
            default=Value(DRAFT),
            output_field=CharField(),
        ),
    )


def status_parts(post):
    """Every state the post is in, main one first, as Wagtail's explorer words it ("live +
    scheduled", "live + in moderation", "live + draft"); we also say "scheduled + draft"
    where the explorer says only "scheduled", because those changes will not go live."""
    main = post.editorial_status
    parts = [main]
    if main == LIVE and post.scheduled_at:
        parts.append(SCHEDULED)
    if main in (LIVE, SCHEDULED):
        if post.in_review:
            parts.append(IN_REVIEW)
        elif post.has_newer_draft:
            # The revision in review is newer too; "+ in review" already says so.
            parts.append(NEWER_DRAFT)
    return parts


def status_label(post):
    """'Live', 'Live + draft', 'Scheduled + draft', 'Live + in review'..."""
    first, *others = (STATUS_LABELS[part] for part in status_parts(post))
    return " + ".join([first, *(other.lower() for other in others)])


def with_status(posts, status):
    """The posts whose label names `status`: "Live" finds a live post with a newer draft,
    and so does "Draft"."""
    current = Q(is_expired=False)
    match status:
        case "live":
            return posts.filter(current, live=True)
        case "scheduled":
            return posts.filter(current, scheduled_at__isnull=False)
        case "in_review":
            return posts.filter(current, in_review=True)
        case "draft":
            return posts.filter(
                Q(editorial_status=DRAFT)
                | Q(
                    editorial_status__in=(LIVE, SCHEDULED),
                    in_review=False,
                    has_newer_draft=True,
                )
            )
        case _:
            return posts.filter(editorial_status=status)


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


PUBLISHED, GOES_LIVE, EXPIRES = "published", "goes_live", "expires"
AWAITS_APPROVAL = "awaits_approval"
ENTRY_LABELS = {
    PUBLISHED: "Published",
    GOES_LIVE: "Goes live",
    EXPIRES: "Expires",
    AWAITS_APPROVAL: "Awaiting approval",
}


@dataclass
class CalendarEntry:
    kind: str
    at: datetime
    post: BlogPage
    # Set by the calendar view on a go-live the editor may move.
    reschedule_form: object = None
    dialog_id: str = ""

    @property
    def label(self):
        return ENTRY_LABELS[self.kind]

    @property
    def status(self):
        return status_label(self.post)


@dataclass
class CalendarDay:
    day: date
    in_month: bool
    is_today: bool
    entries: list = field(default_factory=list)


def next_month(month):
    return (month.replace(day=28) + timedelta(days=4)).replace(day=1)


def calendar_posts(user, window_start, window_end):
    """The posts with something to show between the two moments: published, going live,
    expiring, or in review with a go-live asked for. One query for all: a post published on the
    3rd that expires on the 20th is two entries of one row. Only a post readers saw, or will
    see, can expire."""

    def within(field_name):
        return Q(**{f"{field_name}__gte": window_start, f"{field_name}__lt": window_end})

    # Found in the revisions table once: filtering on the scheduled_at annotation looked up
    # every post's schedule, 10,000 lookups for a blog of 10,000 posts.
    goes_live = scheduled_revisions().filter(within("approved_go_live_at"))
    # The go-live a post in review asks for is in its newest version, not yet on the page.
    asked_go_live = Revision.objects.filter(pk=OuterRef("latest_revision")).values(
        go_live_at=KT("content__go_live_at")
    )
    return (
        editorial_posts(user)
        .filter(
            within("first_published_at")
            | Q(pk__in=goes_live.values(page_id=Cast("object_id", IntegerField())))
            | (
                within("expire_at")
                & (Q(live=True) | Q(expired=True) | Q(scheduled_at__isnull=False))
            )
            # The ids once, not a lookup per post as filtering on in_review would be.
            | Q(pk__in=active_reviews().values(page_id=Cast("object_id", IntegerField())))
        )
        .annotate(asked_go_live=Subquery(asked_go_live[:1]))
    )


def awaited_go_live(post):
    """When a post in review asks to go live, if that is ahead: it goes live then only once a
    Publisher approves it, so it is not scheduled yet."""
    asked = parse_datetime(post.asked_go_live) if post.in_review and post.asked_go_live else None
    return asked if asked and asked > timezone.now() else None


def month_weeks(user, month, today=None):
    """The weeks (Monday to Sunday, in the editor's zone) that show `month` (its first day),
    each day with what was first published, goes live, awaits approval to go live or expires
    on it, in time order, for the posts this user may edit or publish. The days of the
    neighbouring months that fill the first and last week show theirs too, so nothing near a
    month's edge drops out."""
    today = today or timezone.localdate()
    tz = timezone.get_current_timezone()
    first = month - timedelta(days=month.weekday())
    last = next_month(month) - timedelta(days=1)
    end = last + timedelta(days=7 - last.weekday())
    days = {}
    for n in range((end - first).days):
        day = first + timedelta(days=n)
        days[day] = CalendarDay(day, day.month == month.month, day == today)
    window_start = datetime.combine(first, time.min, tzinfo=tz)
    window_end = datetime.combine(end, time.min, tzinfo=tz)
    entries = []
    for post in calendar_posts(user, window_start, window_end):
        for kind, at in (
            (PUBLISHED, post.first_published_at),
            (GOES_LIVE, post.scheduled_at),
            (EXPIRES, post.expire_at if post.live or post.expired or post.scheduled_at else None),
            (AWAITS_APPROVAL, awaited_go_live(post)),
        ):
            if at and window_start <= at < window_end:
                entries.append(CalendarEntry(kind, at, post))
    for entry in sorted(entries, key=lambda e: (e.at, e.post.pk)):
        days[timezone.localdate(entry.at, tz)].entries.append(entry)
    ordered = list(days.values())
    return [ordered[n : n + 7] for n in range(0, len(ordered), 7)]
