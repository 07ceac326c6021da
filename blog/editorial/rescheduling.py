"""Moving a scheduled post's go-live from the calendar, under the editor's rules.

Wagtail locks a scheduled post; a Publisher changes its go-live by cancelling the scheduled
publication, setting a new go-live on the Publishing tab and choosing "Schedule to publish".
That publishes a new revision with the go-live ahead, which makes it the one approved to go
live and drops the old approval, and Wagtail logs "Publication scheduled". The calendar does
the same in one step, with the content of the scheduled revision.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from wagtail.actions.publish_revision import PublishRevisionAction
from wagtail.locks import BasicLock

from ..panels import TIMES_ARE_IN_YOUR_ZONE, MinuteDateTimeInput
from .overview import in_editor_zone


class RescheduleForm(forms.Form):
    go_live_at = forms.DateTimeField(
        label="Go live at",
        help_text=TIMES_ARE_IN_YOUR_ZONE,
        error_messages={
            "required": "Choose when the post should go live.",
            "invalid": "Write the go-live time like 2027-03-12 09:30.",
        },
    )

    def __init__(self, *args, post, expire_at=None, **kwargs):
        super().__init__(*args, prefix=f"post-{post.pk}", **kwargs)
        self.expire_at = expire_at
        # The picker opens inside the dialog; on the page's body it would sit under the overlay.
        self.fields["go_live_at"].widget = MinuteDateTimeInput(
            js_overlay_parent_selector=f"#{dialog_id(post)}"
        )

    def clean_go_live_at(self):
        go_live_at = self.cleaned_data["go_live_at"]
        if go_live_at <= timezone.now():
            raise ValidationError(
                f"{in_editor_zone(go_live_at)} has passed: choose a go-live time in the future."
            )
        if self.expire_at and go_live_at >= self.expire_at:
            raise ValidationError(
                f"The post is taken down on {in_editor_zone(self.expire_at)}: choose a go-live time "
                "before then, or change its expiry on its Publishing tab."
            )
        return go_live_at


def dialog_id(post):
    return f"reschedule-{post.pk}"


class CannotReschedule(Exception):
    """Why this post's go-live cannot be moved from the calendar, in the editor's words."""


def version_to_reschedule(post, user):
    """The post as it is scheduled to go live; CannotReschedule unless that version is the
    post's newest and nobody else has locked the post."""
    title = f"“{post.get_admin_display_title()}”"
    scheduled = post.scheduled_revision
    if scheduled is None:
        raise CannotReschedule(
            f"{title} is not scheduled any more: it went live or was unscheduled."
        )
    if post.latest_revision_id != scheduled.pk or post.workflow_in_progress:
        # Moving the older, scheduled version would hide the newer changes from its editor.
        raise CannotReschedule(
            f"{title} has changes saved after it was scheduled. Open it to choose which version "
            "goes live, and when, on its Publishing tab."
        )
    # get_lock() answers with the schedule's own lock, which this move replaces; an editor's
    # lock still holds.
    if post.locked and BasicLock(post).for_user(user):
        raise CannotReschedule(f"{title} is locked, so its schedule cannot change now.")
    return scheduled.as_object()


def reschedule(post, version, go_live_at, user):
    """Publish the scheduled version again with the new go-live, as "Schedule to publish" does,
    for a user the caller has found may publish the post; returns the message for the editor."""
    version.go_live_at = go_live_at
    with transaction.atomic():
        # Logged once, as Wagtail's "Publication scheduled"; "Draft saved" would say nothing.
        revision = version.save_revision(user=user, log_action=False, clean=False)
        PublishRevisionAction(revision, user=user).execute(skip_permission_checks=True)
    title = f"“{post.get_admin_display_title()}”"
    when = in_editor_zone(go_live_at)
    if post.live:
        return f"{title} is live; its new version is now scheduled for {when}."
    return f"{title} is now scheduled for {when}. Readers see it from then."
