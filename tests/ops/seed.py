"""Content for the fault and load runs, run inside Django by tests/ops/rig.py."""

import json

from blog.models import BlogIndexPage, BlogPage
from tests.factories import publish_post
from tests.scale.seed import seed as seed_scale


def seed(posts):
    seed_scale()  # home, site, blog, three posts, a topic, an author, an editor (prints JSON)
    blog = BlogIndexPage.objects.get()
    first = BlogPage.objects.child_of(blog).first()
    author, topic = first.authors[0], first.topics[0]
    for n in range(posts):
        publish_post(blog, f"Load post {n:03d} on rack cooling", authors=[author], topics=[topic])
    urls = [post.url for post in BlogPage.objects.live().child_of(blog)]
    print(json.dumps({"blog_url": blog.url, "post_urls": urls}))  # noqa: T201 - read by the caller


def schedule_due(count):
    """`count` drafts scheduled for an hour from now, then the clock "reaches" that hour for all
    of them at once: the scheduler's next pass finds a whole batch due."""
    from datetime import timedelta

    from django.utils import timezone
    from wagtail.models import Page, Revision

    from tests.factories import draft_post

    blog = BlogIndexPage.objects.get()
    first = BlogPage.objects.live().child_of(blog).first()
    go_live = timezone.now() + timedelta(hours=1)
    ids = []
    for n in range(count):
        post = draft_post(blog, f"Batch {n:02d}", authors=[first.authors[0]])
        post.go_live_at = go_live
        post.save_revision().publish()  # before go_live_at this only approves the schedule
        ids.append(post.pk)
    due = timezone.now() - timedelta(seconds=1)
    for revision in Revision.objects.filter(
        object_id__in=[str(pk) for pk in ids], approved_go_live_at__isnull=False
    ):
        revision.content["go_live_at"] = due.isoformat()
        revision.approved_go_live_at = due
        revision.save(update_fields=["content", "approved_go_live_at"])
    Page.objects.filter(pk__in=ids).update(go_live_at=due)
    print(json.dumps(ids))  # noqa: T201 - read by the caller
