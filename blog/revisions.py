"""Saving a post that has not changed adds nothing to its History.

Wagtail saves a new version (and a "Draft saved" row in History) for every Save draft, and for
the first autosave of every editing session, whether or not anything changed: Save draft right
after an autosave stored the same content twice, and "Compare with previous" showed nothing.
Wagtail's own grouping (wagtail #13863, "Autosave UX refinements") only merges the rows of one
autosave session; here a save that would repeat the latest version reuses it instead.

A post with an approved go-live is described as scheduled, not "locked" (ScheduledPostLock).
"""

from django.utils import timezone
from wagtail.locks import ScheduledForPublishLock

# Values that describe the post as a whole or its place in the tree, not what the editor wrote:
# they differ between a version and the post without any edit (with_content_json keeps most).
PAGE_WIDE_FIELDS = frozenset(
    {
        "pk",
        "path",
        "depth",
        "numchild",
        "url_path",
        "translation_key",
        "locale",
        "content_type",
        "alias_of",
        "owner",
        "draft_title",
        "live",
        "live_revision",
        "has_unpublished_changes",
        "latest_revision",
        "latest_revision_created_at",
        "first_published_at",
        "last_published_at",
        "expired",
        "locked",
        "locked_at",
        "locked_by",
        # Featuring is an action, not an edit (blog/editorial/featuring.py).
        "featured",
        "featured_at",
    }
)


def written_content(data):
    return {key: value for key, value in data.items() if key not in PAGE_WIDE_FIELDS}


def repeated_revision(post, *, overwrite_revision, previous_revision, approved_go_live_at):
    """The post's latest version when saving `post` now would only repeat it, else None.

    Two saves qualify: an autosave rewriting its own version (Wagtail checks it is the latest
    and the editor's), and a save from the full editor (Save draft, Publish, Submit…), which
    reloads the editor afterwards. The first autosave of an editing session does not: the
    version it is answered with is the one its later autosaves overwrite, and a version saved
    on purpose, or the live one, would be rewritten.
    """
    if previous_revision is not None or approved_go_live_at is not None:
        return None  # a restore, or an approval with a go-live: both belong in History
    latest = post.get_latest_revision()
    if latest is None:
        return None
    if overwrite_revision is not None:
        if overwrite_revision != latest:
            return None  # Wagtail refuses it
    elif not getattr(post, "saved_from_the_full_editor", False):
        return None
    if written_content(post.serializable_data()) != written_content(latest.content):
        return None
    return latest


def scheduled_moment(moment):
    """'Fri 4 Dec, 23:21 Berlin time' on the clock of the signed-in editor (Wagtail activates
    their admin time zone), with the year only when it is not this year's."""
    local = timezone.localtime(moment)
    year = "" if local.year == timezone.localtime().year else f" {local.year}"
    zone = timezone.get_current_timezone_name()
    clock = (
        "UTC" if zone in {"UTC", "Etc/UTC"} else zone.rsplit("/", 1)[-1].replace("_", " ") + " time"
    )
    return f"{local:%a %-d %b}{year}, {local:%H:%M} {clock}"


class ScheduledPostLock(ScheduledForPublishLock):
    """Wagtail calls an approved go-live a lock ("Page '…' is locked and has been scheduled to
    go live at Dec. 4, 2026, 11:21 p.m.", no time zone); the post is scheduled, and unscheduling
    is how to change it. The edit view still adds its Unschedule button beside the message."""

    def when(self):
        return scheduled_moment(self.object.scheduled_revision.approved_go_live_at)

    def get_message(self, user):
        if self.object.permissions_for_user(user).can_unschedule():
            return f"Scheduled for {self.when()} — unschedule to change it."
        return f"Scheduled for {self.when()} — a Publisher can unschedule it to change it."

    def get_locked_by(self, user):
        return "Scheduled"

    def get_description(self, user):
        return f"Goes live {self.when()}. Unschedule to edit it again."
