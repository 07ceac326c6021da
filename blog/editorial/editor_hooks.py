"""Admin hooks for the editor's toolkit: the Posts overview, the calendar, share links,
featuring and the blog's content checks. Loaded from wagtail_hooks.py."""

from urllib.parse import urlsplit

from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.admin.ui.menus.pages import PageMenuItem
from wagtail.permission_policies.pages import PagePermissionPolicy
from wagtail_modeladmin.options import modeladmin_register

from ..importing.admin_views import ImportPostsView, ImportRunProgressView, ImportRunView
from ..models import BlogPage
from .admin_views import (
    CalendarView,
    FeaturePostView,
    ShareLinksView,
    body_word_count,
    reschedule_post,
    revoke_share_link,
)
from .content_checks import use_blog_content_checks
from .featuring import FEATURE, UNFEATURE
from .page_privacy import only_pages_seen
from .post_words import POSTS_LIST
from .posts_admin import PostsAdmin
from .versions import CompareVersionsView

modeladmin_register(PostsAdmin)


@hooks.register("register_admin_urls")
def register_editor_toolkit_urls():
    return [
        path("calendar/", CalendarView.as_view(), name="blog_calendar"),
        path(
            "blog/posts/<int:page_id>/share-links/",
            ShareLinksView.as_view(),
            name="blog_share_links",
        ),
        path(
            "blog/posts/<int:page_id>/compare/",
            CompareVersionsView.as_view(),
            name="blog_compare_versions",
        ),
        path(
            "blog/posts/<int:page_id>/feature/",
            FeaturePostView.as_view(),
            name="blog_feature_post",
        ),
        path("blog/import/", ImportPostsView.as_view(), name="blog_import_posts"),
        path("blog/import/<int:run_id>/", ImportRunView.as_view(), name="blog_import_run"),
        path(
            "blog/import/<int:run_id>/progress/",
            ImportRunProgressView.as_view(),
            name="blog_import_run_progress",
        ),
        path(
            "blog/posts/<int:page_id>/reschedule/",
            reschedule_post,
            name="blog_reschedule_post",
        ),
        path("blog/posts/word-count/", body_word_count, name="blog_body_word_count"),
        path(
            "blog/share-links/<int:pk>/revoke/",
            revoke_share_link,
            name="blog_share_link_revoke",
        ),
    ]


@hooks.register("register_admin_menu_item")
def register_calendar_menu_item():
    return MenuItem(
        "Calendar", reverse("blog_calendar"), icon_name="date", name="calendar", order=160
    )


class PublishersMenuItem(MenuItem):
    def is_shown(self, request):
        # The menu is on every admin screen: Wagtail's page rights, already read for the
        # explorer, rather than a query per screen. The import view checks the blog itself.
        return PagePermissionPolicy().user_has_permission(request.user, "publish")


@hooks.register("register_admin_menu_item")
def register_import_menu_item():
    return PublishersMenuItem(
        "Import posts", reverse("blog_import_posts"), icon_name="download", name="import", order=900
    )


class ShareDraftMenuItem(PageMenuItem):
    label = "Share draft"
    icon_name = "link"
    url_name = "blog_share_links"
    priority = 25

    def is_shown(self, user):
        return self.page.permissions_for_user(user).can_edit()


class FeatureMenuItem(PageMenuItem):
    icon_name = "pick"
    url_name = "blog_feature_post"
    priority = 26

    def is_shown(self, user):
        return self.page.permissions_for_user(user).can_publish()


hooks.register("construct_page_chooser_queryset", only_pages_seen)


@hooks.register("register_page_header_buttons")
def register_share_draft_header_button(page, user, view_name, next_url=None):
    if issubclass(page.specific_class or type(page), BlogPage):
        yield ShareDraftMenuItem(page=page)
        featured = page.specific_deferred.featured
        yield FeatureMenuItem("Stop featuring" if featured else "Feature this post", page=page)


@hooks.register("register_log_actions")
def register_featuring_log_actions(actions):
    actions.register_action(FEATURE, "Feature", "Featured at the top of the blog")
    actions.register_action(UNFEATURE, "Stop featuring", "No longer featured")


@hooks.register("register_page_listing_more_buttons")
def register_share_draft_listing_button(page, user, next_url=None):
    if issubclass(page.specific_class or type(page), BlogPage):
        yield ShareDraftMenuItem(page=page)


@hooks.register("construct_wagtail_userbar")
def register_blog_content_checks(request, items, page):
    use_blog_content_checks(items)


@hooks.register("insert_editor_js")
def editor_feedback_js():
    return format_html('<script src="{}"></script>', static("js/editor-feedback.js"))


@hooks.register("insert_editor_js")
def editor_width_css():
    # After Wagtail's stylesheets, for the reason given in table_editor_assets below.
    return format_html('<link rel="stylesheet" href="{}">', static("css/editor-widths.css"))


@hooks.register("insert_editor_js")
def table_editor_assets():
    # Wagtail 8 has no editor-only CSS hook, and a stylesheet in the head would come before
    # Wagtail's own and lose to it: both go in after the editor's scripts (a stylesheet link is
    # allowed in the body).
    return format_html(
        '<link rel="stylesheet" href="{}"><script src="{}"></script>',
        static("css/table-editor.css"),
        static("js/table-editor.js"),
    )


def screens_a_review_starts_from():
    """The admin screens a Publisher opens a post in review from, and returns to afterwards."""
    return {reverse("wagtailadmin_home"), reverse("blog_calendar"), reverse(POSTS_LIST)}


@hooks.register("before_edit_page")
def remember_where_the_editor_came_from(request, page):
    """The dashboard's "Awaiting your review" and the calendar open a post's editor without
    Wagtail's `next`, so approving it led to the page explorer. Opened from one of them, the
    editor is opened again with `next` naming it: Wagtail returns there after Approve, Publish or
    Submit, and keeps it across Save draft."""
    if request.method != "GET" or "next" in request.GET or not isinstance(page, BlogPage):
        return None
    came_from = request.headers.get("referer", "")
    if not url_has_allowed_host_and_scheme(came_from, {request.get_host()}):
        return None
    where = urlsplit(came_from)
    if where.path not in screens_a_review_starts_from():
        return None
    back = f"{where.path}?{where.query}" if where.query else where.path
    return redirect(f"{request.path}?{urlencode({'next': back})}")
