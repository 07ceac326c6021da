"""The dashboard's "Scheduled publishing" panel, as an editor sees it after signing in."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.contrib.auth.models import Permission

from blog.editorial.roles import EDITORS
from blog.models import SchedulerHeartbeat

from .scheduling import make_user, schedule_post

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def panel_text(client):
    response = client.get("/admin/")
    assert response.status_code == 200
    panel = BeautifulSoup(response.content, "html.parser").select_one(
        "#scheduled-publishing-section"
    )
    assert panel is not None, "the dashboard has no Scheduled publishing panel"
    return " ".join(panel.get_text(" ").split())


@pytest.fixture
def signed_in_editor(client, blog):
    client.force_login(make_user("eddie", group=EDITORS, time_zone="Europe/London"))
    return client


def test_the_panel_warns_when_the_scheduler_never_ran(signed_in_editor):
    assert "The scheduler has never run" in panel_text(signed_in_editor)


def test_the_panel_shows_a_recent_run_without_a_warning(signed_in_editor):
    SchedulerHeartbeat.record(last_success_at=NOW - timedelta(seconds=20), interval_seconds=30)
    with time_machine.travel(NOW, tick=False):
        text = panel_text(signed_in_editor)
    assert "Last successful run: Mon 30 Nov, 11:59 (Europe/London)" in text
    assert "has not run" not in text


def test_the_panel_warns_when_the_last_run_is_older_than_two_intervals(signed_in_editor):
    SchedulerHeartbeat.record(last_success_at=NOW - timedelta(seconds=61), interval_seconds=30)
    with time_machine.travel(NOW, tick=False):
        text = panel_text(signed_in_editor)
    assert "The scheduler has not run since Mon 30 Nov, 11:58 (Europe/London)" in text
    assert "Scheduled posts will not go live" in text


def test_the_panel_reports_posts_the_last_run_could_not_publish(signed_in_editor):
    SchedulerHeartbeat.record(
        last_success_at=NOW,
        last_error_at=NOW,
        last_error="Revision 7 (Broken post): storage is unavailable",
    )
    with time_machine.travel(NOW, tick=False):
        text = panel_text(signed_in_editor)
    assert "could not handle everything" in text
    assert "Broken post" in text


def test_upcoming_posts_are_listed_in_the_editors_own_time_zone(client, blog, author, topic):
    with time_machine.travel(NOW, tick=False):
        schedule_post(
            blog,
            "Launch notes",
            datetime(2026, 12, 1, 14, 0, tzinfo=UTC),
            authors=[author],
            topics=[topic],
        )
        client.force_login(make_user("nora", group=EDITORS, time_zone="America/New_York"))
        text = panel_text(client)
    assert "Launch notes" in text
    assert "Tue 1 Dec, 09:00 (America/New_York)" in text


def test_a_post_past_its_go_live_time_shows_as_waiting(signed_in_editor, blog, author, topic):
    with time_machine.travel(NOW, tick=False):
        schedule_post(blog, "Late post", NOW + timedelta(minutes=5), authors=[author])
    with time_machine.travel(NOW + timedelta(minutes=10), tick=False):
        assert "due, waiting for the scheduler" in panel_text(signed_in_editor)


def test_users_without_access_to_a_post_do_not_see_it(client, blog, author, topic):
    with time_machine.travel(NOW, tick=False):
        schedule_post(blog, "Launch notes", NOW + timedelta(days=1), authors=[author])
        guest = make_user("guest")
        guest.user_permissions.add(Permission.objects.get(codename="access_admin"))
        client.force_login(guest)
        text = panel_text(client)
    assert "No posts are scheduled to go live." in text
