"""What readers see of a live post changes only through someone who may publish it: a picture
or document that a live page uses may have its file replaced, or be deleted, only by a person
who may publish every live page using it (issue 31, finding 1). An Editor who uploaded the hero
of a live post could otherwise swap it for readers without review.

Wagtail's reference index knows what uses what (a hero's foreign key, pictures and document
links in a body); its edit forms get the signed-in user, and its delete views are shadowed at
the same addresses (config/urls.py)."""

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from wagtail.admin.views.bulk_action import index as wagtail_bulk_action
from wagtail.models import Page, ReferenceIndex


def live_pages_needing_a_publisher(user, item):
    """The live pages using `item` that `user` may not publish (empty when nothing blocks)."""
    if user is None or user.is_superuser or item.pk is None:
        return []
    # The index keeps object ids as text: the pages among the item's users, then the live ones,
    # in one query each (not one per user, as iterating item.get_usage() would).
    page_ids = (
        ReferenceIndex.get_references_to(item)
        .filter(base_content_type=ContentType.objects.get_for_model(Page))
        .values_list("object_id", flat=True)
    )
    pages = Page.objects.live().filter(pk__in=[int(pk) for pk in page_ids])
    return [page for page in pages if not page.permissions_for_user(user).can_publish()]


def refusal(item, pages, doing):
    titles = ", ".join(f"“{page.title}”" for page in pages[:3])
    more = f" and {len(pages) - 3} more" if len(pages) > 3 else ""
    live = "post" if len(pages) == 1 else "posts"
    return (
        f"Only a Publisher may {doing} “{item.title}”: the live {live} {titles}{more} show it "
        f"to readers."
    )


class LiveFileGuard:
    """Mixed into the image and document forms: replacing the file of something live content
    uses is a form error unless the user may publish that content."""

    def __init__(self, *args, **kwargs):
        self.guarded_user = kwargs.get("user")
        super().__init__(*args, **kwargs)

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and "file" in self.changed_data:
            blocking = live_pages_needing_a_publisher(self.guarded_user, self.instance)
            if blocking:
                self.add_error("file", refusal(self.instance, blocking, "replace the file of"))
        return cleaned


def guarded_delete(wagtail_view, model, id_name, edit_url_name):
    """Wagtail's delete view for `model`, refused with a message on the item's edit page when a
    live post the user may not publish uses it."""

    def view(request, **kwargs):
        item = get_object_or_404(model(), pk=kwargs[id_name])
        blocking = live_pages_needing_a_publisher(request.user, item)
        if blocking:
            messages.error(request, refusal(item, blocking, "delete"))
            return redirect(reverse(edit_url_name, args=[item.pk]))
        return wagtail_view(request, **kwargs)

    return view


def guarded_bulk_delete(model):
    """Wagtail's bulk delete for `model`, leaving out (with a message) what live posts the user
    may not publish use."""

    def view(request):
        query = request.GET.copy()
        asked = [value for value in query.getlist("id") if value.isdigit()]
        items = model().objects.filter(pk__in=asked)
        blocked = {}
        for item in items:
            pages = live_pages_needing_a_publisher(request.user, item)
            if pages:
                blocked[str(item.pk)] = (item, pages)
        if blocked:
            for item, pages in blocked.values():
                messages.error(request, refusal(item, pages, "delete"))
            query.setlist("id", [value for value in asked if value not in blocked])
            request.GET = query
        meta = model()._meta
        return wagtail_bulk_action(request, meta.app_label, meta.model_name, "delete")

    return view
