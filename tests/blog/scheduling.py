"""Builders for scheduled posts, shared by the scheduler, dashboard and admin tests."""

from wagtail.models import PageLogEntry

from tests.factories import draft_post


def schedule_post(index, title, go_live_at, *, expire_at=None, **fields):
    """A new post a publisher scheduled: not live, its revision approved to go live later."""
    post = draft_post(index, title, **fields)
    post.go_live_at = go_live_at
    post.expire_at = expire_at
    post.save_revision().publish()
    post.refresh_from_db()
    return post


def scheduled_log_entries(post, action):
    return PageLogEntry.objects.filter(page=post, action=action).count()
