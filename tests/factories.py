"""Builders that read like what an editor does: make a topic, publish a post, leave a draft."""

import io
from datetime import timedelta

from django.core.files.images import ImageFile
from django.utils import timezone
from django.utils.text import slugify
from PIL import Image as PILImage
from wagtail.images.models import Image

from blog.models import Author, BlogIndexPage, BlogPage, BlogPageAuthor, BlogPageTopic, Topic


def make_topic(name, **fields):
    return Topic.objects.create(name=name, slug=fields.pop("slug", slugify(name)), **fields)


def make_author(name, **fields):
    return Author.objects.create(name=name, slug=fields.pop("slug", slugify(name)), **fields)


def make_image(title="picture", size=(320, 180), colour=(18, 63, 140)):
    buffer = io.BytesIO()
    PILImage.new("RGB", size, colour).save(buffer, format="PNG")
    return Image.objects.create(title=title, file=ImageFile(buffer, name=f"{slugify(title)}.png"))


def make_blog_index(parent, title="Blog", slug="blog", **fields):
    fields.setdefault("hero_heading", "Writing from the\nteam.")
    fields.setdefault("hero_intro", "Engineering notes and field reports.")
    fields.setdefault("title_line", "blog · field reports")
    index = parent.add_child(instance=BlogIndexPage(title=title, slug=slug, **fields))
    index.save_revision().publish()
    return index


def draft_post(index, title, *, authors=(), topics=(), image=None, hero=True, **fields):
    """A post saved in the admin but never published; `hero=False`: without a hero picture, as
    imported posts often are."""
    fields.setdefault("summary", f"A summary of {title}.")
    fields.setdefault("hero_alt", f"Drawing for {title}" if hero else "")
    fields.setdefault("body", [{"type": "paragraph", "value": f"<p>Body of {title}.</p>"}])
    post = BlogPage(title=title, slug=fields.pop("slug", slugify(title)[:80]), live=False, **fields)
    if hero:
        post.hero_image = image or make_image(f"Hero for {title}")
    post.author_links = [BlogPageAuthor(author=a) for a in authors]
    post.topic_links = [BlogPageTopic(topic=t) for t in topics]
    index.add_child(instance=post)
    post.save_revision()
    return post


def publish_post(index, title, *, published_at=None, **fields):
    """A post an editor published; `published_at` back-dates its first publication."""
    post = draft_post(index, title, **fields)
    post.get_latest_revision().publish()
    post.refresh_from_db()
    if published_at is not None:
        BlogPage.objects.filter(pk=post.pk).update(
            first_published_at=published_at, last_published_at=published_at
        )
        post.refresh_from_db()
    return post


def publish_posts(index, count, *, start=None, **fields):
    """`count` posts, one a day, newest first in the order returned."""
    start = start or timezone.now() - timedelta(days=1)
    return [
        publish_post(index, f"Post {n:03d}", published_at=start - timedelta(days=n), **fields)
        for n in range(count)
    ]


def publish_brief_post(index, now, title="Brief", **fields):
    """A post published 12 hours before `now` that expires 30 s after it: listed between the
    first two of publish_posts(start=now), and gone a minute later."""
    return publish_post(
        index,
        title,
        published_at=now - timedelta(hours=12),
        expire_at=now + timedelta(seconds=30),
        **fields,
    )
