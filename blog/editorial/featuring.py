"""Featuring a post: one action, from the post's header or the Posts list, that puts it in its
blog's featured slot.

Featuring is not an edit of the post: it makes no revision and leaves the post's "Updated" date
alone, and a revision published later keeps it (BlogPage.with_content_json). The slot shows,
of the featured posts readers can see, the one featured last (BlogIndexPage.choose_featured):
featuring a live post puts it there at once; featuring a scheduled post puts it there when it
goes live, and the one featured before it keeps the slot until then and takes it back if the
newer one expires or is unfeatured.
"""

from django.db import transaction
from django.utils import timezone
from wagtail.log_actions import log

from ..caching.invalidation import content_changed, purge_listings
from ..models import BlogPage
from .overview import in_editor_zone

FEATURE, UNFEATURE = "blog.feature", "blog.unfeature"


def in_slot(blog):
    """The post readers see in the blog's featured slot now, chosen afresh."""
    return blog.choose_featured(blog.posts())


def set_featured(post, user, featured):
    """Feature or unfeature `post`; returns the message that says what readers will see."""
    blog = post.get_parent().specific
    with transaction.atomic():
        BlogPage.objects.filter(pk=post.pk).update(
            featured=featured, featured_at=timezone.now() if featured else None
        )
        post.featured = featured
        log(instance=post, action=FEATURE if featured else UNFEATURE, user=user)
        # update() sends no post_save: retire cached pages and purge a CDN as a publish does.
        content_changed()
        purge_listings(BlogPage, post)
    return what_readers_see(post, in_slot(blog))


def what_readers_see(post, shown):
    title = f"“{post.get_admin_display_title()}”"
    now = f"readers see “{shown.title}” there" if shown else "the blog shows no featured post"
    if not post.featured:
        return f"{title} is no longer featured: {now}."
    if shown is not None and shown.pk == post.pk:
        return f"{title} is now the featured post at the top of the blog."
    # Featured and live, yet not chosen: past its expiry or behind a view restriction.
    when = "once readers can see it" if post.live else when_it_takes_the_slot(post)
    return f"{title} will take the featured slot {when}; until then {now}."


def when_it_takes_the_slot(post):
    """'at once', 'when it goes live on 12 Mar 2027, 09:30 Europe/Berlin' or 'once it is
    published'."""
    if post.live:
        return "at once"
    go_live = post.scheduled_revision and post.scheduled_revision.approved_go_live_at
    if go_live:
        return f"when it goes live on {in_editor_zone(go_live)}"
    return "once it is published"
