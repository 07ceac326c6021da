"""What the editor is told after saving, publishing, submitting, approving, unpublishing or
deleting a post: in the post's words, and what readers will see (and when, in the editor's own
time zone).

Wagtail says "Page 'X' has been updated" after a save, a publish that only scheduled the post and
an approval alike, "has been scheduled for publishing" without a time, and nothing about a
go-live that still waits for a Publisher. Its page views add their success message and then run
the after_* hooks; the hooks here replace that message (the unpublish view adds its message after
its hook, so that hook answers with the view's own redirect instead).
"""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from wagtail import hooks
from wagtail.admin import messages as admin_messages
from wagtail.admin.action_menu import PageLockedMenuItem, WorkflowMenuItem
from wagtail.admin.utils import get_valid_next_url_from_request

from ..models import BlogPage
from ..revisions import ScheduledPostLock
from .autosave import saved_in_place
from .overview import in_editor_zone


def schedule_phrase(go_live_at, expire_at):
    """'for 12 Mar 2027, 09:30 Europe/Berlin and to be taken down on …'"""
    parts = []
    if go_live_at:
        parts.append(f"for {in_editor_zone(go_live_at)}")
    if expire_at:
        parts.append(f"to be taken down on {in_editor_zone(expire_at)}")
    return " and ".join(parts)


def ahead(moment):
    return moment if moment and moment > timezone.now() else None


def post_message(request, page):
    """The sentence that replaces Wagtail's after the editor's save, publish or review step."""
    post = type(page).objects.get(pk=page.pk)
    latest = post.get_latest_revision_as_object()
    title = f"“{latest.get_admin_display_title()}”"
    return schedule_message(request, post, latest, title) or outcome_message(request, post, title)


def schedule_message(request, post, latest, title):
    """When readers will see the post, or None where it has no schedule ahead."""
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
        return None  # changes requested or review cancelled: said by outcome_message
    when = schedule_phrase(ahead(latest.go_live_at), ahead(latest.expire_at))
    if not when:
        return None
    done = "submitted for review" if request.POST.get("action-submit") else "saved as a draft"
    if post.workflow_in_progress or not post.permissions_for_user(request.user).can_publish():
        who = "a Publisher approves it"
    else:
        who = "you choose “Schedule to publish”"
    return f"{title} has been {done}. It will be scheduled {when} once {who}."


def outcome_message(request, post, title):
    """What happened and what readers see now, for a post with no schedule ahead."""
    where = post.get_url(request)
    live_now = post.live and post.live_revision_id == post.latest_revision_id
    readers = (
        f"Readers still see the published version at {where}."
        if post.live
        else "Readers don't see it until it is published."
    )
    if request.POST.get("action-cancel-workflow"):
        return f"Review of {title} cancelled: it is a draft again. {readers}"
    if request.POST.get("action-workflow-action"):
        if live_now:
            return f"{title} is approved and published. Readers see it at {where}."
        if post.workflow_in_progress:
            return f"{title} is approved at this step and waits for the next review. {readers}"
        return f"Changes requested on {title}: it is a draft again. {readers}"
    if request.POST.get("action-publish"):
        return f"{title} is published. Readers see it at {where}."
    if request.POST.get("action-submit") or request.POST.get("action-restart-workflow"):
        return f"{title} is submitted for review. {readers.replace('published', 'approved')}"
    if live_now:
        return f"No changes to save in {title}. Readers see it at {where}."
    if post.live:
        return f"Draft of {title} saved. {readers}"
    return f"{title} saved as a draft. {readers}"


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
def say_what_readers_see(request, page):
    if saved_in_place(request):
        # Wagtail answers with JSON and its side panels; the editor's partials template
        # (templates/wagtailadmin/pages/edit_partials.html) carries the message in them.
        request.saved_in_place_message = (
            post_message(request, page)
            if isinstance(page, BlogPage)
            # Wagtail's own words after a save, for the blog and home pages.
            else gettext("Page '%(page_title)s' has been updated.")
            % {"page_title": page.get_admin_display_title()}
        )
        return
    if not isinstance(page, BlogPage):
        return
    # Autosave asks for JSON and is told nothing; neither is it here.
    if not request.accepts("text/html"):
        return
    saved_only = not any(key.startswith("action-") for key in request.POST)
    edit_url = reverse("wagtailadmin_pages:edit", args=[page.pk])
    buttons = [] if saved_only else [admin_messages.button(edit_url, "Edit")]
    replace_success_message(request, post_message(request, page), buttons)


@hooks.register("after_delete_page", order=-100)
def say_the_post_is_gone(request, page):
    if isinstance(page, BlogPage):
        text = f"“{page.get_admin_display_title()}” is deleted. Readers no longer see it."
        replace_success_message(request, text, [])


@hooks.register("after_unpublish_page", order=100)
def say_the_post_is_taken_down(request, page):
    """Wagtail's unpublish view adds "Page 'X' unpublished." after this hook, unless the hook
    answers: the answer is the view's own redirect, with the post's message."""
    if not isinstance(page, BlogPage):
        return None
    where = page.get_url(request)
    text = (
        f"“{page.get_admin_display_title()}” is unpublished: readers no longer see it, and "
        f"{where} answers “not found”. It is kept as a draft."
    )
    edit_url = reverse("wagtailadmin_pages:edit", args=[page.pk])
    admin_messages.success(request, text, buttons=[admin_messages.button(edit_url, "Edit")])
    parent = page.get_parent()
    return redirect(
        get_valid_next_url_from_request(request)
        or reverse("wagtailadmin_explore", args=[parent.pk])
    )


@hooks.register("construct_page_action_menu")
def approve_and_schedule(menu_items, request, context):
    """'Approve and schedule' where Wagtail says 'Approve and publish' but the post's saved
    go-live is ahead: approving schedules it, as its Publish button says 'Schedule to publish'."""
    page = context.get("page")
    if not isinstance(page, BlogPage) or not ahead(page.go_live_at):
        return
    # Wagtail's wording, as the project's catalogue (config/locale/) words it.
    and_publish = gettext("%(label)s and Publish") % {"label": ""}
    for item in menu_items:
        label = str(getattr(item, "label", ""))
        if isinstance(item, WorkflowMenuItem) and label.endswith(and_publish):
            item.label = label.removesuffix(and_publish) + " and schedule"


@hooks.register("construct_page_action_menu")
def scheduled_not_locked(menu_items, request, context):
    """Wagtail's disabled "Page locked" button on a post waiting for its go-live says when it
    goes live instead (the banner above offers Unschedule)."""
    page = context.get("page")
    if not isinstance(page, BlogPage) or not isinstance(context.get("lock"), ScheduledPostLock):
        return
    for item in menu_items:
        if isinstance(item, PageLockedMenuItem):
            item.label = f"Scheduled for {context['lock'].when()}"
            item.template_name = "blog/admin/action_menu/scheduled.html"
