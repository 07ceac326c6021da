"""Saving a post that has not changed adds nothing to its History.

Wagtail saves a new version (and a "Draft saved" row in History) for every Save draft, and for
the first autosave of every editing session, whether or not anything changed: Save draft right
after an autosave stored the same content twice, and "Compare with previous" showed nothing.
Wagtail's own grouping (wagtail #13863, "Autosave UX refinements") only merges the rows of one
autosave session; here a save that would repeat the latest version reuses it instead.

A post with an approved go-live is described as scheduled, not "locked" (ScheduledPostLock).

History lists the post's versions to compare any two (CompareVersionsForm, shown by
blog/editorial/versions.py).
"""

from django import forms
from django.urls import reverse
from django.utils import timezone
from wagtail.locks import ScheduledForPublishLock
from wagtail.models import PageLogEntry

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


# What happens to a version while it is only being written: what its autosaves and a save ending
# the editing session log. Any other row (published, submitted, restored…) leaves it as it is.
ACTIONS_WHILE_WRITING = {"wagtail.create", "wagtail.edit"}


def autosaved_version_to_finish(post, user, *, previous_revision, approved_go_live_at):
    """The version this window's autosave has been writing, when a save from the full editor
    (Save draft, Publish, Submit…) ends its editing session, else None.

    Wagtail 8 gives an editing session one version: its first autosave makes it, later ones
    overwrite it (one History row). Save draft then made a version of its own, differing from
    the autosaved one by what was typed since the last autosave, so "Compare with previous
    version" showed a few keystrokes instead of the session's changes. The save is written into
    the session's version instead, as its next autosave would have been: Wagtail's own rules
    for that (the latest version, and the editor's), and nothing done to it yet but writing.
    static/js/autosave-guard.js sends which version this window's autosave wrote; another
    window's autosaves are not this session's and keep the version they made.
    """
    if previous_revision is not None or approved_go_live_at is not None:
        return None  # a restore, or an approval with a go-live: both belong in History
    if not getattr(post, "saved_from_the_full_editor", False):
        return None
    autosaved = getattr(post, "autosaved_revision_id", "")
    latest = post.get_latest_revision()
    if latest is None or autosaved != str(latest.pk) or latest.user_id != getattr(user, "pk", None):
        return None
    if latest.pk == post.live_revision_id or latest.approved_go_live_at is not None:
        return None
    done = PageLogEntry.objects.filter(revision=latest).exclude(
        action__startswith="wagtail.comments"
    )
    if done.exclude(action__in=ACTIONS_WHILE_WRITING).exists():
        return None
    return latest


def scheduled_moment(moment):
    """'Fri 4 Dec, 23:21 Berlin time' on the clock of the signed-in editor (Wagtail activates
    their admin time zone), with the year only when it is not this year's."""
    return f"{day_and_time(moment)} {clock_name()}"


def day_and_time(moment):
    """'Fri 4 Dec, 23:21' (scheduled_moment without its clock)."""
    local = timezone.localtime(moment)
    year = "" if local.year == timezone.localtime().year else f" {local.year}"
    return f"{local:%a %-d %b}{year}, {local:%H:%M}"


def clock_name():
    """'Berlin time', or 'UTC': the signed-in editor's clock, as scheduled_moment names it."""
    zone = timezone.get_current_timezone_name()
    return (
        "UTC" if zone in {"UTC", "Etc/UTC"} else zone.rsplit("/", 1)[-1].replace("_", " ") + " time"
    )


class ScheduledPostLock(ScheduledForPublishLock):
    """Wagtail calls an approved go-live a lock ("Page '…' is locked and has been scheduled to
    go live at Dec. 4, 2026, 11:21 p.m.", no time zone); the post is scheduled, and unscheduling
    is how to change it. The edit view still adds its Unschedule button beside the message."""

    def when(self):
        return scheduled_moment(self.object.scheduled_revision.approved_go_live_at)

    def day_and_time(self):
        return day_and_time(self.object.scheduled_revision.approved_go_live_at)

    def clock(self):
        return clock_name()

    def get_message(self, user):
        if self.object.permissions_for_user(user).can_unschedule():
            return f"Scheduled for {self.when()} — unschedule to change it."
        return f"Scheduled for {self.when()} — a Publisher can unschedule it to change it."

    def get_locked_by(self, user):
        return "Scheduled"

    def get_description(self, user):
        return f"Goes live {self.when()}. Unschedule to edit it again."


# What was done with a version, the most telling first, from the History rows that name it.
KIND_BY_ACTION = {
    "wagtail.publish": "Published",
    "wagtail.publish.scheduled": "Scheduled to publish",
    "wagtail.revert": "Restored",
    "wagtail.workflow.start": "Submitted for review",
    "wagtail.create": "Created",
    "wagtail.edit": "Draft saved",
}
KIND_ORDER = list(KIND_BY_ACTION)


def version_label(revision, kind, *, live, latest):
    """'Published (live) · 5 Dec 2026, 18:46:11 · Grace': what was done first, as a long label is
    cut at its end in a narrow list."""
    local = timezone.localtime(revision.created_at)
    who = ""
    if revision.user:
        who = revision.user.get_full_name() or revision.user.get_username()
    status = " (live)" if live else " (current draft)" if latest else ""
    parts = [f"{kind}{status}", f"{local:%-d %b %Y, %H:%M:%S}", who]
    return " · ".join(part for part in parts if part)


def version_choices(page):
    """(id, label) for each of the page's versions, newest first."""
    revisions = page.revisions.select_related("user").defer("content")
    revisions = list(revisions.order_by("-created_at", "-pk"))
    actions = {}
    for revision_id, action in PageLogEntry.objects.filter(
        page=page, revision__isnull=False, action__in=KIND_ORDER
    ).values_list("revision_id", "action"):
        actions.setdefault(revision_id, set()).add(action)
    choices = []
    for revision in revisions:
        done = actions.get(revision.pk, set())
        action = next((action for action in KIND_ORDER if action in done), "wagtail.edit")
        kind = KIND_BY_ACTION[action]
        label = version_label(
            revision,
            kind,
            live=revision.pk == page.live_revision_id and page.live,
            latest=revision.pk == page.latest_revision_id,
        )
        choices.append((revision.pk, label))
    return choices


class CompareVersionsForm(forms.Form):
    older = forms.TypedChoiceField(label="From", coerce=int)
    newer = forms.TypedChoiceField(label="To", coerce=int)

    def __init__(self, *args, page, **kwargs):
        super().__init__(*args, **kwargs)
        self.page = page
        choices = version_choices(page)
        for name in self.fields:
            self.fields[name].choices = choices
        self.fields["older"].error_messages["invalid_choice"] = (
            "That is not a version of this post: choose one from the list."
        )
        self.fields["newer"].error_messages = self.fields["older"].error_messages
        if len(choices) > 1:
            self.initial = {"older": choices[1][0], "newer": choices[0][0]}

    def clean(self):
        data = super().clean()
        older, newer = data.get("older"), data.get("newer")
        if older is not None and older == newer:
            raise forms.ValidationError("Choose two different versions to compare.")
        return data

    def comparison_url(self):
        """Wagtail's comparison of the two chosen versions, the older one first."""
        chosen = self.page.revisions.filter(
            pk__in=[self.cleaned_data["older"], self.cleaned_data["newer"]]
        ).order_by("created_at", "pk")
        older, newer = (revision.pk for revision in chosen)
        return reverse("wagtailadmin_pages:revisions_compare", args=[self.page.pk, older, newer])


def compare_versions_form(page):
    """The form History shows above its rows, or None when there is nothing to compare."""
    form = CompareVersionsForm(page=page)
    return form if len(form.fields["older"].choices) > 1 else None
