"""Admin screens of the editor's toolkit: a post's share links and the editorial calendar."""

import re
from datetime import date, timedelta

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.permission_policies.pages import PagePermissionPolicy

from ..models import BlogPage
from ..reading import reading_minutes
from ..share_links import SHARE_LINK_DAYS, DraftShareLink
from .featuring import in_slot, set_featured, when_it_takes_the_slot
from .overview import GOES_LIVE, in_editor_zone, month_weeks, next_month
from .rescheduling import (
    CannotReschedule,
    RescheduleForm,
    dialog_id,
    reschedule,
    version_to_reschedule,
)

# Months before 2000 or after 2100 are typos, not plans.
MIN_YEAR, MAX_YEAR = 2000, 2100
MONTH_PARAMETER = re.compile(r"(?P<year>\d{4})-(?P<month>0[1-9]|1[0-2])", re.ASCII)

VALID_FOR_CHOICES = [(1, "1 day"), (3, "3 days"), (7, "7 days"), (14, "14 days"), (30, "30 days")]


class ShareLinkForm(forms.Form):
    valid_for_days = forms.TypedChoiceField(
        label="Link works for",
        choices=VALID_FOR_CHOICES,
        coerce=int,
        initial=SHARE_LINK_DAYS,
        help_text="After this the link stops working. You can also switch it off sooner.",
    )


def post_the_user_may(request, page_id, may=lambda rights: rights.can_edit()):
    """The post, if the signed-in user's rights on it allow `may` (editing by default)."""
    post = get_object_or_404(BlogPage, pk=page_id)
    if not may(post.permissions_for_user(request.user)):
        raise PermissionDenied
    return post


class ShareLinksView(WagtailAdminTemplateMixin, TemplateView):
    """One post's review links: make a new one, copy one, switch one off."""

    template_name = "blog/admin/share_links.html"
    header_icon = "link"
    page_title = "Share draft"

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        self.blog_post = post_the_user_may(request, kwargs["page_id"])

    def get_page_subtitle(self):
        return self.blog_post.get_admin_display_title()

    def get_breadcrumbs_items(self):
        return [
            *self.breadcrumbs_items,
            {
                "url": reverse("wagtailadmin_pages:edit", args=[self.blog_post.pk]),
                "label": self.blog_post,
            },
            {"url": "", "label": "Share draft"},
        ]

    def get_context_data(self, form=None, **kwargs):
        context = super().get_context_data(**kwargs)
        links = self.blog_post.share_links.select_related("created_by")
        context.update(
            post=self.blog_post,
            form=form or ShareLinkForm(),
            links=[
                {
                    "link": link,
                    "url": self.request.build_absolute_uri(link.get_absolute_url()),
                    "expires": in_editor_zone(link.expires_at),
                    "created": in_editor_zone(link.created_at),
                }
                for link in links
            ],
        )
        return context

    def post(self, request, *args, **kwargs):
        form = ShareLinkForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        now = timezone.now()
        link = DraftShareLink.objects.create(
            page=self.blog_post,
            created_by=request.user,
            created_at=now,
            expires_at=now + timedelta(days=form.cleaned_data["valid_for_days"]),
        )
        messages.success(
            request,
            f"Share link created. Anyone with it can read the newest draft until "
            f"{in_editor_zone(link.expires_at)}.",
        )
        return redirect("blog_share_links", page_id=self.blog_post.pk)


@require_POST
def revoke_share_link(request, pk):
    """Switch a link off at once; the reviewer then gets a 'not found' page."""
    link = get_object_or_404(DraftShareLink, pk=pk)
    post_the_user_may(request, link.page_id)
    link.revoke()
    messages.success(request, "Share link switched off. It now shows a 'not found' page.")
    return redirect("blog_share_links", page_id=link.page_id)


class CalendarView(WagtailAdminTemplateMixin, TemplateView):
    """A month of what was published, what goes live and what expires, day by day."""

    template_name = "blog/admin/calendar.html"
    header_icon = "date"
    page_title = "Editorial calendar"

    def get_breadcrumbs_items(self):
        return [*self.breadcrumbs_items, {"url": "", "label": self.page_title}]

    def shown_month(self, this_month):
        """The month asked for with ?month=YYYY-MM, or this one. A value we cannot read gets
        this month and a word why, not an error page: it most likely came from a typed URL."""
        asked = self.request.GET.get("month")
        if asked is None:
            return this_month
        match = MONTH_PARAMETER.fullmatch(asked)
        if match and MIN_YEAR <= int(match["year"]) <= MAX_YEAR:
            return date(int(match["year"]), int(match["month"]), 1)
        messages.warning(
            self.request,
            f"The calendar shows months from {MIN_YEAR} to {MAX_YEAR}, written like"
            f" {this_month:%Y-%m}. Here is this month instead.",
        )
        return this_month

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        this_month = timezone.localdate().replace(day=1)
        month = self.shown_month(this_month)
        previous = (month - timedelta(days=1)).replace(day=1)
        following = next_month(month)
        weeks = month_weeks(self.request.user, month)
        offer_rescheduling(weeks, self.request.user)
        context.update(
            month=month,
            weeks=weeks,
            previous_month=previous if previous.year >= MIN_YEAR else None,
            next_month=following if following.year <= MAX_YEAR else None,
            is_this_month=month == this_month,
            time_zone=timezone.get_current_timezone_name(),
        )
        return context


def offer_rescheduling(weeks, user):
    """Give each go-live the user may move a form for it (one query for the whole month)."""
    going_live = [entry for week in weeks for day in week for entry in day.entries]
    going_live = [entry for entry in going_live if entry.kind == GOES_LIVE]
    publishable = set(
        PagePermissionPolicy()
        .instances_user_has_permission_for(user, "publish")
        .filter(pk__in=[entry.post.pk for entry in going_live])
        .values_list("pk", flat=True)
    )
    for entry in going_live:
        if entry.post.pk in publishable:
            entry.reschedule_form = RescheduleForm(
                post=entry.post, initial={"go_live_at": timezone.localtime(entry.at)}
            )
            entry.dialog_id = dialog_id(entry.post)


@require_POST
def reschedule_post(request, page_id):
    """Move a scheduled post's go-live from the calendar, under the rules of the editor's
    "Schedule to publish": a Publisher's right, a time ahead and before the expiry."""
    post = post_the_user_may(request, page_id, may=lambda rights: rights.can_publish())
    try:
        version = version_to_reschedule(post, request.user)
    except CannotReschedule as reason:
        messages.error(request, str(reason))
        return redirect("blog_calendar")
    form = RescheduleForm(request.POST, post=post, expire_at=version.expire_at)
    if not form.is_valid():
        title = post.get_admin_display_title()
        problems = " ".join(error for errors in form.errors.values() for error in errors)
        messages.error(request, f"“{title}” keeps its go-live time. {problems}")
        return redirect(calendar_of(post.scheduled_revision.approved_go_live_at))
    go_live_at = form.cleaned_data["go_live_at"]
    messages.success(request, reschedule(post, version, go_live_at, request.user))
    return redirect(calendar_of(go_live_at))


def calendar_of(moment):
    return f"{reverse('blog_calendar')}?month={timezone.localtime(moment):%Y-%m}"


class FeaturePostView(WagtailAdminTemplateMixin, TemplateView):
    """Feature a post, or stop featuring it, after reading what readers will see."""

    template_name = "blog/admin/feature_post.html"
    header_icon = "pick"

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        # Featuring changes what readers see: a publisher's right.
        self.blog_post = post_the_user_may(
            request, kwargs["page_id"], may=lambda rights: rights.can_publish()
        )

    def get_page_title(self):
        return "Stop featuring" if self.blog_post.featured else "Feature this post"

    def get_page_subtitle(self):
        return self.blog_post.get_admin_display_title()

    def next_url(self):
        target = self.request.POST.get("next") or self.request.GET.get("next") or ""
        if url_has_allowed_host_and_scheme(target, {self.request.get_host()}):
            return target
        return reverse("wagtailadmin_pages:edit", args=[self.blog_post.pk])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        post = self.blog_post
        context.update(
            post=post,
            shown=in_slot(post.get_parent().specific),
            when=when_it_takes_the_slot(post),
            next_url=self.next_url(),
        )
        return context

    def post(self, request, *args, **kwargs):
        featured = request.POST.get("featured") == "yes"
        messages.success(request, set_featured(self.blog_post, request.user, featured))
        return redirect(self.next_url())


@require_POST
def body_word_count(request):
    """The words of a post's body as the editor's form holds it now, counted by the model's own
    rule (static/js/word-count.js shows it above the body and in the preview's Checks)."""
    stream_block = BlogPage._meta.get_field("body").stream_block
    try:
        body = stream_block.value_from_datadict(request.POST, request.FILES, "body")
    except (KeyError, ValueError, TypeError):
        return HttpResponseBadRequest("Send the post editor's form.")
    words = BlogPage(body=body).word_count()
    return JsonResponse({"words": words, "minutes": reading_minutes(words)})
