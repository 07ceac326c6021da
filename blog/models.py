import math
import re

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.html import strip_tags
from modelcluster.fields import ParentalKey
from wagtail.admin.panels import (
    FieldPanel,
    FieldRowPanel,
    MultiFieldPanel,
    MultipleChooserPanel,
    ObjectList,
    PageChooserPanel,
    TabbedInterface,
    TitleFieldPanel,
)
from wagtail.contrib.routable_page.models import RoutablePageMixin, path
from wagtail.fields import StreamField
from wagtail.models import Orderable, Page, PageManager
from wagtail.query import PageQuerySet
from wagtail.search import index

from .blocks import BodyBlock
from .forms import BlogPageForm
from .previews import BlogPagePreviewMixin
from .share_links import DraftShareLink  # noqa: F401  (registers the model with the blog app)

SUMMARY_MAX_LENGTH = 300
ALT_TEXT_MAX_LENGTH = 1000
WORDS_PER_MINUTE = 230


class Topic(index.Indexed, models.Model):
    """A subject readers filter by, such as "GPU reliability"."""

    name = models.CharField(max_length=80, unique=True, help_text="Shown on cards and filters.")
    slug = models.SlugField(
        max_length=80,
        unique=True,
        help_text="The topic's address: /blog/topic/<slug>/. Lowercase words joined by hyphens.",
    )
    description = models.TextField(
        blank=True, help_text="A sentence shown at the top of the topic's page."
    )

    panels = [FieldPanel("name"), FieldPanel("slug"), FieldPanel("description")]
    search_fields = [index.SearchField("name"), index.AutocompleteField("name")]

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Author(index.Indexed, models.Model):
    """A byline. Linking a user lets new posts start with that editor as the author."""

    name = models.CharField(max_length=120, help_text="As it appears in bylines.")
    slug = models.SlugField(max_length=120, unique=True, help_text="A short unique id for links.")
    role = models.CharField(max_length=120, blank=True, help_text="E.g. 'Staff engineer'.")
    avatar = models.ForeignKey(
        "wagtailimages.Image",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="A square photo or logo.",
    )
    bio = models.TextField(blank=True, help_text="Two or three sentences about the author.")
    user = models.OneToOneField(
        "auth.User",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="author_profile",
        help_text="The admin account that writes as this author, if any.",
    )

    panels = [
        FieldPanel("name"),
        FieldPanel("slug"),
        FieldPanel("role"),
        FieldPanel("avatar"),
        FieldPanel("bio"),
        FieldPanel("user"),
    ]
    search_fields = [index.SearchField("name"), index.AutocompleteField("name")]

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class BlogPageQuerySet(PageQuerySet):
    def readable(self):
        """Posts a reader may see: live, public, not past expiry, under published pages only."""
        now = timezone.now()
        posts = self.live().public().filter(Q(expire_at__isnull=True) | Q(expire_at__gt=now))
        # Wagtail's live() says nothing about ancestors; an unpublished index hides its posts.
        hidden_branches = (
            Page.objects.not_live().filter(numchild__gt=0).values_list("path", flat=True)
        )
        for branch in hidden_branches:
            posts = posts.exclude(path__startswith=branch)
        return posts

    def newest_first(self):
        return self.order_by("-first_published_at", "-pk")

    def for_cards(self):
        """Everything a post card shows, fetched in a fixed number of queries."""
        return self.select_related("hero_image").prefetch_related(
            Prefetch(
                "author_links",
                queryset=BlogPageAuthor.objects.select_related("author").order_by("sort_order"),
            ),
            Prefetch(
                "topic_links",
                queryset=BlogPageTopic.objects.select_related("topic").order_by("sort_order"),
            ),
        )


BlogPageManager = PageManager.from_queryset(BlogPageQuerySet)


class BlogIndexPage(RoutablePageMixin, Page):
    """The blog's front page: hero, featured post, topic filter and the post grid."""

    title_line = models.CharField(
        max_length=160,
        blank=True,
        help_text="The line beside the brand in the header, "
        "e.g. 'blog · field reports & engineering deep-dives'.",
    )
    hero_heading = models.TextField(
        max_length=200,
        help_text="The big heading at the top. Press Enter to start a new line.",
    )
    hero_intro = models.TextField(blank=True, help_text="The paragraph under the big heading.")
    section_heading = models.CharField(
        max_length=160, blank=True, help_text="The heading above the list of posts."
    )
    section_intro = models.TextField(blank=True, help_text="A sentence under the list heading.")
    posts_per_page = models.PositiveSmallIntegerField(
        default=12,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="How many post cards each page of the list shows.",
    )
    featured_post = models.ForeignKey(
        "blog.BlogPage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Optional: pin one post to the featured slot. If empty (or the pinned post is "
        "not live), the newest live post marked 'featured' is shown.",
    )

    content_panels = [
        *Page.content_panels,
        FieldPanel("title_line"),
        MultiFieldPanel([FieldPanel("hero_heading"), FieldPanel("hero_intro")], heading="Hero"),
        MultiFieldPanel(
            [FieldPanel("section_heading"), FieldPanel("section_intro")], heading="Post list"
        ),
        PageChooserPanel("featured_post", "blog.BlogPage"),
        FieldPanel("posts_per_page"),
    ]

    parent_page_types = ["home.HomePage"]
    subpage_types = ["blog.BlogPage"]

    def route(self, request, path_components):
        # Wagtail only checks the page it lands on; an unpublished index must hide its posts.
        if path_components and not self.live:
            raise Http404
        return super().route(request, path_components)

    def posts(self):
        return BlogPage.objects.child_of(self).readable().newest_first()

    def featured(self, posts):
        """The pinned post if readers can see it, else the newest live featured post."""
        if self.featured_post_id:
            pinned = posts.filter(pk=self.featured_post_id).for_cards().first()
            if pinned:
                return pinned
        return posts.filter(featured=True).for_cards().first()

    def topics_with_counts(self, posts):
        return (
            Topic.objects.filter(post_links__page__in=posts.values("pk"))
            .annotate(post_count=Count("post_links__page", distinct=True))
            .order_by("name")
        )

    def listing_context(self, request, topic=None):
        all_posts = self.posts()
        listed = all_posts
        featured = None
        if topic is None:
            featured = self.featured(all_posts)
            if featured:
                listed = listed.exclude(pk=featured.pk)
        else:
            listed = listed.filter(topic_links__topic=topic).distinct()

        page = Paginator(listed.for_cards(), self.posts_per_page).get_page(request.GET.get("page"))
        total_posts = all_posts.count()
        listing_total = total_posts if topic is None else page.paginator.count
        return {
            "posts": page,
            "page_range": page.paginator.get_elided_page_range(page.number),
            "featured": featured if page.number == 1 else None,
            "topics": self.topics_with_counts(all_posts),
            "active_topic": topic,
            "total_posts": total_posts,
            "listing_total": listing_total,
            "shown_count": len(page.object_list),
        }

    @path("")
    def all_posts(self, request):
        return self.render(request, context_overrides=self.listing_context(request))

    @path("topic/<slug:slug>/")
    def topic_posts(self, request, slug):
        topic = get_object_or_404(Topic, slug=slug)
        return self.render(request, context_overrides=self.listing_context(request, topic))

    def topic_url(self, topic):
        return self.url + self.reverse_subpage("topic_posts", kwargs={"slug": topic.slug})


class BlogPageAuthor(Orderable):
    page = ParentalKey("blog.BlogPage", on_delete=models.CASCADE, related_name="author_links")
    author = models.ForeignKey(Author, on_delete=models.PROTECT, related_name="post_links")

    panels = [FieldPanel("author")]

    class Meta(Orderable.Meta):
        constraints = [
            models.UniqueConstraint(fields=["page", "author"], name="unique_author_per_post")
        ]


class BlogPageTopic(Orderable):
    page = ParentalKey("blog.BlogPage", on_delete=models.CASCADE, related_name="topic_links")
    topic = models.ForeignKey(Topic, on_delete=models.PROTECT, related_name="post_links")

    panels = [FieldPanel("topic")]

    class Meta(Orderable.Meta):
        constraints = [
            models.UniqueConstraint(fields=["page", "topic"], name="unique_topic_per_post")
        ]


class BlogPage(BlogPagePreviewMixin, Page):
    """One post: card fields (summary, hero image), bylines, topics and a block body."""

    summary = models.TextField(
        max_length=SUMMARY_MAX_LENGTH,
        validators=[MaxLengthValidator(SUMMARY_MAX_LENGTH)],
        help_text=f"One or two plain sentences shown on the post's card and in search results "
        f"(at most {SUMMARY_MAX_LENGTH} characters).",
    )
    hero_image = models.ForeignKey(
        "wagtailimages.Image",
        null=True,
        blank=False,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The picture at the top of the post and on its card. Wide images work best.",
    )
    hero_alt = models.TextField(
        "hero image alt text",
        max_length=ALT_TEXT_MAX_LENGTH,
        validators=[MaxLengthValidator(ALT_TEXT_MAX_LENGTH)],
        help_text="Describe the picture for readers who cannot see it: what it shows, not what "
        "it means. Required; up to 1,000 characters.",
    )
    featured = models.BooleanField(
        default=False,
        help_text="Offer this post for the featured slot at the top of the blog. The newest live "
        "featured post is shown there.",
    )
    body = StreamField(BodyBlock(), help_text="The post itself, built from blocks.")
    reading_minutes = models.PositiveSmallIntegerField(default=1, editable=False)

    objects = BlogPageManager()

    search_fields = [
        *Page.search_fields,
        index.SearchField("summary"),
        index.SearchField("body"),
        index.RelatedFields(
            "topic_links", [index.RelatedFields("topic", [index.SearchField("name")])]
        ),
        index.RelatedFields(
            "author_links", [index.RelatedFields("author", [index.SearchField("name")])]
        ),
        index.FilterField("featured"),
        index.FilterField("first_published_at"),
    ]

    content_panels = [
        TitleFieldPanel(
            "title",
            help_text="The headline readers see on the post and its card. Short and specific.",
        ),
        FieldPanel("summary"),
        MultiFieldPanel([FieldPanel("hero_image"), FieldPanel("hero_alt")], heading="Hero image"),
        MultipleChooserPanel(
            "author_links",
            chooser_field_name="author",
            min_num=1,
            label="Authors",
            heading="Authors",
        ),
        MultipleChooserPanel(
            "topic_links",
            chooser_field_name="topic",
            min_num=1,
            label="Topics",
            heading="Topics",
            help_text="The first topic is the one shown on the post's card.",
        ),
        FieldPanel("body"),
    ]
    card_panels = [
        MultiFieldPanel(
            [
                FieldPanel(
                    "slug",
                    heading="Address",
                    help_text="The last part of the post's web address, e.g. "
                    "/blog/<address>/. Lowercase words joined by hyphens; changing it after "
                    "publishing keeps the old address working.",
                ),
                FieldPanel(
                    "seo_title",
                    heading="Title in search results",
                    help_text="Optional: a different headline for Google and browser tabs. "
                    "Leave empty to use the post's title. About 60 characters show.",
                ),
                FieldPanel(
                    "search_description",
                    heading="Description in search results",
                    help_text="Optional: the sentence under the headline in search results "
                    "and on social cards. Leave empty to use the summary.",
                ),
            ],
            heading="For search engines and social networks",
        ),
        FieldRowPanel([FieldPanel("featured")], heading="Featured slot"),
    ]
    edit_handler = TabbedInterface(
        [
            ObjectList(content_panels, heading="Content"),
            ObjectList(card_panels, heading="Card & SEO"),
            ObjectList(Page.settings_panels, heading="Publishing"),
        ]
    )

    base_form_class = BlogPageForm
    # Templates print it beside the summary so the content checker can compare.
    summary_max_length = SUMMARY_MAX_LENGTH
    parent_page_types = ["blog.BlogIndexPage"]
    subpage_types = []

    def route(self, request, path_components):
        # Between expiry and the scheduler's next pass the post is still flagged live.
        if self.expire_at and self.expire_at <= timezone.now():
            raise Http404
        return super().route(request, path_components)

    @cached_property
    def authors(self):
        return [link.author for link in self.author_links.all()]

    @cached_property
    def topics(self):
        return [link.topic for link in self.topic_links.all()]

    @property
    def primary_topic(self):
        return self.topics[0] if self.topics else None

    @property
    def was_updated(self):
        """Republished on a later day than it first went out (a same-day typo fix doesn't count)."""
        first, last = self.first_published_at, self.last_published_at
        return bool(first and last and timezone.localdate(last) > timezone.localdate(first))

    def body_text(self):
        """The words of the body, for reading time and search excerpts."""
        words = []

        def collect(value):
            if isinstance(value, str):
                words.append(strip_tags(value))
            elif isinstance(value, dict):
                for key, item in value.items():
                    if key not in {"type", "id", "language", "kind", "anchor", "image", "embed"}:
                        collect(item)
            elif isinstance(value, list):
                for item in value:
                    collect(item)

        collect(list(self.body.raw_data))
        return re.sub(r"\s+", " ", " ".join(words)).strip()

    def clean(self):
        super().clean()
        if self.hero_image_id and not (self.hero_alt or "").strip():
            raise ValidationError(
                {"hero_alt": "Describe the hero image for readers who can't see it."}
            )

    def save(self, *args, **kwargs):
        word_count = len(self.body_text().split())
        self.reading_minutes = max(1, math.ceil(word_count / WORDS_PER_MINUTE))
        return super().save(*args, **kwargs)

    @property
    def blog_index(self):
        return self.get_parent().specific

    def related_posts(self, limit=3):
        topic = self.primary_topic
        if topic is None:
            return BlogPage.objects.none()
        return (
            BlogPage.objects.readable()
            .filter(topic_links__topic=topic)
            .exclude(pk=self.pk)
            .distinct()
            .newest_first()
            .for_cards()[:limit]
        )

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context["related_posts"] = self.related_posts()
        return context
