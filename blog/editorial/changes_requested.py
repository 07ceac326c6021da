"""What the author meets after a Publisher requests changes: the request and its comment at the
top of the editor, and one way on, "Send back for review".

Wagtail tells the author only by e-mail or behind ⓘ → View details, and offers three buttons
(Cancel review, Restart workflow, Resubmit to Publisher review) where the author means one:
send the post back to the step that asked for the changes (Wagtail's resubmit).
"""

from django.contrib import messages
from django.utils import timezone
from django.utils.html import format_html
from wagtail import hooks
from wagtail.admin.action_menu import (
    CancelWorkflowMenuItem,
    RestartWorkflowMenuItem,
    SubmitForModerationMenuItem,
)
from wagtail.models import WorkflowState

from ..models import BlogPage

SEND_BACK = "Send back for review"


def changes_requested(page):
    """The review step that asked for changes, or None when the post is not waiting for them."""
    state = page.current_workflow_state
    if state is None or state.status != WorkflowState.STATUS_NEEDS_CHANGES:
        return None
    return state.current_task_state


@hooks.register("before_edit_page")
def show_the_request_at_the_top(request, page):
    if request.method != "GET" or not isinstance(page, BlogPage):
        return
    step = changes_requested(page)
    if step is None:
        return
    reviewer = step.finished_by
    who = (reviewer.get_full_name() or reviewer.get_username()) if reviewer else "A Publisher"
    when = f"{timezone.localtime(step.finished_at):%-d %b, %H:%M}" if step.finished_at else ""
    comment = (step.comment or "").strip()
    messages.warning(
        request,
        format_html(
            "{} requested changes{}{}. Make them, then choose “{}”.",
            who,
            f" on {when}" if when else "",
            format_html(": “{}”", comment) if comment else "",
            SEND_BACK,
        ),
        extra_tags="changes-requested",
    )


@hooks.register("construct_page_action_menu")
def one_way_back_to_review(menu_items, request, context):
    page = context.get("page")
    if not isinstance(page, BlogPage) or context.get("view") != "edit":
        return
    if changes_requested(page) is None:
        return
    menu_items[:] = [
        item
        for item in menu_items
        if not isinstance(item, CancelWorkflowMenuItem | RestartWorkflowMenuItem)
    ]
    # First in the menu is the footer's main button.
    for position, item in enumerate(menu_items):
        if isinstance(item, SubmitForModerationMenuItem):
            menu_items.insert(0, menu_items.pop(position))
            break
