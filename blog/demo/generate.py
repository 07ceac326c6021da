"""Synthetic posts for benchmarks, written in bulk.

Adding pages one by one through treebeard's add_child costs a quarter of a second each (a
path lookup, a parent update, a revision and an index write per post); 10,000 posts took most
of an hour. Here the tree paths are computed once and every table is written in batches, so
the rows come out as add_child and publishing would have left them, only much faster.
"""

import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.utils import timezone
from wagtail.models import Page

from blog.caching.invalidation import content_changed
from blog.indexing import index_posts
from blog.models import BlogPage, BlogPageAuthor, BlogPageTopic
from blog.reading import reading_minutes
from home.library_adapters import child_path, child_step, insert_rows

from .bodies import generated_body

BATCH = 1000
SLUG_PREFIX = "generated-"
SUBJECTS = [
    "checkpoint intervals",
    "restore latency",
    "Xid error triage",
    "NCCL timeouts",
    "KV cache migration",
    "spot instance reclaim",
    "thermal throttling",
    "fleet health signals",
    "tensor parallel recovery",
    "inference session state",
]


def generated_title(n):
    return SUBJECTS[n % len(SUBJECTS)].capitalize()


@dataclass
class Generated:
    created: int
    write_seconds: float
    index_seconds: float


def generate_posts(index, count, *, images, topics, author, oldest=None):
    """Make sure posts generated-1 … generated-<count> exist under `index`, live and indexed.

    Posts already there are left alone, so a larger count adds only the missing ones.
    Post n is published n hours before `oldest` (90 days ago by default), so the reference
    posts stay on top of the blog and generated posts follow in number order.
    """
    oldest = oldest or timezone.now() - timedelta(days=90)
    existing = set(
        BlogPage.objects.child_of(index)
        .filter(slug__startswith=SLUG_PREFIX)
        .values_list("slug", flat=True)
    )
    missing = [n for n in range(1, count + 1) if f"{SLUG_PREFIX}{n}" not in existing]
    started = time.perf_counter()
    with transaction.atomic():
        # Lock the index row: two runs at once would hand out the same tree paths.
        index = type(index).objects.select_for_update().get(pk=index.pk)
        new_ids = []
        next_step = last_child_step(index) + 1
        for start in range(0, len(missing), BATCH):
            batch = missing[start : start + BATCH]
            posts = [
                build_post(index, n, next_step + i, images, oldest)
                for i, n in enumerate(batch, start=start)
            ]
            new_ids.extend(insert_posts(posts))
            BlogPageAuthor.objects.bulk_create(
                [BlogPageAuthor(page_id=post.pk, author=author, sort_order=0) for post in posts]
            )
            BlogPageTopic.objects.bulk_create(
                [
                    BlogPageTopic(page_id=post.pk, topic=topics[n % len(topics)], sort_order=0)
                    for n, post in zip(batch, posts, strict=True)
                ]
            )
        if missing:
            numchild = Page.objects.filter(
                path__startswith=index.path, depth=index.depth + 1
            ).count()
            Page.objects.filter(pk=index.pk).update(numchild=numchild)
            # Bulk writes send no post_save: retire cached pages that list posts.
            content_changed()
    write_seconds = time.perf_counter() - started

    started = time.perf_counter()
    with body_text_computed_once():
        index_posts(new_ids)
    if new_ids:
        refresh_planner_statistics()
    return Generated(len(missing), write_seconds, time.perf_counter() - started)


def last_child_step(index):
    last = (
        Page.objects.filter(path__startswith=index.path, depth=index.depth + 1)
        .order_by("-path")
        .values_list("path", flat=True)
        .first()
    )
    return 0 if last is None else child_step(last, Page.steplen)


def build_post(index, n, step, images, oldest):
    slug = f"{SLUG_PREFIX}{n}"
    published = oldest - timedelta(hours=n)
    image = images[n % len(images)]
    title = f"Field note {n}: {generated_title(n)}"
    post = BlogPage(
        title=title,
        draft_title=title,
        slug=slug,
        content_type=blog_page_type(),
        path=child_path(index, step),
        depth=index.depth + 1,
        numchild=0,
        url_path=f"{index.url_path}{slug}/",
        locale_id=index.locale_id,
        translation_key=uuid.uuid4(),
        live=True,
        has_unpublished_changes=False,
        first_published_at=published,
        last_published_at=published,
        latest_revision_created_at=published,
        summary=f"Synthetic post {n}, generated for benchmarks: notes on "
        f"{generated_title(n).lower()}.",
        hero_image=image,
        hero_alt=f"Blueprint drawing number {n % len(images)} of GPU nodes and saved-state icons.",
        body=generated_body(n, image.pk),
    )
    # What BlogPage.save() would have computed.
    post.reading_minutes = reading_minutes(len(post.body_text().split()))
    return post


def blog_page_type():
    return ContentType.objects.get_for_model(BlogPage)


def insert_posts(posts):
    """Insert the page rows, then the post rows that extend them (Django's bulk_create refuses
    multi-table models, so the two tables are written one after the other)."""
    page_ids = insert_rows(Page, posts, new_keys=True)
    for post, pk in zip(posts, page_ids, strict=True):
        post.pk = post.id = post.page_ptr_id = pk
    insert_rows(BlogPage, posts)
    return [post.pk for post in posts]


def refresh_planner_statistics():
    """Without fresh statistics after a bulk load, PostgreSQL plans searches for the few
    hundred rows it last saw (nested loops over thousands of entries); autovacuum catches up
    only later. SQLite's planner uses ANALYZE's figures the same way. Outside a transaction
    PostgreSQL vacuums the tables too: autovacuum would otherwise do it minutes later, in the
    middle of whatever is measured next (a search over 10,000 fresh posts took 92 ms instead
    of 14 while it ran)."""
    tables = [
        Page._meta.db_table,
        BlogPage._meta.db_table,
        BlogPageTopic._meta.db_table,
        BlogPageAuthor._meta.db_table,
        "wagtailsearch_indexentry",
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            verb = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
            cursor.execute(f"{verb} {', '.join(tables)}")
        else:
            cursor.execute("ANALYZE")


@contextmanager
def body_text_computed_once():
    """The PostgreSQL indexer reads every search field once per column it fills (title,
    autocomplete, body and two plain-text copies), so each body's blocks were walked five
    times, and each walk looked up its image in a query of its own. While one batch is
    indexed, each body's words are remembered. The field's own method is shadowed on this one
    field instance only and unshadowed after; Wagtail's blocks are left alone."""
    field = BlogPage._meta.get_field("body")
    walk = field.get_searchable_content
    words = {}

    def walk_once(value):
        if id(value) not in words:
            words[id(value)] = (value, walk(value))  # holding the value keeps its id unique
        return words[id(value)][1]

    field.get_searchable_content = walk_once
    try:
        yield
    finally:
        del field.get_searchable_content
