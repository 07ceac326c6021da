"""What of the page tree a signed-in person sees in the admin: the pages they may explore
(those they hold a page permission on, and the path down to them). Wagtail's page chooser and
its bulk-action confirmations list any page by id to anyone with admin access, draft titles
included; here they show only those pages (issue 31, finding 4)."""

from django.http import Http404
from wagtail.admin.views import chooser
from wagtail.admin.views.bulk_action import index as wagtail_bulk_action
from wagtail.models import Page
from wagtail.permission_policies.pages import PagePermissionPolicy


def pages_seen_by(user):
    """The pages this person may see anything of in the admin."""
    return PagePermissionPolicy().explorable_instances(user)


def only_pages_seen(pages, request):
    """construct_page_chooser_queryset: the chooser's lists and search keep to those pages."""
    if request.user.is_superuser:
        return pages
    return pages.filter(pk__in=pages_seen_by(request.user).values("pk"))


def choose_page_under(request, parent_page_id):
    """Wagtail's chooser opened on a page, which it names in its header: only on a page this
    person may see."""
    user = request.user
    if not user.is_superuser and not pages_seen_by(user).filter(pk=parent_page_id).exists():
        raise Http404
    return chooser.BrowseView.as_view()(request, parent_page_id=parent_page_id)


class ChosenPagesView(chooser.ChosenMultipleView):
    """Wagtail's answer to pages ticked in the page chooser, which names each page sent: only
    pages this person may see, and never the tree's root (it has no parent, and Wagtail's view
    answered 500 when a hand-edited address sent its id; nobody can choose it)."""

    def get(self, request):
        pages = Page.objects.filter(pk__in=request.GET.getlist("id"), depth__gt=1)
        if not request.user.is_superuser:
            pages = pages.filter(pk__in=pages_seen_by(request.user).values("pk"))
        request.GET = request.GET.copy()
        request.GET.setlist("id", [str(pk) for pk in pages.values_list("pk", flat=True)])
        return super().get(request)


def page_bulk_action(request, action):
    """Wagtail's page bulk actions, confirming only pages this person may see: the others are
    left out as if their ids had not been sent, so no title of theirs is shown."""
    if not request.user.is_superuser:
        seen = pages_seen_by(request.user)
        query = request.GET.copy()
        asked = [value for value in query.getlist("id") if value.isdigit()]
        query.setlist(
            "id",
            [str(pk) for pk in seen.filter(pk__in=asked).values_list("pk", flat=True)]
            if asked
            else [value for value in query.getlist("id") if value == "all"],
        )
        child_of = query.get("childOf")
        if child_of and not (child_of.isdigit() and seen.filter(pk=child_of).exists()):
            raise Http404
        request.GET = query
    return wagtail_bulk_action(request, Page._meta.app_label, "page", action)
