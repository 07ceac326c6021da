"""What the editor is told after saving, publishing or approving a post with a schedule: when
readers will see it, in the editor's own time zone.

Wagtail says "has been scheduled for publishing" without a time, "has been updated" after an
approval that scheduled the post, and nothing about a go-live that still waits for a Publisher.
Its page edit and create views add their success message and then run the after_edit_page /
after_create_page hooks; the hook here replaces that message.
"""

from django.contrib import messages
from django.urls import reverse
from django.utils import timezone
from wagtail import hooks
from wagtail.admin import messages as admin_messages
from wagtail.admin.action_menu import WorkflowMenuItem

from .editorial import in_editor_zone
from .models import BlogPage


def schedule_phrase(go_live_at, expire_at):
    """'to go live on 12 Mar 2027, 09:30 Europe/Berlin and to be taken down on …'"""
    parts = []
    if go_live_at:
        parts.append(f"to go live on {in_editor_zone(go_live_at)}")
    if expire_at:
        parts.append(f"to be taken down on {in_editor_zone(expire_at)}")
    return " and ".join(parts)


def ahead(moment):
    return moment if moment and moment > timezone.now() else None


def schedule_message(request, page):
    """The sentence that replaces Wagtail's, or None where the post has no schedule ahead."""
    post = type(page).objects.get(pk=page.pk)
    latest = post.get_latest_revision_as_object()
    title = f"“{latest.get_admin_display_title()}”"
    scheduled = post.scheduled_revision
    if scheduled and scheduled.pk == post.latest_revision_id:
        # Just published or approved with a go-live ahead: waiting for the scheduler.
        when = schedule_phrase(scheduled.approved_go_live_at, ahead(latest.expire_at))
        if post.live:
            return f"{title} is live; this version is scheduled {when}."
        return f"{title} is scheduled {when}."
    if post.live and post.live_revision_id == post.latest_revision_id:
        if expire_at := ahead(post.expire_at):
            return f"{title} is live and is scheduled {schedule_phrase(None, expire_at)}."
        return None
    if request.POST.get("action-workflow-action") or request.POST.get("action-cancel-workflow"):
        return None  # changes requested or review cancelled: Wagtail's message says so
    when = schedule_phrase(ahead(latest.go_live_at), ahead(latest.expire_at))
    if not when:
        return None
    done = "submitted for review" if request.POST.get("action-submit") else "saved as a draft"
    if post.workflow_in_progress or not post.permissions_for_user(request.user).can_publish():
        who = "a Publisher approves it"
    else:
        who = "you choose “Schedule to publish”"
    return f"{title} has been {done}. It will be scheduled {when} once {who}."


def replace_success_message(request, text, buttons):
    """Swap the view's success message (the last one added) for `text`, keeping the others."""
    # Iterating the storage marks every message read; only those added again are kept.
    kept = list(messages.get_messages(request))
    successes = [i for i, message in enumerate(kept) if message.level == messages.SUCCESS]
    if successes:
        del kept[successes[-1]]
    for message in kept:
        messages.add_message(request, message.level, message.message, message.extra_tags)
    admin_messages.success(request, text, buttons=buttons)


# Runs before any other after_edit_page hook, so the view's message is still the last one.
@hooks.register("after_create_page", order=-100)
@hooks.register("after_edit_page", order=-100)
def say_when_readers_see_the_post(request, page):
    # Autosave asks for JSON and is told nothing; neither is it here.
    if not isinstance(page, BlogPage) or not request.accepts("text/html"):
        return
    text = schedule_message(request, page)
    if text is None:
        return
    saved_only = not any(key.startswith("action-") for key in request.POST)
    edit_url = reverse("wagtailadmin_pages:edit", args=[page.pk])
    buttons = [] if saved_only else [admin_messages.button(edit_url, "Edit")]
    replace_success_message(request, text, buttons)


@hooks.register("construct_page_action_menu")
def approve_and_schedule(menu_items, request, context):
    """'Approve and schedule' where Wagtail says 'Approve and Publish' but the post's saved
    go-live is ahead: approving schedules it, as its Publish button says 'Schedule to publish'."""
    page = context.get("page")
    if not isinstance(page, BlogPage) or not ahead(page.go_live_at):
        return
    for item in menu_items:
        label = str(getattr(item, "label", ""))
        if isinstance(item, WorkflowMenuItem) and label.endswith(" and Publish"):
            item.label = label.removesuffix(" and Publish") + " and schedule"
