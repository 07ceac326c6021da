"""The scheduler publishes what is due, unpublishes what expired, and keeps going when one fails."""

import io
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command
from wagtail.models import PageLogEntry, Revision

from blog.editorial.scheduling import run_pass
from blog.models import BlogPage, SchedulerHeartbeat
from tests.factories import publish_post

from .scheduling import schedule_post, scheduled_log_entries

pytestmark = pytest.mark.django_db

GO_LIVE = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def run_once():
    """The pass's summary: the first line (after-pass work reports on the lines below)."""
    out = io.StringIO()
    call_command("run_scheduler", "--once", stdout=out)
    return out.getvalue().strip().splitlines()[0]


def test_a_scheduled_post_waits_until_its_go_live_time(blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        post = schedule_post(blog, "Launch notes", GO_LIVE, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE - timedelta(microseconds=1), tick=False):
        assert run_once() == "published 0, unpublished 0, failed 0"
    post.refresh_from_db()
    assert not post.live
    assert not BlogPage.objects.readable().filter(pk=post.pk).exists()


def test_a_scheduled_post_goes_live_on_the_first_pass_at_its_go_live_time(
    client, blog, author, topic
):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        post = schedule_post(blog, "Launch notes", GO_LIVE, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE + timedelta(microseconds=1), tick=False):
        assert run_once() == "published 1, unpublished 0, failed 0"
        assert client.get(post.url).status_code == 200
    post.refresh_from_db()
    assert post.live
    assert post.first_published_at == GO_LIVE + timedelta(microseconds=1)
    assert post.go_live_at is None, "the spent go-live time is cleared"
    assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1


def test_a_second_pass_changes_nothing(blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        post = schedule_post(blog, "Launch notes", GO_LIVE, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE + timedelta(minutes=1), tick=False):
        run_once()
        assert run_once() == "published 0, unpublished 0, failed 0"
    assert scheduled_log_entries(post, "wagtail.publish.scheduled") == 1


def test_a_scheduled_update_replaces_the_live_text_only_at_go_live(client, blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        post = publish_post(blog, "Old title", authors=[author], topics=[topic])
        post.title = "New title"
        post.go_live_at = GO_LIVE
        post.save_revision().publish()
        assert "Old title" in client.get(post.url).content.decode()
    with time_machine.travel(GO_LIVE + timedelta(seconds=5), tick=False):
        assert run_once() == "published 1, unpublished 0, failed 0"
        assert "New title" in client.get(post.url).content.decode()


def test_an_expired_post_is_unpublished_and_its_expiry_cleared(client, blog, author, topic):
    expiry = GO_LIVE + timedelta(days=7)
    with time_machine.travel(GO_LIVE, tick=False):
        post = publish_post(blog, "Event notice", authors=[author], topics=[topic])
        post.expire_at = expiry
        post.save_revision().publish()
    with time_machine.travel(expiry - timedelta(microseconds=1), tick=False):
        assert run_once() == "published 0, unpublished 0, failed 0"
        assert client.get(post.url).status_code == 200
    with time_machine.travel(expiry, tick=False):
        assert run_once() == "published 0, unpublished 1, failed 0"
    post.refresh_from_db()
    assert (post.live, post.expired, post.expire_at) == (False, True, None)
    assert client.get(post.url).status_code == 404
    assert scheduled_log_entries(post, "wagtail.unpublish.scheduled") == 1


def test_one_failing_post_does_not_stop_the_others(blog, author, topic, monkeypatch):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        first = schedule_post(blog, "First", GO_LIVE, authors=[author], topics=[topic])
        broken = schedule_post(blog, "Broken", GO_LIVE, authors=[author], topics=[topic])
        last = schedule_post(blog, "Last", GO_LIVE, authors=[author], topics=[topic])
    broken_revision = broken.revisions.get(approved_go_live_at__isnull=False)
    real_publish = Revision.publish

    def publish_unless_broken(revision, *args, **kwargs):
        if revision.pk == broken_revision.pk:
            raise ValueError("storage is unavailable")
        return real_publish(revision, *args, **kwargs)

    monkeypatch.setattr(Revision, "publish", publish_unless_broken)
    out = io.StringIO()
    with (
        time_machine.travel(GO_LIVE + timedelta(seconds=1), tick=False),
        pytest.raises(CommandError, match="1 scheduled item"),
    ):
        call_command("run_scheduler", "--once", stdout=out)

    assert out.getvalue().splitlines()[0] == "published 2, unpublished 0, failed 1"
    for post in (first, broken, last):
        post.refresh_from_db()
    assert first.live and last.live
    assert not broken.live
    broken_revision.refresh_from_db()
    assert broken_revision.approved_go_live_at == GO_LIVE, "the failed post keeps its schedule"
    heartbeat = SchedulerHeartbeat.current()
    assert "Broken" in heartbeat.last_error and "storage is unavailable" in heartbeat.last_error
    assert heartbeat.last_success_at is not None


def test_a_stop_request_finishes_the_current_post_and_leaves_the_rest(blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        first = schedule_post(blog, "First", GO_LIVE, authors=[author], topics=[topic])
        second = schedule_post(blog, "Second", GO_LIVE, authors=[author], topics=[topic])
    checks = iter([False, True])
    with time_machine.travel(GO_LIVE + timedelta(seconds=1), tick=False):
        result = run_pass(interval=30, should_stop=lambda: next(checks, True))
    assert result.summary == "published 1, unpublished 0, failed 0 (stopped early)"
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.live and not second.live


def test_each_pass_leaves_a_heartbeat(blog):
    assert SchedulerHeartbeat.current() is None
    with time_machine.travel(GO_LIVE, tick=False):
        call_command("run_scheduler", "--once", "--interval", "300", stdout=io.StringIO())
    heartbeat = SchedulerHeartbeat.current()
    assert heartbeat.interval_seconds == 300, "cron's period, for the health panel"
    assert heartbeat.last_started_at == GO_LIVE
    assert heartbeat.last_success_at == GO_LIVE
    assert heartbeat.last_summary == "published 0, unpublished 0, failed 0"
    assert heartbeat.last_error == ""


def test_the_interval_must_be_positive(db):
    with pytest.raises(CommandError, match="positive"):
        call_command("run_scheduler", "--interval", "0")


def test_scheduled_publishing_is_in_the_page_history(blog, author, topic):
    with time_machine.travel(GO_LIVE - timedelta(days=1), tick=False):
        post = schedule_post(blog, "Launch notes", GO_LIVE, authors=[author], topics=[topic])
    with time_machine.travel(GO_LIVE + timedelta(seconds=1), tick=False):
        run_once()
    actions = list(
        PageLogEntry.objects.filter(page=post)
        .order_by("timestamp", "pk")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["wagtail.publish.schedule", "wagtail.publish.scheduled"]
