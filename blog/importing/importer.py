"""Writes an export's posts under a blog: one post per transaction, keyed by the source's ids.

What the source published is published here at once, dated as the source dated it; only what
the source did not publish (draft, pending, private) waits as a draft, a future post is
scheduled, a password-protected one stays behind the same password and one only the old site's
members could read (Ghost) is live behind sign-in. Nothing a post lacks
holds it back: no hero picture, missing alt text, no summary or no topic are left to the
editor's content checks, a summary over the limit is shortened, an untitled post gets a title
the editor can find and a post without an author the blog's default byline; the report says
each. A second run of the same export changes nothing (each post's content hash is kept); a
changed post is updated unless an editor saved it since the import, which is reported
instead. Search indexes the posts in one batch at the end.
"""

import re
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from urllib.parse import urlparse

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.html import escape
from django.utils.text import slugify
from modelcluster.models import get_all_child_relations
from wagtail.contrib.redirects.models import Redirect
from wagtail.models import Page, PageViewRestriction, ReferenceIndex, Revision
from wagtail.signal_handlers import disable_reference_index_auto_update

from blog.editorial.featuring import set_featured
from blog.indexing import index_posts, indexing_paused
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
from .records import DRAFT, LIVE, PENDING, PRIVATE, SCHEDULED, untitled

CREATED, UPDATED, UNCHANGED, SKIPPED, FAILED = (
    "created",
    "updated",
    "unchanged",
    "skipped",
    "failed",
)
RESULTS = [CREATED, UPDATED, UNCHANGED, SKIPPED, FAILED]


# Where a post stands for readers once the import is done.
PROTECTED = "protected"  # live, behind its old password
SIGNED_IN = "signed-in"  # live, for signed-in readers only, as the old site's members were


@dataclass
class Outcome:
    post: str
    result: str
    reason: str = ""
    notes: list = field(default_factory=list)
    page_id: int | None = None
    # LIVE, PROTECTED, SIGNED_IN, SCHEDULED or DRAFT; "" for what is not a post here.
    state: str = ""
    without_hero: bool = False


def plural(count, one, many=None):
    return f"{count} {one if count == 1 else many or one + 's'}"


@dataclass
class Report:
    outcomes: list = field(default_factory=list)
    missing_pictures: list = field(default_factory=list)  # (picture problem, post)
    dry_run: bool = False
    seconds: float = 0.0
    notes: list = field(default_factory=list)  # about the export as a whole

    def counts(self):
        counted = Counter(outcome.result for outcome in self.outcomes)
        return {result: counted.get(result, 0) for result in RESULTS}

    def states(self):
        counted = Counter(outcome.state for outcome in self.outcomes if outcome.state)
        states = (LIVE, PROTECTED, SIGNED_IN, SCHEDULED, DRAFT)
        return {state: counted.get(state, 0) for state in states}

    def as_json(self):
        return asdict(self)

    @classmethod
    def from_json(cls, data):
        return cls(
            outcomes=[Outcome(**outcome) for outcome in data["outcomes"]],
            missing_pictures=[tuple(pair) for pair in data["missing_pictures"]],
            dry_run=data["dry_run"],
            seconds=data["seconds"],
            notes=data.get("notes", []),
        )

    def headline(self):
        """What readers will see, first: "56 posts will be live, 1 scheduled, 2 drafts; 12
        pictures were not in the export." Then what was left out and what failed."""
        states, counts = self.states(), self.counts()
        live = states[LIVE] + states[PROTECTED] + states[SIGNED_IN]
        will = "will be" if self.dry_run else "is" if live == 1 else "are"
        parts = [f"{plural(live, 'post')} {will} live"]
        behind = [f"{states[PROTECTED]} behind its old password"] if states[PROTECTED] else []
        behind += [f"{states[SIGNED_IN]} behind sign-in"] if states[SIGNED_IN] else []
        if behind:
            parts[0] += f" ({', '.join(behind)})"
        parts.append(f"{states[SCHEDULED]} scheduled")
        parts.append(plural(states[DRAFT], "draft"))
        sentence = ", ".join(parts)
        pictures = {problem.split(" — ")[0] for problem, _post in self.missing_pictures}
        if pictures:
            sentence += (
                f"; {plural(len(pictures), 'picture')} "
                f"{'was' if len(pictures) == 1 else 'were'} not in the export"
            )
        lines = [sentence + "."]
        if counts[FAILED]:
            lines.append(
                f"{plural(counts[FAILED], 'post')} could not be imported: the reasons are below."
            )
        without_hero = sum(outcome.without_hero for outcome in self.outcomes)
        if without_hero:
            lines.append(
                f"{plural(without_hero, 'post has', 'posts have')} no hero picture; the "
                "content checks in the editor ask for one."
            )
        return lines + self.notes

    def lines(self):
        """What readers will see, the closing table, then every post with a reason or a
        note."""
        counts = self.counts()
        heading = "Dry run: nothing was written. " if self.dry_run else ""
        lines = [*self.headline(), ""]
        lines += [f"{heading}{len(self.outcomes)} items in {self.seconds:.1f} s", ""]
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
        self.default_authors = {}

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
        # every row a post writes, a third of the import's time, and the search index on each
        # of a post's three saves, nearly as many queries again: both once per post at the
        # end. Each pause holds in this thread only (blog/indexing.py).
        with indexing_paused(), disable_reference_index_auto_update():
            for done, record in enumerate(posts, start=1):
                outcome = self.import_one(record, report)
                report.outcomes.append(outcome)
                if outcome.result in {CREATED, UPDATED}:
                    written.append(outcome.page_id)
                self.progress(done, len(posts), outcome)
            if not self.dry_run:
                self.topic_redirects(export)
        report.outcomes += [Outcome(what, SKIPPED, why) for what, why in export.skipped]
        report.notes += export.notes
        if export.comments:
            report.notes.append(
                f"{plural(export.comments, 'comment')} on the posts "
                f"{'was' if export.comments == 1 else 'were'} not imported: this blog has no "
                "comments."
            )
        self.note_states(report.outcomes)
        if written and not self.dry_run:
            self.index_references(written)
            index_posts(written)
        report.seconds = time.perf_counter() - started
        return report

    def note_states(self, outcomes):
        """Where the posts this run did not write stand now, read in three queries."""
        waiting = {o.page_id: o for o in outcomes if o.page_id and not o.state}
        if not waiting:
            return
        live = set(Page.objects.filter(pk__in=waiting, live=True).values_list("pk", flat=True))
        restricted = dict(
            PageViewRestriction.objects.filter(page__in=waiting).values_list(
                "page", "restriction_type"
            )
        )
        scheduled = {
            int(pk)
            for pk in Revision.page_revisions.filter(
                object_id__in=[str(pk) for pk in waiting], approved_go_live_at__isnull=False
            ).values_list("object_id", flat=True)
        }
        for pk, outcome in waiting.items():
            if pk in live:
                outcome.state = {
                    PageViewRestriction.PASSWORD: PROTECTED,
                    PageViewRestriction.LOGIN: SIGNED_IN,
                }.get(restricted.get(pk), LIVE)
            else:
                outcome.state = SCHEDULED if pk in scheduled else DRAFT

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
            if item.content_hash == digest and not self.pictures_arrived(item, record):
                # Still missing: the Publisher re-running the import reads which, as the
                # first run told them.
                for ref in item.missing_pictures:
                    problem = (f"not found: {ref}", record.label)
                    if problem not in report.missing_pictures:
                        report.missing_pictures.append(problem)
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
            if item.content_hash == digest:
                outcome.notes.append("Pictures added since the last run are in the post now.")
        try:
            fields = self.prepare(record, outcome, report)
            outcome.state = fields["state"]
            outcome.without_hero = fields["hero_id"] is None
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

    def pictures_arrived(self, item, record):
        """Whether a picture the last run could not find is in the media now."""
        return any(
            self.pictures.media.find(ref, record.base_dir) is not None
            for ref in item.missing_pictures
        )

    def prepare(self, record, outcome, report):
        """What the post will hold and where it will stand, without writing it."""
        notes = outcome.notes
        missing = []  # the pictures whose files were not found, for a later run to pick up

        def resolve(picture):
            image_id, problem = self.pictures.image_for(picture, record.base_dir)
            if problem:
                if self.pictures.media.find(picture.ref, record.base_dir) is None:
                    missing.append(picture.ref)
                # Its alt text describes that picture, not whichever one an editor adds later:
                # it is kept here, not on the post.
                if picture.alt:
                    problem += f" — its alt text: “{picture.alt}”"
                if (problem, record.label) not in report.missing_pictures:
                    report.missing_pictures.append((problem, record.label))
            return image_id

        body = html_to_blocks(record.body_html, resolve_picture=resolve, link_for=self.link_for)
        notes += record.notes + body.notes
        status = record.status
        if status == PENDING:
            notes.append("It was waiting for review in the old blog: imported as a draft.")
            status = DRAFT
        if status == PRIVATE:
            notes.append(
                "It was private in the old blog (only its editors could read it): imported as "
                "a draft."
            )
            status = DRAFT
        title = " ".join((record.title or "").split())
        if not title:
            title = untitled(record.source_id)
            notes.append(f"It had no title: it is “{title}” until you give it one.")
        elif len(title) > TITLE_MAX_LENGTH:
            title = shortened(title, TITLE_MAX_LENGTH)
            notes.append(f"Its title was over {TITLE_MAX_LENGTH} characters: shortened.")
        hero_id, hero_alt = None, ""
        if record.hero is not None:
            hero_id = resolve(record.hero)
            if hero_id is not None:
                hero_alt = record.hero.alt
                if not hero_alt:
                    notes.append(
                        "Its hero picture has no alt text: published as it was; the content "
                        "checks ask for a description."
                    )
        if body.missing_alt:
            notes.append(
                f"{plural(body.missing_alt, 'picture')} in the body "
                f"{'has' if body.missing_alt == 1 else 'have'} no alt text: published as "
                "in the old blog; the content checks flag them."
            )
        blocks = body.blocks
        summary = (record.summary or "").strip()
        if summary and "<" in summary:
            summary = text_of(summary)
        summary = " ".join(summary.split())
        if not summary:
            summary = opening_words(blocks)
            if summary:
                notes.append("The summary is the body's opening words; check it reads well.")
            else:
                summary = shortened(title, SUMMARY_MAX_LENGTH)
                notes.append("It had no summary and no words to take one from: its title is.")
        if len(summary) > SUMMARY_MAX_LENGTH:
            notes.append(
                f"Its summary had {len(summary)} characters and the limit is "
                f"{SUMMARY_MAX_LENGTH}: shortened to end at a sentence or a word."
            )
            summary = shortened(summary, SUMMARY_MAX_LENGTH)
        if not blocks:
            # A post needs a body; the old one showed its title alone.
            blocks = [{"type": "paragraph", "value": f"<p>{escape(summary)}</p>"}]
            notes.append("Its body was empty: the summary stands in for it.")
        authors = list(record.authors)
        default_author = None
        if not authors:
            default_author = self.default_author()
            notes.append(
                f"It had no author: it carries the blog's default byline, {default_author.name}."
                if default_author
                else "It had no author, and the blog has no default byline to give it (set "
                "one in the blog's settings)."
            )
        if status == SCHEDULED and (record.published_at or timezone.now()) <= timezone.now():
            notes.append("Its scheduled time has passed: published now, dated as scheduled.")
            status = LIVE
        password = record.password if status in {LIVE, SCHEDULED} else ""
        members_only = record.members_only and status in {LIVE, SCHEDULED} and not password
        state = status
        if status == LIVE and (password or members_only):
            state = PROTECTED if password else SIGNED_IN
        return {
            "status": status,
            "state": state,
            "password": password,
            "members_only": members_only,
            "title": title,
            "summary": summary,
            "hero_id": hero_id,
            "hero_alt": hero_alt,
            "body": blocks,
            "authors": authors,
            "default_author": default_author,
            "missing": list(dict.fromkeys(missing)),
        }

    def default_author(self):
        author_id = getattr(self.blog, "default_author_id", None)
        if author_id and author_id not in self.default_authors:
            self.default_authors[author_id] = Author.objects.filter(pk=author_id).first()
        return self.default_authors.get(author_id)

    # Writing ----------------------------------------------------------------------------

    def write(self, record, item, fields, outcome, key, digest):
        """The post, saved, published as its status says, and its ImportedItem."""
        status = fields["status"]
        if item is None:
            post = BlogPage(title=fields["title"], slug=self.free_slug(record, outcome), live=False)
        else:
            post = BlogPage.objects.get(pk=item.page_id)
        post.title = post.draft_title = fields["title"]
        post.summary = fields["summary"]
        post.hero_image_id = fields["hero_id"]
        post.hero_alt = fields["hero_alt"]
        post.body = fields["body"]
        authors = [self.author(person) for person in fields["authors"]]
        if fields["default_author"] is not None:
            authors = [fields["default_author"]]
        post.author_links = [BlogPageAuthor(author=a) for a in unique(authors)]
        # A category and a tag of the same name are one topic here.
        topics = unique(self.topic(ref) for ref in record.topics)
        post.topic_links = [BlogPageTopic(topic=topic) for topic in topics]
        post.go_live_at = record.published_at if status == SCHEDULED else None
        if item is None:
            self.blog.add_child(instance=post)
        elif status == DRAFT and post.live:
            outcome.notes.append("It is no longer published in the export: unpublished.")
            post.unpublish(user=self.user)
        self.protect(post, fields["password"], outcome)
        if fields["members_only"]:
            self.for_signed_in_readers(post)
        publishing = status in {LIVE, SCHEDULED}
        # Publishing now validates the post as it saves it (Wagtail's publish cleans), so it is
        # cleaned once; a post scheduled for later is cleaned here, drafts may be incomplete.
        revision = post.save_revision(user=self.user, log_action=True, clean=status == SCHEDULED)
        # Recorded before the publish, whose signal turns the old addresses into redirects
        # once the post is live (redirects.py): now, or at a scheduled post's go-live.
        item = self.remember(item, key, post, digest, self.old_paths(record), fields["missing"])
        if publishing:
            revision.publish(user=self.user)
        if status != SCHEDULED and record.published_at:
            # Dated as the old blog dated it, not by the time of the import. A draft keeps its
            # date too, and Wagtail keeps a first publication date when an editor publishes.
            modified = max(record.modified_at or record.published_at, record.published_at)
            Page.objects.filter(pk=post.pk).update(
                first_published_at=record.published_at,
                last_published_at=modified if status == LIVE else None,
            )
        if record.featured and not post.featured:
            post.refresh_from_db()
            set_featured(post, self.user, True)
        return post, item

    def protect(self, post, password, outcome):
        """The old blog's post password, as a Wagtail page password (the same one)."""
        restriction = PageViewRestriction.objects.filter(
            page=post, restriction_type=PageViewRestriction.PASSWORD
        ).first()
        if not password:
            return
        if restriction is None:
            PageViewRestriction.objects.create(
                page=post, restriction_type=PageViewRestriction.PASSWORD, password=password
            )
            outcome.notes.append("Readers need its old password to read it, as before.")
        elif restriction.password != password:
            restriction.password = password
            restriction.save(update_fields=["password"])
            outcome.notes.append("Its password changed in the old blog: the new one applies.")

    def for_signed_in_readers(self, post):
        """What only the old site's members could read: only signed-in readers read it here
        (the parser's note says so)."""
        PageViewRestriction.objects.get_or_create(
            page=post, restriction_type=PageViewRestriction.LOGIN
        )

    def remember(self, item, key, post, digest, old_paths, missing_pictures):
        if item is None:
            item = ImportedItem(source=self.export.source, key=key)
        item.page, item.revision_id, item.content_hash = post, post.latest_revision_id, digest
        item.old_paths_waiting = old_paths
        item.missing_pictures = missing_pictures
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


TITLE_MAX_LENGTH = 255
SENTENCE_END = re.compile(r"[.!?…][)\]\"'”’]*\s")


def shortened(text, limit):
    """`text` within `limit` characters, ending at a sentence if one ends in its second half,
    else at a word, with an ellipsis; a word longer than the limit is cut."""
    if len(text) <= limit:
        return text
    head = text[: limit + 1]
    sentences = [m.end() for m in SENTENCE_END.finditer(head) if m.end() <= limit + 1]
    if sentences and sentences[-1] > limit // 2:
        return head[: sentences[-1]].strip()
    head = text[: limit - 1]
    cut = head.rfind(" ")
    head = head[:cut] if cut > limit // 2 else head
    return head.rstrip(" ,;:-–—") + "…"


def unique(things):
    return list(dict.fromkeys(things))


def opening_words(blocks):
    for block in blocks:
        if block["type"] == "paragraph":
            words = text_of(block["value"])
            if words:
                return shortened(words, SUMMARY_MAX_LENGTH)
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
