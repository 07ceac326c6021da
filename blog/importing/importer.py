"""Writes an export's posts under a blog: one post per transaction, keyed by the source's ids.

A second run of the same export changes nothing (each post's content hash is kept); a changed
post is updated unless an editor saved it since the import, which is reported instead. Posts
pass the rules a hand-written post passes before they are published: one that would be
published without a hero picture, its alt text, an author, a topic or a summary within the
limit is imported as a draft with a note saying why. Search indexes the posts in one batch at
the end.
"""

import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from urllib.parse import urlparse

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models.signals import post_save
from django.utils import timezone
from django.utils.text import Truncator, slugify
from modelcluster.models import get_all_child_relations
from modelsearch.signal_handlers import post_save_signal_handler
from wagtail.contrib.redirects.models import Redirect
from wagtail.models import Page, PageViewRestriction, ReferenceIndex
from wagtail.signal_handlers import disable_reference_index_auto_update

from blog.demo.generate import index_posts
from blog.editorial.featuring import set_featured
from blog.models import (
    RESERVED_POST_SLUGS,
    SUMMARY_MAX_LENGTH,
    Author,
    BlogPage,
    BlogPageAuthor,
    BlogPageTopic,
    Topic,
)

from .html_to_blocks import html_to_blocks, text_of
from .models import ImportedItem
from .pictures import PictureLibrary
from .records import DRAFT, LIVE, PENDING, PRIVATE, SCHEDULED

CREATED, UPDATED, UNCHANGED, SKIPPED, FAILED = (
    "created",
    "updated",
    "unchanged",
    "skipped",
    "failed",
)
RESULTS = [CREATED, UPDATED, UNCHANGED, SKIPPED, FAILED]


@dataclass
class Outcome:
    post: str
    result: str
    reason: str = ""
    notes: list = field(default_factory=list)
    page_id: int | None = None


@dataclass
class Report:
    outcomes: list = field(default_factory=list)
    missing_pictures: list = field(default_factory=list)  # (picture problem, post)
    dry_run: bool = False
    seconds: float = 0.0

    def counts(self):
        counted = Counter(outcome.result for outcome in self.outcomes)
        return {result: counted.get(result, 0) for result in RESULTS}

    def as_json(self):
        return asdict(self)

    @classmethod
    def from_json(cls, data):
        return cls(
            outcomes=[Outcome(**outcome) for outcome in data["outcomes"]],
            missing_pictures=[tuple(pair) for pair in data["missing_pictures"]],
            dry_run=data["dry_run"],
            seconds=data["seconds"],
        )

    def lines(self):
        """The closing table, then every post with a reason or a note."""
        counts = self.counts()
        heading = "Dry run: nothing was written. " if self.dry_run else ""
        lines = [f"{heading}{len(self.outcomes)} posts in {self.seconds:.1f} s", ""]
        lines += [f"  {result:<10} {counts[result]:>6}" for result in RESULTS]
        for outcome in self.outcomes:
            if outcome.reason or outcome.notes:
                lines.append("")
                lines.append(
                    f"{outcome.result}: {outcome.post}"
                    + (f" — {outcome.reason}" if outcome.reason else "")
                )
                lines += [f"    · {note}" for note in outcome.notes]
        if self.missing_pictures:
            lines += ["", "Pictures not imported (the posts were imported without them):"]
            lines += [
                f"    · {problem} (needed by {post})" for problem, post in self.missing_pictures
            ]
        return lines


@contextmanager
def search_indexing_deferred():
    """Posts are indexed in one batch at the end, not one by one as each is saved: the index
    write per save is most of a save's cost. Only modelsearch's own handler is paused."""
    connected = post_save.disconnect(post_save_signal_handler, sender=BlogPage)
    try:
        yield
    finally:
        if connected:
            post_save.connect(post_save_signal_handler, sender=BlogPage)


class Importer:
    def __init__(self, blog, media, *, dry_run=False, user=None, progress=None):
        self.blog = blog
        self.media = media
        self.dry_run = dry_run
        self.user = user
        self.progress = progress or (lambda done, total, outcome: None)
        self.site = blog.get_site()
        self.authors, self.topics = {}, {}
        self.items = {}  # key → ImportedItem, read once for the run
        self.slugs_taken = set()

    def run(self, export):
        started = time.perf_counter()
        report = Report(dry_run=self.dry_run)
        self.export = export
        self.pictures = PictureLibrary(export.source, self.media, self.dry_run)
        self.addresses = self.old_address_book(export)
        self.items = {
            item.key: item
            for item in ImportedItem.objects.filter(source=export.source, key__startswith="post:")
        }
        self.slugs_taken = set(Page.objects.child_of(self.blog).values_list("slug", flat=True))
        posts = sorted(export.posts, key=lambda r: (r.published_at is None, r.published_at or 0))
        written = []
        # Wagtail would update its reference index (what uses which image, snippet or page) on
        # every row a post writes, a third of the import's time: once per post at the end.
        with search_indexing_deferred(), disable_reference_index_auto_update():
            for done, record in enumerate(posts, start=1):
                outcome = self.import_one(record, report)
                report.outcomes.append(outcome)
                if outcome.result in {CREATED, UPDATED}:
                    written.append(outcome.page_id)
                self.progress(done, len(posts), outcome)
            if not self.dry_run:
                self.topic_redirects(export)
        report.outcomes += [Outcome(what, SKIPPED, why) for what, why in export.skipped]
        if written and not self.dry_run:
            self.index_references(written)
            index_posts(written)
        report.seconds = time.perf_counter() - started
        return report

    # Planning ---------------------------------------------------------------------------

    def old_address_book(self, export):
        """Old path → source id, so links between imported posts point to the new pages."""
        book = {}
        for record in export.posts:
            for address in record.old_addresses:
                book[Redirect.normalise_path(address)] = record.source_id
        return book

    def link_for(self, href):
        parsed = urlparse(href)
        old_host = urlparse(self.export.base_url).hostname
        if parsed.hostname and parsed.hostname != old_host:
            return None
        source_id = self.addresses.get(Redirect.normalise_path(href))
        if source_id is None or self.dry_run:
            return None
        item = self.items.get(f"post:{source_id}")
        return item.page_id if item else None

    def import_one(self, record, report):
        outcome = Outcome(record.label, CREATED)
        key = f"post:{record.source_id}"
        item = self.items.get(key)
        digest = record.content_hash()
        if item is not None:
            if item.content_hash == digest:
                return Outcome(record.label, UNCHANGED, page_id=item.page_id)
            if item.page_id is None:
                return Outcome(record.label, SKIPPED, "the post was deleted in the admin")
            latest = Page.objects.filter(pk=item.page_id).values_list(
                "latest_revision_id", flat=True
            )[0]
            if latest != item.revision_id:
                return Outcome(
                    record.label,
                    SKIPPED,
                    "an editor changed the post since it was imported; the export's changes "
                    "were not applied",
                    page_id=item.page_id,
                )
            outcome.result = UPDATED
        try:
            fields = self.prepare(record, outcome, report)
            if self.dry_run:
                return outcome
            with transaction.atomic():
                post, remembered = self.write(record, item, fields, outcome, key, digest)
        except (
            ValidationError,
            DatabaseError,
            ValueError,
            KeyError,
            TypeError,
            RecursionError,
        ) as error:
            # What was remembered from the rolled-back transaction is gone with it: the blog's
            # count of children, and authors or topics first made for this post.
            self.blog.refresh_from_db()
            self.authors, self.topics = {}, {}
            if item is not None:
                item.refresh_from_db()
            return Outcome(record.label, FAILED, describe(error), outcome.notes)
        # Only once the post's transaction has committed: what a failed one made is gone.
        self.items[key] = remembered
        self.slugs_taken.add(post.slug)
        outcome.page_id = post.pk
        return outcome

    def prepare(self, record, outcome, report):
        """What the post will hold and whether it may be published, without writing it."""
        notes = outcome.notes

        def resolve(picture):
            image_id, problem = self.pictures.image_for(picture, record.base_dir)
            if problem and (problem, record.label) not in report.missing_pictures:
                report.missing_pictures.append((problem, record.label))
            return image_id

        body = html_to_blocks(record.body_html, resolve_picture=resolve, link_for=self.link_for)
        notes += record.notes + body.notes
        status = record.status
        holds = []  # why a post the source published becomes a draft
        if status == PENDING:
            notes.append("It was waiting for review in the old blog: imported as a draft.")
            status = DRAFT
        hero_id, hero_alt = None, ""
        if record.hero is not None:
            hero_id = resolve(record.hero)
            hero_alt = record.hero.alt
            if hero_id is not None and not hero_alt:
                holds.append("its hero picture has no alt text; describe it in the post")
        if hero_id is None:
            holds.append("it has no hero picture")
        if body.missing_alt:
            holds.append(f"{body.missing_alt} picture(s) in the body have no alt text")
        summary = (record.summary or "").strip()
        if summary and "<" in summary:
            summary = text_of(summary)
        if not summary:
            summary = opening_words(body.blocks)
            if summary:
                notes.append("The summary is the body's opening words; check it reads well.")
            else:
                holds.append("it has no summary")
        if len(summary) > SUMMARY_MAX_LENGTH:
            holds.append(
                f"its summary has {len(summary)} characters and the limit is "
                f"{SUMMARY_MAX_LENGTH}; shorten it (nothing was cut)"
            )
        if not record.authors:
            holds.append("it has no author")
        if not record.topics:
            holds.append("it has no topic")
        if status in {LIVE, SCHEDULED, PRIVATE} and holds:
            notes.append(
                f"Imported as a draft, as it may not be published yet: {'; '.join(holds)}."
            )
            status = DRAFT
        if status == SCHEDULED and (record.published_at or timezone.now()) <= timezone.now():
            notes.append("Its scheduled time has passed: published now, dated as scheduled.")
            status = LIVE
        return {
            "status": status,
            "summary": summary,
            "hero_id": hero_id,
            "hero_alt": hero_alt,
            "body": body.blocks,
        }

    # Writing ----------------------------------------------------------------------------

    def write(self, record, item, fields, outcome, key, digest):
        """The post, saved, published as its status says, and its ImportedItem."""
        status = fields["status"]
        if item is None:
            post = BlogPage(
                title=record.title[:255], slug=self.free_slug(record, outcome), live=False
            )
        else:
            post = BlogPage.objects.get(pk=item.page_id)
        post.title = post.draft_title = record.title[:255]
        post.summary = fields["summary"]
        post.hero_image_id = fields["hero_id"]
        post.hero_alt = fields["hero_alt"]
        post.body = fields["body"]
        post.author_links = [BlogPageAuthor(author=self.author(p)) for p in record.authors]
        post.topic_links = [BlogPageTopic(topic=self.topic(t)) for t in record.topics]
        post.go_live_at = record.published_at if status == SCHEDULED else None
        if item is None:
            self.blog.add_child(instance=post)
        elif status == DRAFT and post.live:
            outcome.notes.append("It is no longer published in the export: unpublished.")
            post.unpublish(user=self.user)
        publishing = status in {LIVE, SCHEDULED, PRIVATE}
        if status == PRIVATE:
            PageViewRestriction.objects.get_or_create(
                page=post, defaults={"restriction_type": PageViewRestriction.LOGIN}
            )
        # Publishing now validates the post as it saves it (Wagtail's publish cleans), so it is
        # cleaned once; a post scheduled for later is cleaned here, drafts may be incomplete.
        revision = post.save_revision(user=self.user, log_action=True, clean=status == SCHEDULED)
        # Recorded before the publish, whose signal turns the old addresses into redirects
        # once the post is live (redirects.py): now, or at a scheduled post's go-live.
        item = self.remember(item, key, post, digest, self.old_paths(record))
        if publishing:
            revision.publish(user=self.user)
            if status != SCHEDULED and record.published_at and not post.first_published_at:
                # Dated as the old blog dated it, not by the time of the import.
                Page.objects.filter(pk=post.pk).update(
                    first_published_at=record.published_at, last_published_at=record.published_at
                )
        if record.featured and not post.featured:
            post.refresh_from_db()
            set_featured(post, self.user, True)
        return post, item

    def remember(self, item, key, post, digest, old_paths):
        if item is None:
            item = ImportedItem(source=self.export.source, key=key)
        item.page, item.revision_id, item.content_hash = post, post.latest_revision_id, digest
        item.old_paths_waiting = old_paths
        item.save()
        return item

    def old_paths(self, record):
        return list(dict.fromkeys(Redirect.normalise_path(a) for a in record.old_addresses))

    def free_slug(self, record, outcome):
        wanted = (record.slug or f"post-{slugify(record.source_id)}")[:240]
        slug, n = wanted, 1
        while slug in self.slugs_taken or slug in RESERVED_POST_SLUGS:
            n += 1
            slug = f"{wanted}-{n}"
        if slug != wanted:
            outcome.notes.append(f"The address “{wanted}” was taken: the post is at “{slug}”.")
        return slug

    def author(self, person):
        if person.slug not in self.authors:
            self.authors[person.slug], _ = Author.objects.get_or_create(
                slug=person.slug, defaults={"name": person.name, "bio": person.bio}
            )
        return self.authors[person.slug]

    def topic(self, ref):
        if ref.slug not in self.topics:
            found = (
                Topic.objects.filter(slug=ref.slug).first()
                or Topic.objects.filter(name__iexact=ref.name).first()
                or Topic.objects.create(slug=ref.slug, name=ref.name)
            )
            self.topics[ref.slug] = found
        return self.topics[ref.slug]

    def index_references(self, post_ids):
        """What each post uses (pictures, authors, topics), read with its rows fetched in bulk."""
        relations = [rel.get_accessor_name() for rel in get_all_child_relations(BlogPage)]
        posts = BlogPage.objects.filter(pk__in=post_ids).prefetch_related(*relations)
        for post in posts.iterator(chunk_size=200):
            ReferenceIndex.create_or_update_for_object(post)

    def topic_redirects(self, export):
        """The old blog's category and tag archives → the topic's page on the new blog."""
        for ref in export.topics:
            topic = self.topics.get(ref.slug)
            if topic is None:
                continue
            link = self.blog.url + self.blog.reverse_subpage(
                "topic_posts", kwargs={"slug": topic.slug}
            )
            for address in ref.old_addresses:
                Redirect.objects.update_or_create(
                    site=self.site,
                    old_path=Redirect.normalise_path(address),
                    defaults={"redirect_link": link, "redirect_page": None, "is_permanent": True},
                )


def opening_words(blocks):
    for block in blocks:
        if block["type"] == "paragraph":
            words = text_of(block["value"])
            if words:
                return Truncator(words).chars(SUMMARY_MAX_LENGTH)
    return ""


def describe(error):
    if isinstance(error, RecursionError):
        return "its body nests elements more deeply than the import reads"
    if isinstance(error, ValidationError):
        return (
            "; ".join(
                f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items()
            )
            if hasattr(error, "error_dict")
            else " ".join(error.messages)
        )
    return str(error)
