from django.conf import settings
from django.urls import include, path
from django.views.decorators.cache import never_cache
from wagtail import urls as wagtail_urls
from wagtail.admin import urls as wagtailadmin_urls
from wagtail.admin.auth import require_admin_access
from wagtail.documents import get_document_model
from wagtail.documents import urls as wagtaildocs_urls
from wagtail.documents.views import documents as document_views
from wagtail.documents.views import multiple as multiple_document_views
from wagtail.images import get_image_model
from wagtail.images.views import images as image_views
from wagtail.images.views import multiple as multiple_image_views

from blog.editorial.page_privacy import ChosenPagesView, choose_page_under, page_bulk_action
from blog.views import shared_draft
from home import health, security
from home.live_media import guarded_bulk_delete, guarded_delete

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    # Shadows Wagtail's own reset view (same address) with a rate-limited one.
    path("admin/password_reset/", security.password_reset, name="password_reset"),
    # Shadows Wagtail's view (same address), which answered 500 when sent the tree's root and
    # named any page sent to it.
    path(
        "admin/choose-page/chosen-multiple/",
        never_cache(require_admin_access(ChosenPagesView.as_view())),
        name="wagtailadmin_choose_page_chosen_multiple",
    ),
    # Shadow Wagtail's chooser on a page and its page bulk actions (same addresses), which
    # named any page, draft titles included, to anyone with admin access.
    path(
        "admin/choose-page/<int:parent_page_id>/",
        never_cache(require_admin_access(choose_page_under)),
        name="wagtailadmin_choose_page_child",
    ),
    path(
        "admin/bulk/wagtailcore/page/<str:action>/",
        never_cache(require_admin_access(page_bulk_action)),
    ),
    # Shadow Wagtail's delete views for pictures and documents (same addresses): what a live post
    # uses is deleted only by someone who may publish it (home/live_media.py).
    path(
        "admin/images/<int:image_id>/delete/",
        never_cache(
            require_admin_access(
                guarded_delete(
                    image_views.DeleteView.as_view(),
                    get_image_model,
                    "image_id",
                    "wagtailimages:edit",
                )
            )
        ),
    ),
    path(
        "admin/documents/delete/<int:document_id>/",
        never_cache(
            require_admin_access(
                guarded_delete(
                    document_views.DeleteView.as_view(),
                    get_document_model,
                    "document_id",
                    "wagtaildocs:edit",
                )
            )
        ),
    ),
    path(
        "admin/images/multiple/<int:image_id>/delete/",
        never_cache(
            require_admin_access(
                guarded_delete(
                    multiple_image_views.DeleteView.as_view(),
                    get_image_model,
                    "image_id",
                    "wagtailimages:edit",
                )
            )
        ),
    ),
    path(
        "admin/documents/multiple/<int:doc_id>/delete/",
        never_cache(
            require_admin_access(
                guarded_delete(
                    multiple_document_views.DeleteView.as_view(),
                    get_document_model,
                    "doc_id",
                    "wagtaildocs:edit",
                )
            )
        ),
    ),
    path(
        "admin/bulk/wagtailimages/image/delete/",
        never_cache(require_admin_access(guarded_bulk_delete(get_image_model))),
    ),
    path(
        "admin/bulk/wagtaildocs/document/delete/",
        never_cache(require_admin_access(guarded_bulk_delete(get_document_model))),
    ),
    path("admin/", include(wagtailadmin_urls)),
    # Shadows Wagtail's collection-password view (same address) with a rate-limited one.
    path(
        "documents/authenticate_with_password/<int:restriction_id>/",
        security.document_password,
        name="wagtaildocs_authenticate_with_password",
    ),
    path("documents/", include(wagtaildocs_urls)),
    path("search/", include("search.urls")),
    path("share/<str:token>/", shared_draft, name="blog_shared_draft"),
    path("", include("blog.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

urlpatterns += [
    # Shadows Wagtail's page-password view (same address) with a rate-limited one.
    path(
        "_util/authenticate_with_password/<int:page_view_restriction_id>/<int:page_id>/",
        security.page_password,
        name="wagtailcore_authenticate_with_password",
    ),
    path("", include(wagtail_urls)),
]

# A database outage answers 503 with Retry-After instead of a generic 500 (home/errors.py).
handler500 = "home.errors.server_error"
