import re

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import (
    Count,
    Exists,
    F,
    Func,
    Max,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    prefetch_related_objects,
)
from django.http import Http404
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.html import strip_tags
from modelcluster.fields import ParentalKey
from wagtail.admin.panels import (
    FieldPanel,
    MultiFieldPanel,
    ObjectList,
    TabbedInterface,
    TitleFieldPanel,
)
from wagtail.contrib.routable_page.models import RoutablePageMixin, path
from wagtail.fields import StreamField
from wagtail.locks import ScheduledForPublishLock
from wagtail.models import Orderable, Page, PageManager
from wagtail.query import PageQuerySet
from wagtail.search import index

from home.library_adapters import give_parent, table_column

from . import visibility
from .blocks import BodyBlock
from .caching.remembered import remember, remember_found
from .forms import BlogPageForm, CharacterLimitModelForm
from .importing.models import ImportedItem  # noqa: F401  (registers the model with the blog app)
from .panels import AtLeastOneChosenPanel, schedule_panels
from .previews import BlogPagePreviewMixin
from .reading import reading_minutes
from .revisions import ScheduledPostLock, autosaved_version_to_finish, repeated_revision
from .share_links import DraftShareLink  # noqa: F401  (registers the model with the blog app)

SUMMARY_MAX_LENGTH = 300
ALT_TEXT_MAX_LENGTH = 1000
RESERVED_POST_SLUGS = {"feed", "atom", "topic"}
# Keys of the body's raw data that hold settings or pictures, not words on the page.
NOT_READ_ON_THE_PAGE = {"type", "id", "language", "kind", "anchor", "image", "embed", "alt_text"}
# Where one block of rich text ends and the next begins; inline tags join their words.
BLOCK_TAG = re.compile(r"</?(?:p|h[1-6]|li|ul|ol|blockquote|pre|div|br|hr|td|th|tr)\b[^>]*>", re.I)


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
    base_form_class = CharacterLimitModelForm
    search_fields = [index.SearchField("name"), index.AutocompleteField("name")]

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @classmethod
    def by_slug(cls, slug):
        """The topic at this slug, or None: every topic is fetched in one query, shared by every
        process until the content changes (topic pages, their feeds and search filters)."""
        return remember("topics", lambda: {topic.slug: topic for topic in cls.objects.all()}).get(
            slug
        )


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
    base_form_class = CharacterLimitModelForm
    search_fields = [index.SearchField("name"), index.AutocompleteField("name")]

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class BlogPageQuerySet(PageQuerySet):
    def readable(self):
        """Posts a reader may see (blog/visibility.py)."""
        return visibility.visible_to_readers(self)

    def readable_below(self, page):
        """The posts below `page` a reader may see (blog/visibility.py)."""
        return visibility.visible_to_readers(self, children_of=page)

    def newest_first(self):
        # Ties broken by the page table's own id, not the post table's link to it: SQLite then
        # walks the first_published_at index instead of sorting (home/library_adapters.py).
        return self.order_by("-first_published_at", table_column(Page, "id").desc())

    def about(self, topic):
        """Posts tagged with the topic. A semi-join, not a join: a join needs DISTINCT, which
        PostgreSQL computes over every matching row, body included, before it can sort and
        take a page (50 ms for a topic of 2,500 posts); this walks the newest first and stops."""
        tagged = BlogPageTopic.objects.filter(page=OuterRef("pk"), topic=topic)
        return self.filter(Exists(tagged))

    def card_fields(self):
        """What a card shows, hero image included, without the body: the largest column,
        which no card prints."""
        return self.select_related("hero_image").defer("body")

    def for_cards(self):
        """Everything a post card shows, fetched in a fixed number of queries."""
        return self.select_related("hero_image").prefetch_related(
            *card_prefetches(), HERO_RENDITIONS
        )


# Every size of every hero picture in one query. Without it each {% picture %} asks the cache
# for its renditions and, as Wagtail 8 does for renditions found there, writes them all back:
# about fifty cache writes per listing.
HERO_RENDITIONS = "hero_image__renditions"


def card_prefetches():
    return [byline_prefetch(), topic_prefetch()]


def prefetch_cards(posts, pictures=()):
    """Everything these posts' cards show beyond their own rows. Given to render_fragments as
    a function, so a page whose cards are all cached does not even build the querysets.

    `pictures`, other images the page shows (a post's body), get their renditions in the same
    query as the heroes: otherwise each picture asks the cache for its renditions and, as
    Wagtail does with renditions found there, writes them all back, on every request."""
    prefetch_related_objects(posts, *card_prefetches(), "hero_image")
    heroes = [post.hero_image for post in posts if post.hero_image is not None]
    prefetch_related_objects([*heroes, *pictures], "renditions")


# The order an editor gave a post's bylines and topics (ties, which Orderable allows, by row):
# the card's first topic and the related posts' topic must agree on it.
EDITOR_ORDER = ("sort_order", "pk")


def byline_prefetch():
    return Prefetch(
        "author_links",
        queryset=BlogPageAuthor.objects.select_related("author").order_by(*EDITOR_ORDER),
    )


def topic_prefetch():
    return Prefetch(
        "topic_links",
        queryset=BlogPageTopic.objects.select_related("topic").order_by(*EDITOR_ORDER),
    )


BlogPageManager = PageManager.from_queryset(BlogPageQuerySet)


class OneQueryRestrictionsMixin:
    """Wagtail checks view restrictions on every page it serves, in two queries (ancestors,
    then restrictions); one does (blog/visibility.py)."""

    def get_view_restrictions(self):
        return visibility.view_restrictions_over(self)


class BlogIndexPage(OneQueryRestrictionsMixin, RoutablePageMixin, Page):
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
    feed_link_text = models.CharField(
        max_length=80,
        blank=True,
        default="Subscribe by RSS",
        help_text="The link to the blog's RSS feed under the list heading (on a topic's page, "
        "to that topic's feed). Leave empty to show no link.",
    )
    posts_per_page = models.PositiveSmallIntegerField(
        default=12,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="How many post cards each page of the list shows.",
    )
    default_author = models.ForeignKey(
        "blog.Author",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The byline of posts that arrive without one, such as imported posts whose "
        "old blog named no author.",
    )

    content_panels = [
        *Page.content_panels,
        FieldPanel("title_line"),
        MultiFieldPanel([FieldPanel("hero_heading"), FieldPanel("hero_intro")], heading="Hero"),
        MultiFieldPanel(
            [
                FieldPanel("section_heading"),
                FieldPanel("section_intro"),
                FieldPanel("feed_link_text"),
            ],
            heading="Post list",
        ),
        FieldPanel("posts_per_page"),
        FieldPanel("default_author"),
    ]

    parent_page_types = ["home.HomePage"]
    subpage_types = ["blog.BlogPage"]

    # What renders this page for readers (blog/serving.py), handed over by BlogConfig.ready():
    # the content model imports nothing that renders (the layers in pyproject.toml).
    views = None

    def route(self, request, path_components):
        if visibility.routing_refuses(self, path_components):
            raise Http404
        if len(path_components) == 1 and not self.is_own_route(path_components[0]):
            post = self.child_post(path_components[0])
            if post is not None:
                give_parent(post, self)
                return post.route(request, [])
        return super().route(request, path_components)

    def child_post(self, slug):
        """The post at `slug` below this blog, flagged for routing (flag_view_restricted). One
        query, remembered until the content changes: building and compiling it costs more
        than the rest of serving a post whose article is kept (~2 ms). Wagtail's own lookup
        fetches the base page and then the post."""

        def find():
            post = BlogPage.objects.child_of(self).filter(slug=slug)
            return visibility.flag_view_restricted(post.select_related("hero_image")).first()

        return remember_found(f"child-post:{self.pk}:{slug}", find)

    def is_own_route(self, component):
        try:
            self.resolve_subpage(f"/{component}/")
        except Http404:
            return False
        return True

    def posts(self):
        return BlogPage.objects.readable_below(self).newest_first()

    def listed(self, topic=None, featured=None):
        """The posts a page of the listing shows: about the topic, or all but the featured."""
        posts = self.posts()
        if topic is not None:
            return posts.about(topic)
        if featured is not None:
            return posts.exclude(pk=featured.pk)
        return posts

    def featured(self):
        """choose_featured, chosen once for every process until the content changes or a post
        expires (only then can another take its place without a publish)."""
        return remember(f"featured-post:{self.pk}", lambda: self.choose_featured(self.posts()))

    def choose_featured(self, posts):
        """Of the featured posts readers can see, the one featured last
        (blog/editorial/featuring.py), then the newest."""
        return (
            posts.filter(featured=True)
            .order_by(F("featured_at").desc(nulls_last=True), "-first_published_at", "-pk")
            .card_fields()
            .first()
        )

    def topics_with_counts(self, posts):
        """Topics with their number of readable posts; each row also carries the number of all
        readable posts, which the "All posts" chip shows, so that needs no query of its own."""
        whole = posts.order_by()
        count_all = whole.annotate(n=Func("pk", function="COUNT")).values("n")
        return (
            Topic.objects.filter(post_links__page__in=posts.values("pk"))
            .annotate(
                # A post has a topic once (unique_topic_per_post): no DISTINCT, so PostgreSQL
                # counts the links in a hash instead of sorting them all (24 -> 12 ms at
                # 10,000 posts).
                post_count=Count("post_links"),
                total_posts=Subquery(count_all),
            )
            .order_by("name")
        )

    def topic_counts(self):
        """topics_with_counts, counted once for every process until the content changes or a
        post expires (they scan every post: ~30 ms at 10,000 posts)."""

        def count():
            # The readable posts as page rows alone: the test needs nothing of the post table,
            # whose rows carry the body, and the query reads them three times (a third less
            # database time, ~12 ms less at 10,000 posts).
            pages = visibility.visible_to_readers(Page.objects.type(BlogPage), children_of=self)
            return list(self.topics_with_counts(pages))

        return remember(f"topic-counts:{self.pk}", count)

    def listing_context(self, request, topic=None):
        return self.views.listing_context(self, request, topic)

    @path("")
    def all_posts(self, request):
        return self.render(request, context_overrides=self.listing_context(request))

    @path("topic/<slug:slug>/")
    def topic_posts(self, request, slug):
        topic = Topic.by_slug(slug)
        if topic is None:
            raise Http404("No such topic")
        return self.render(request, context_overrides=self.listing_context(request, topic))

    def topic_url(self, topic):
        return self.url + self.reverse_subpage("topic_posts", kwargs={"slug": topic.slug})

    @path("feed/")
    def rss_feed(self, request):
        return self.feed(request)

    @path("atom/")
    def atom_feed(self, request):
        return self.feed(request, atom=True)

    @path("topic/<slug:slug>/feed/")
    def topic_rss_feed(self, request, slug):
        return self.feed(request, topic_slug=slug)

    @path("topic/<slug:slug>/atom/")
    def topic_atom_feed(self, request, slug):
        return self.feed(request, topic_slug=slug, atom=True)

    def feed(self, request, topic_slug=None, atom=False):
        return self.views.feed(self, request, topic_slug, atom)

    def get_sitemap_urls(self, request=None):
        """The blog, then each topic page that lists at least one post."""
        topics = (
            Topic.objects.filter(post_links__page__in=self.posts().values("pk"))
            .annotate(lastmod=Max("post_links__page__last_published_at"))
            .order_by("name")
        )
        base = self.get_full_url(request)
        return [
            *super().get_sitemap_urls(request),
            *(
                {
                    "location": base + self.reverse_subpage("topic_posts", kwargs={"slug": t.slug}),
                    "lastmod": t.lastmod,
                }
                for t in topics
            ),
        ]


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


# What the post's search fields read beyond its own row (search_fields below).
INDEXED_RELATIONS = ("topic_links__topic", "author_links__author")


class BlogPage(BlogPagePreviewMixin, OneQueryRestrictionsMixin, Page):
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
        # Optional, as on WordPress and Ghost: a post without one is a normal post (imports
        # bring many); the content checks still ask for one.
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The picture at the top of the post and on its card. Wide images work best. "
        "Optional, but posts with a picture stand out in the listing.",
    )
    hero_alt = models.TextField(
        "hero image alt text",
        max_length=ALT_TEXT_MAX_LENGTH,
        blank=True,
        validators=[MaxLengthValidator(ALT_TEXT_MAX_LENGTH)],
        help_text="Describe the picture for readers who cannot see it: what it shows, not what "
        "it means. Left empty, the description given to the image in the library is used when "
        "you save. Up to 1,000 characters.",
    )
    # Featuring is an action, not an edit (blog/editorial/featuring.py): neither field is in the
    # editor, and a revision published later leaves both as they are (with_content_json).
    featured = models.BooleanField(
        default=False,
        help_text="Shown in the featured slot at the top of the blog when it is the featured "
        "post readers can see that was featured last.",
    )
    featured_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When the post was last featured."
    )
    body = StreamField(
        BodyBlock(),
        help_text="The post itself. Write in a Text block as in any editor: “## ” starts a "
        "heading, “- ” a list, “> ” a quote, and “/” opens a menu of everything you can add. "
        "Code, tables, callouts and pictures with a caption are blocks of their own.",
    )
    reading_minutes = models.PositiveSmallIntegerField(default=1, editable=False)

    objects = BlogPageManager()

    # PostgreSQL keeps 4 weights and maps the project's distinct boosts onto them in order
    # (images and documents use 10, Page.title 2): title 10 -> A, summary 5 -> B, body -> D.
    # The later title entry replaces Page's (modelsearch keeps the last field of a name).
    search_fields = [
        *Page.search_fields,
        index.SearchField("title", boost=10),
        index.SearchField("summary", boost=5),
        index.SearchField("body"),
        index.RelatedFields(
            "topic_links", [index.RelatedFields("topic", [index.SearchField("name")])]
        ),
        index.RelatedFields(
            "author_links", [index.RelatedFields("author", [index.SearchField("name")])]
        ),
        index.FilterField("featured"),
        index.FilterField("first_published_at"),
        # readable() filters on it, and search runs over readable().
        index.FilterField("expire_at"),
    ]
    # Indexed on save by blog/indexing.py's handlers, which an import pauses in its own thread.
    search_auto_update = False

    content_panels = [
        TitleFieldPanel(
            "title",
            # A box that grows a line at a time (static/css/editor-widths.css): a one-line input
            # hid the end of any title longer than about 45 characters at 1280 px.
            widget=forms.Textarea(attrs={"rows": 1}),
            placeholder="Post title*",
            help_text="The headline readers see on the post and its card. Short and specific.",
        ),
        FieldPanel("summary"),
        MultiFieldPanel([FieldPanel("hero_image"), FieldPanel("hero_alt")], heading="Hero image"),
        AtLeastOneChosenPanel(
            "author_links",
            chooser_field_name="author",
            label="Authors",
            heading="Authors",
            missing_message="Choose at least one author with “Add authors” before publishing.",
        ),
        AtLeastOneChosenPanel(
            "topic_links",
            chooser_field_name="topic",
            label="Topics",
            heading="Topics",
            help_text="The first topic is the one shown on the post's card. Need a topic that "
            "is not in the list? Add it from “Add topics”, under “New topic”.",
            missing_message="Choose at least one topic with “Add topics” before publishing: "
            "the first one is shown on the post's card.",
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
    ]
    edit_handler = TabbedInterface(
        [
            ObjectList(content_panels, heading="Content"),
            ObjectList(card_panels, heading="Card & SEO"),
            ObjectList(schedule_panels(), heading="Publishing"),
        ]
    )

    class Meta:
        # The editor's word everywhere Wagtail names the type: "Posts", "Add post", "post".
        verbose_name = "post"
        verbose_name_plural = "posts"
        indexes = [
            # The featured slot's query finds the few flagged posts without reading every post.
            models.Index(
                fields=["featured"], condition=Q(featured=True), name="blog_featured_posts"
            )
        ]

    base_form_class = BlogPageForm
    # Templates print it beside the summary so the content checker can compare.
    summary_max_length = SUMMARY_MAX_LENGTH
    parent_page_types = ["blog.BlogIndexPage"]
    subpage_types = []

    # What renders this page for readers (blog/serving.py), handed over by BlogConfig.ready():
    # the content model imports nothing that renders (the layers in pyproject.toml).
    views = None

    def with_content_json(self, content):
        """A revision's content on this post, keeping whether it is featured as it is now:
        featuring is not part of the content (blog/editorial/featuring.py), so publishing a
        revision saved before the post was featured (or unfeatured) must not undo it."""
        post = super().with_content_json(content)
        post.featured, post.featured_at = self.featured, self.featured_at
        return post

    def save_revision(
        self,
        user=None,
        approved_go_live_at=None,
        changed=True,
        log_action=False,
        previous_revision=None,
        clean=True,
        overwrite_revision=None,
    ):
        """Saving without a change keeps the latest version instead of adding an identical one,
        and a save ending an autosaved editing session is written into that session's version
        (blog/revisions.py)."""
        if overwrite_revision is None:
            overwrite_revision = autosaved_version_to_finish(
                self,
                user,
                previous_revision=previous_revision,
                approved_go_live_at=approved_go_live_at,
            )
        repeated = repeated_revision(
            self,
            overwrite_revision=overwrite_revision,
            previous_revision=previous_revision,
            approved_go_live_at=approved_go_live_at,
        )
        if repeated is None:
            return super().save_revision(
                user=user,
                approved_go_live_at=approved_go_live_at,
                changed=changed,
                log_action=log_action,
                previous_revision=previous_revision,
                clean=clean,
                overwrite_revision=overwrite_revision,
            )
        if clean:
            self.full_clean()
        return repeated

    def route(self, request, path_components):
        if visibility.routing_refuses(self, path_components):
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
        """The words of the body readers see, for reading time, the editor's word count and
        search excerpts. Settings (a heading's anchor, a code block's language) and a picture's
        alt text are not shown on the page, so they are left out."""
        words = []

        def collect(value):
            if isinstance(value, str):
                # "<p>One.</p><p>Two.</p>" is two words, not "One.Two.".
                words.append(strip_tags(BLOCK_TAG.sub(" ", value)))
            elif isinstance(value, dict):
                for key, item in value.items():
                    if key not in NOT_READ_ON_THE_PAGE:
                        collect(item)
            elif isinstance(value, list):
                for item in value:
                    collect(item)

        collect(list(self.body.raw_data))
        return re.sub(r"\s+", " ", " ".join(words)).strip()

    def get_lock(self):
        lock = super().get_lock()
        if isinstance(lock, ScheduledForPublishLock):
            return ScheduledPostLock(self)
        return lock

    def word_count(self):
        """What the editor's counter, the preview's Checks and the reading time all count."""
        return len(self.body_text().split())

    def clean(self):
        super().clean()
        if self.slug in RESERVED_POST_SLUGS:
            # The blog's own addresses (/blog/feed/, /blog/topic/…) would hide the post.
            raise ValidationError(
                {"slug": f"“{self.slug}” is used by the blog itself; choose another slug."}
            )
        if self.hero_image_id and not (self.hero_alt or "").strip():
            # The description typed at upload says what the picture shows: asked once.
            self.hero_alt = self.hero_image.description
        # A hero picture still without alt text is refused by the editor's form
        # (BlogPageForm), not here: an imported post publishes as its old blog had it, and the
        # content checks flag it.

    def save(self, *args, **kwargs):
        self.reading_minutes = reading_minutes(self.word_count())
        return super().save(*args, **kwargs)

    def get_indexed_instance(self):
        # The search backend reads the topics and bylines once for each field that holds
        # them: fetched up front, a post's indexing costs 4 queries for them, not 16.
        post = super().get_indexed_instance()
        if post is not None:
            prefetch_related_objects([post], *INDEXED_RELATIONS)
        return post

    @property
    def blog_index(self):
        return self.get_parent().specific

    def related_posts(self, limit=3):
        """Newest readable posts of this blog that share this post's first topic (its card's)."""
        first_topic = BlogPageTopic.objects.filter(page=self.pk).order_by(*EDITOR_ORDER)[:1]
        return (
            BlogPage.objects.readable_below(self.get_parent())
            .about(Subquery(first_topic.values("topic")))
            .exclude(pk=self.pk)
            .newest_first()
            .card_fields()[:limit]
        )

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context.update(self.views.post_context(self, request))
        return context


class SchedulerHeartbeat(models.Model):
    """One row the scheduler rewrites on every pass, so the dashboard can tell whether it runs."""

    SINGLETON_PK = 1

    last_started_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_summary = models.CharField(max_length=200, blank=True)
    interval_seconds = models.FloatField(
        default=30, help_text="How often the scheduler that wrote this row runs a pass."
    )

    class Meta:
        verbose_name = "scheduler heartbeat"

    def __str__(self):
        return f"Scheduler heartbeat (last success {self.last_success_at or 'never'})"

    @classmethod
    def current(cls):
        """The row if the scheduler ever ran, else None; reading it never creates it."""
        return cls.objects.filter(pk=cls.SINGLETON_PK).first()

    @classmethod
    def record(cls, **fields):
        cls.objects.update_or_create(pk=cls.SINGLETON_PK, defaults=fields)


class ContentGeneration(models.Model):
    """A single counter that moves whenever something readers see changes. The page cache
    puts it in every key, so one bump retires every cached page at once."""

    value = models.BigIntegerField(default=0)
    # When the next visible page expires, as each bump found it (blog/caching/generation.py).
    next_expiry = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "content generation"

    def __str__(self):
        return f"content generation {self.value}"
