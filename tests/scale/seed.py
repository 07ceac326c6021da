"""Content for the loopback cluster, run inside Django by tests/scale/cluster.py
(`manage.py shell -c ...`), so images go through the configured storage: the S3 bucket."""

import json
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from wagtail.models import Collection, Page, Site

from blog.models import BlogIndexPage, BlogPage
from home.models import HomePage, SiteSettings
from tests.factories import draft_post, make_author, make_blog_index, make_topic, publish_post

from .cluster import EDITOR

PUBLISHED = ["Cooling loops at scale", "GPU burn-in notes", "Kept for the outage"]


def ensure_tree_roots():
    """A flushed database (after transactional tests) has lost the migrations' root nodes."""
    if not Page.objects.filter(depth=1).exists():
        Page.add_root(instance=Page(title="Root", slug="root", live=True))
    if not Collection.objects.filter(depth=1).exists():
        Collection.add_root(name="Root")


def seed():
    ensure_tree_roots()
    root = Page.objects.get(depth=1)
    home = root.add_child(instance=HomePage(title="Home", slug="scale-home"))
    Site.objects.all().delete()
    site = Site.objects.create(hostname="localhost", root_page=home, is_default_site=True)
    SiteSettings.objects.create(site=site, login_url="/admin/", cta_url="https://example.com/")
    blog = make_blog_index(home)
    topic = make_topic("Fleet operations")
    author = make_author("Scale Rehearsal")
    posts = {
        title: publish_post(blog, title, authors=[author], topics=[topic]).pk for title in PUBLISHED
    }
    fresh = draft_post(blog, "Fresh from server A", authors=[author], topics=[topic])
    User = get_user_model()
    User.objects.create_superuser(EDITOR[0], "editor@example.com", EDITOR[1])
    print(  # noqa: T201 - the caller reads stdout
        json.dumps(
            {
                "blog_url": blog.url,
                "topic_url": blog.topic_url(topic),
                "posts": {title: BlogPage.objects.get(pk=pk).url for title, pk in posts.items()},
                "draft_id": fresh.pk,
                "draft_url": blog.url + fresh.slug + "/",
                "collection_id": Collection.get_first_root_node().pk,
            }
        )
    )


def schedule(count, seconds):
    """An editor schedules `count` drafts to go live together in `seconds` seconds."""
    blog = BlogIndexPage.objects.get()
    first = BlogPage.objects.child_of(blog).first()
    author, image = first.authors[0], first.hero_image
    stamp = f"{timezone.now():%H%M%S}"
    drafts = [
        draft_post(blog, f"Scheduled {n:02d} {stamp}", authors=[author], image=image)
        for n in range(count)
    ]
    # The clock starts once the drafts exist: on a busy machine making them can take longer
    # than `seconds`, and a post approved after its go-live time is published at once instead.
    go_live = timezone.now() + timedelta(seconds=seconds)
    ids = []
    for post in drafts:
        post.go_live_at = go_live
        post.save_revision().publish()  # before go_live_at this only approves the schedule
        ids.append(post.pk)
    print(json.dumps(ids))  # noqa: T201 - the caller reads stdout
