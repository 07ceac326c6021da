"""The "Posts" section of the admin: every post with its status, filters, search and sorting."""

import math

from django.contrib.admin import SimpleListFilter, display
from django.core.exceptions import ImproperlyConfigured
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.http import urlencode
from wagtail_modeladmin.helpers import PageButtonHelper
from wagtail_modeladmin.options import ModelAdmin
from wagtail_modeladmin.views import IndexView

from ..models import Author, BlogIndexPage, BlogPage, Topic
from ..visibility import visible_to_readers
from .overview import (
    STATUS_LABELS,
    editorial_posts,
    in_editor_zone,
    status_label,
    with_status,
)


class ChoiceFilter(SimpleListFilter):
    """A filter that applies only the choices it offers: any other value shows every post."""

    def chosen(self):
        value = self.value()
        return value if value in dict(self.lookup_choices) else None


class StatusFilter(ChoiceFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return list(STATUS_LABELS.items())

    def queryset(self, request, queryset):
        if status := self.chosen():
            return with_status(queryset, status)
        return queryset


class TopicFilter(ChoiceFilter):
    title = "topic"
    parameter_name = "topic"

    def lookups(self, request, model_admin):
        return [(topic.slug, topic.name) for topic in Topic.objects.order_by("name")]

    def queryset(self, request, queryset):
        if slug := self.chosen():
            return queryset.filter(topic_links__topic__slug=slug).distinct()
        return queryset


class AuthorFilter(ChoiceFilter):
    title = "author"
    parameter_name = "author"

    def lookups(self, request, model_admin):
        return [(author.slug, author.name) for author in Author.objects.order_by("name")]

    def queryset(self, request, queryset):
        if slug := self.chosen():
            return queryset.filter(author_links__author__slug=slug).distinct()
        return queryset


class DeclaredFiltersIndexView(IndexView):
    """A modeladmin list that answers only to the filters and the search it shows.

    wagtail-modeladmin turns every other query parameter into an ORM lookup (it has no
    `lookup_allowed` as Django's admin does), so a URL such as
    `?owner__password__startswith=pbkdf2` became a yes/no oracle on users' password hashes.
    Here such parameters are dropped before they reach the queryset.
    """

    def get_filters_params(self, params=None):
        declared = set()
        for list_filter in self.list_filter:
            if not (isinstance(list_filter, type) and issubclass(list_filter, SimpleListFilter)):
                raise ImproperlyConfigured(
                    f"{type(self.model_admin).__name__}.list_filter: declare each filter as a "
                    "SimpleListFilter class, so that the list knows the parameters it takes."
                )
            declared.add(list_filter.parameter_name)
        params = super().get_filters_params(params)
        return {name: values for name, values in params.items() if name in declared}

    # modeladmin builds the list twice a page (in dispatch and for the template) and its base
    # once more for the total: the filters' choices, the featured slot and the user's rights
    # were each looked up three times. Built once per request; each caller gets a fresh copy.
    @cached_property
    def base_queryset(self):
        return super().get_base_queryset()

    def get_base_queryset(self, request=None):
        posts = self.base_queryset.all()
        # A bound method: Django's paginator calls count only when it takes no arguments but
        # self, and reads every row with len() otherwise (a lambda loaded all 10,000 posts).
        posts.count = self.count_all
        return posts

    @cached_property
    def listed_queryset(self):
        return super().get_queryset()

    def get_queryset(self, request=None):
        posts = self.listed_queryset.all()
        posts.count = self.count_listed
        return posts

    # It also counts the posts three times a page: all of them, those its filters and search
    # leave, and again for its paginator (~17 ms each on SQLite at 10,000 posts). Each number
    # is counted once, and with no filter or search chosen the two are one.
    @cached_property
    def all_count(self):
        return self.base_queryset.count()

    def count_all(self):
        return self.all_count

    @cached_property
    def listed_count(self):
        if not self.query and not self.get_filters_params():
            return self.all_count
        return self.listed_queryset.count()

    def count_listed(self):
        return self.listed_count

    def get_context_data(self, **kwargs):
        # Without ?p= (or past the last page) modeladmin shows the first page but numbers it 0
        # (or as asked), and Wagtail's paginator then links the pages around the last one:
        # "1 … 198 199 200 201" under the first page of 201.
        last_page = max(1, math.ceil(self.listed_count / self.items_per_page))
        if not 1 <= self.page_num <= last_page:
            self.page_num = 1
        return super().get_context_data(**kwargs)

    def get_search_results(self, request, queryset, search_term):
        # PostgreSQL refuses NUL in a string; nobody searches for one.
        return super().get_search_results(request, queryset, search_term.replace("\x00", ""))


class PostButtonHelper(PageButtonHelper):
    """Edit, preview the newest draft, and share it, under each title."""

    def get_buttons_for_obj(self, obj, exclude=None, classnames_add=None, classnames_exclude=None):
        buttons = super().get_buttons_for_obj(
            obj, exclude=["copy", "delete", "unpublish"], classnames_add=classnames_add
        )
        if self.permission_helper.user_can_edit_obj(self.request.user, obj):
            buttons += [
                {
                    "url": reverse("wagtailadmin_pages:view_draft", args=[obj.pk]),
                    "label": "Preview",
                    "classname": "button button-secondary button-small",
                    "title": f"Preview the newest draft of “{obj.draft_title}” in a new tab",
                },
                {
                    "url": reverse("blog_share_links", args=[obj.pk]),
                    "label": "Share draft",
                    "classname": "button button-secondary button-small",
                    "title": f"Create a review link for “{obj.draft_title}”",
                },
            ]
        if obj.permissions_for_user(self.request.user).can_publish():
            feature_url = reverse("blog_feature_post", args=[obj.pk])
            buttons.append(
                {
                    "url": f"{feature_url}?{urlencode({'next': self.request.get_full_path()})}",
                    "label": "Stop featuring" if obj.featured else "Feature",
                    "classname": "button button-secondary button-small",
                    "title": f"Choose what readers see at the top of the blog, with “{obj.draft_title}”",
                }
            )
        return buttons


class PostsAdmin(ModelAdmin):
    model = BlogPage
    menu_label = "Posts"
    menu_icon = "doc-full"
    menu_order = 150
    add_to_settings_menu = False
    list_display = (
        "post_title",
        "status",
        "scheduled_for",
        "first_published",
        "author_names",
        "topic_names",
        "last_edited",
    )
    list_filter = (StatusFilter, TopicFilter, AuthorFilter)
    # The title being worked on may not be live yet; editors search for the one they typed.
    search_fields = ("title", "draft_title")
    list_per_page = 50
    ordering = ("-latest_revision_created_at", "-pk")
    button_helper_class = PostButtonHelper
    index_view_extra_css = ["css/posts-list.css"]
    index_view_class = DeclaredFiltersIndexView

    def get_queryset(self, request):
        # Not few=True: SQLite runs its per-row ancestor test against every page when the
        # whole result is read (22 s at 10,000 posts); the remembered hidden branches cost one
        # query at most.
        blogs = visible_to_readers(BlogIndexPage.objects.all())
        shown = [blog.featured() for blog in blogs]
        in_slot = Q(pk__in=[post.pk for post in shown if post is not None])
        return (
            editorial_posts(request.user)
            .annotate(in_featured_slot=ExpressionWrapper(in_slot, output_field=BooleanField()))
            .order_by(*self.ordering)
        )

    @display(description="Title", ordering="draft_title")
    def post_title(self, post):
        # The newest draft's title, as in Wagtail's page explorer: the one the editor typed.
        return post.draft_title or post.title

    @display(description="Status", ordering="editorial_status")
    def status(self, post):
        # When a scheduled post goes live is the next column's, and only there.
        label = status_label(post)
        if post.live and post.has_newer_draft and post.draft_title != post.title:
            # Readers still see the old title until the draft is published.
            label = format_html("{}<br><small>Live title: {}</small>", label, post.title)
        if post.in_featured_slot:
            label = format_html("{}<br><strong>★ In the featured slot</strong>", label)
        elif post.featured and post.live:
            # Behind the post featured after it; it comes back if that one leaves the slot.
            label = format_html("{}<br><small>Waiting for the featured slot</small>", label)
        elif post.featured:
            label = format_html("{}<br><small>Featured once it goes live</small>", label)
        return label

    @display(description="Scheduled go-live", ordering="scheduled_at")
    def scheduled_for(self, post):
        return in_editor_zone(post.scheduled_at) if post.scheduled_at else "—"

    @display(description="First published", ordering="first_published_at")
    def first_published(self, post):
        return in_editor_zone(post.first_published_at) if post.first_published_at else "—"

    @display(description="Authors")
    def author_names(self, post):
        return ", ".join(author.name for author in post.authors) or "—"

    @display(description="Topics")
    def topic_names(self, post):
        return ", ".join(topic.name for topic in post.topics) or "—"

    @display(description="Last edit", ordering="latest_revision_created_at")
    def last_edited(self, post):
        moment = post.latest_revision_created_at
        return in_editor_zone(moment) if moment else "—"
