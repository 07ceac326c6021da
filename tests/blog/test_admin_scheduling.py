"""Scheduling as editors do it in the admin: local times, and editing after the scheduler ran."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from wagtail.models import PageLogEntry

from blog.roles import PUBLISHERS
from blog.scheduling import run_pass
from tests.factories import draft_post, publish_post

from .scheduling import edit_form_data, edit_url, make_user, schedule_post

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_a_publisher_in_new_york_schedules_nine_in_the_morning_local_time(
    client, blog, author, topic
):
    publisher = make_user("nora", group=PUBLISHERS, time_zone="America/New_York")
    client.force_login(publisher)
    with time_machine.travel(MONDAY, tick=False):
        post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
        data = edit_form_data(client, post, go_live_at="2026-12-01 09:00")
        data["action-publish"] = "action-publish"
        response = client.post(edit_url(post), data)
    assert response.status_code == 302
    revision = post.revisions.get(approved_go_live_at__isnull=False)
    # 09:00 in New York in December (EST, UTC-5) is 14:00 UTC.
    assert revision.approved_go_live_at == datetime(2026, 12, 1, 14, 0, tzinfo=UTC)

    with time_machine.travel(datetime(2026, 12, 1, 13, 59, 59, tzinfo=UTC), tick=False):
        assert run_pass(interval=30).published == 0
    with time_machine.travel(datetime(2026, 12, 1, 14, 0, tzinfo=UTC), tick=False):
        assert run_pass(interval=30).published == 1
    post.refresh_from_db()
    assert post.live
    assert post.first_published_at == datetime(2026, 12, 1, 14, 0, tzinfo=UTC)


def test_a_post_the_scheduler_published_can_be_edited_and_published_again(
    client, blog, author, topic
):
    go_live = MONDAY + timedelta(days=1)
    with time_machine.travel(MONDAY, tick=False):
        post = schedule_post(blog, "Launch notes", go_live, authors=[author], topics=[topic])
    client.force_login(make_user("pat", group=PUBLISHERS))
    with time_machine.travel(go_live + timedelta(minutes=1), tick=False):
        run_pass(interval=30)
        draft = edit_form_data(client, post, title="Launch notes, revised")
        assert draft["go_live_at"] == "", "the spent go-live time is not offered again"
        assert client.post(edit_url(post), draft).status_code == 302

        published = edit_form_data(client, post, title="Launch notes, final")
        published["action-publish"] = "action-publish"
        assert client.post(edit_url(post), published).status_code == 302
    post.refresh_from_db()
    assert (post.live, post.title, post.go_live_at) == (True, "Launch notes, final", None)


def test_an_expired_post_can_be_edited_and_published_again(client, blog, author, topic):
    expiry = MONDAY + timedelta(days=1)
    with time_machine.travel(MONDAY, tick=False):
        post = publish_post(blog, "Event notice", authors=[author], topics=[topic])
        post.expire_at = expiry
        post.save_revision().publish()
    client.force_login(make_user("pat", group=PUBLISHERS))
    with time_machine.travel(expiry + timedelta(minutes=1), tick=False):
        assert run_pass(interval=30).unpublished == 1
        draft = edit_form_data(client, post, title="Event notice (archived)")
        assert draft["expire_at"] == "", "a past expiry would block the save"
        response = client.post(edit_url(post), draft)
        assert response.status_code == 302, "saving a draft is refused: Invalid schedule"

        published = edit_form_data(client, post)
        published["action-publish"] = "action-publish"
        assert client.post(edit_url(post), published).status_code == 302
    post.refresh_from_db()
    assert (post.live, post.expired, post.title) == (True, False, "Event notice (archived)")
    assert PageLogEntry.objects.filter(page=post, action="wagtail.publish").exists()


def test_an_expiry_still_in_the_future_is_kept_in_the_form(client, blog, author, topic):
    with time_machine.travel(MONDAY, tick=False):
        post = publish_post(blog, "Event notice", authors=[author], topics=[topic])
        post.expire_at = MONDAY + timedelta(days=3)
        post.save_revision().publish()
        client.force_login(make_user("pat", group=PUBLISHERS))
        assert edit_form_data(client, post)["expire_at"] == "2026-12-03 12:00"
