"""Admin hooks for the editor's toolkit: the Posts overview, the calendar, share links,
featuring and the blog's content checks. Loaded from wagtail_hooks.py."""

from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.html import format_html
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.admin.ui.menus.pages import PageMenuItem
from wagtail.permission_policies.pages import PagePermissionPolicy
from wagtail_modeladmin.options import modeladmin_register

from .admin_views import (
    CalendarView,
    FeaturePostView,
    ShareLinksView,
    reschedule_post,
    revoke_share_link,
)
from .content_checks import use_blog_content_checks
from .editorial_admin import PostsAdmin
from .featuring import FEATURE, UNFEATURE
from .importing.admin_views import ImportPostsView, ImportRunProgressView, ImportRunView
from .models import BlogPage

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
