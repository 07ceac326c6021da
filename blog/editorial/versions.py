"""Compare any two versions of a post, as WordPress's revisions screen does.

Wagtail's History offers "Compare with previous version" and "Compare with current version" per
row, and its compare view takes any two versions of a page (…/revisions/compare/<a>...<b>/).
History gets a small form with two lists of the post's versions (when, who, what was done;
blog/revisions.py); choosing two answers with Wagtail's own comparison of exactly those two,
oldest first. The form sits above History's rows through templates/wagtailadmin/pages/history.html
(Wagtail has no hook there).
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.generic import TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.models import Page

from ..revisions import CompareVersionsForm


def page_the_user_may_edit(request, page_id):
    """The page, if the signed-in user may edit or publish it (Wagtail's rule for History)."""
    page = get_object_or_404(Page, pk=page_id).specific
    rights = page.permissions_for_user(request.user)
    if not (rights.can_edit() or rights.can_publish()):
        raise PermissionDenied
    return page


class CompareVersionsView(WagtailAdminTemplateMixin, TemplateView):
    """Choosing two versions leads to Wagtail's comparison of them; a choice that is not two
    versions of this page is answered 400 with the form and what is wrong."""

    template_name = "blog/admin/compare_versions.html"
    header_icon = "history"
    page_title = "Compare versions"

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        self.page = page_the_user_may_edit(request, kwargs["page_id"])

    def get_page_subtitle(self):
        return self.page.get_admin_display_title()

    def get_breadcrumbs_items(self):
        return [
            *self.breadcrumbs_items,
            {
                "url": reverse("wagtailadmin_pages:edit", args=[self.page.pk]),
                "label": self.page.get_admin_display_title(),
            },
            {
                "url": reverse("wagtailadmin_pages:history", args=[self.page.pk]),
                "label": "History",
            },
            {"url": "", "label": self.page_title},
        ]

    def get(self, request, *args, **kwargs):
        asked = "older" in request.GET or "newer" in request.GET
        form = CompareVersionsForm(request.GET if asked else None, page=self.page)
        if asked and form.is_valid():
            return redirect(form.comparison_url())
        context = self.get_context_data(form=form, page=self.page)
        return self.render_to_response(context, status=400 if asked else 200)
