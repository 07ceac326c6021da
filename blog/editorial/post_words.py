"""One word for a post: an Editor or Publisher works on posts all day and meets "post" in the
menu and on the dashboard, not Wagtail's "page". The sentences Wagtail offers no hook for are in
config/locale/en/LC_MESSAGES/django.po."""

from django.shortcuts import redirect
from django.urls import reverse
from wagtail import hooks
from wagtail.admin.site_summary import PagesSummaryItem, SummaryItem
from wagtail.admin.utils import get_valid_next_url_from_request
from wagtail.permission_policies.pages import PagePermissionPolicy

from ..models import BlogPage

# wagtail-modeladmin's name for the Posts list (PostsAdmin).
POSTS_LIST = "blog_blogpage_modeladmin_index"


@hooks.register("construct_main_menu")
def hide_the_page_tree_from_editors(request, menu_items):
    """The page explorer lists the home page, the blog and every post in one tree; Editors and
    Publishers have the Posts list for the posts and nothing else to do there. Superusers keep
    it: the home page and the blog page are set up there."""
    if not request.user.is_superuser:
        menu_items[:] = [item for item in menu_items if item.name != "explorer"]


class PostsSummaryItem(SummaryItem):
    order = 100
    template_name = "blog/admin/site_summary_posts.html"

    def get_context_data(self, parent_context):
        workable = PagePermissionPolicy().instances_user_has_any_permission_for(
            self.request.user, ["change", "publish"]
        )
        total = BlogPage.objects.filter(pk__in=workable.values("pk")).count()
        return {"total": total, "posts_url": reverse(POSTS_LIST)}

    def is_shown(self):
        return PagePermissionPolicy().user_has_any_permission(
            self.request.user, ["change", "publish"]
        )


# After wagtail.admin's own hook (order 0), which puts the pages' count first.
@hooks.register("construct_homepage_summary_items", order=1)
def count_posts_on_the_dashboard(request, summary_items):
    """The posts this user works on, linking to the Posts list, in place of every page of the
    site linking to the page tree (still there for superusers, like the tree's menu item)."""
    if not request.user.is_superuser:
        summary_items[:] = [item for item in summary_items if type(item) is not PagesSummaryItem]
    summary_items.append(PostsSummaryItem(request))


# The buttons after which Wagtail leaves the editor for the page explorer (its create and edit
# views' redirect_away); Save draft and Cancel review keep the editor open.
ACTIONS_THAT_LEAVE_THE_EDITOR = (
    "action-publish",
    "action-submit",
    "action-restart-workflow",
    "action-workflow-action",
)


# Last: an answer ends Wagtail's run of these hooks, and the others only take notes.
@hooks.register("after_create_page", order=100)
@hooks.register("after_edit_page", order=100)
def end_on_the_posts_list(request, page):
    """Publish, Submit for review, Approve or Request changes, without a `next` to return to,
    end on the Posts list: Wagtail's end, the page explorer of the blog, lists the blog's posts
    by hundreds in page words ("1-14 of 14 pages", "In moderation")."""
    if not isinstance(page, BlogPage) or not request.accepts("text/html"):
        return None
    if get_valid_next_url_from_request(request):
        return None
    if not any(request.POST.get(action) for action in ACTIONS_THAT_LEAVE_THE_EDITOR):
        return None
    return redirect(POSTS_LIST)
