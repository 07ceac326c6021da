"""A publisher moves a scheduled post's go-live from the calendar, under the editor's rules."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from wagtail.models import PageLogEntry, Revision

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.editorial.scheduling import run_pass
from blog.models import BlogPage
from tests.factories import publish_post

from .scheduling import make_user, schedule_post

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")
CALENDAR_URL = "/admin/calendar/"


def reschedule_url(post):
    return f"/admin/blog/posts/{post.pk}/reschedule/"


def typed(moment):
    """The go-live as the editor types it, on their own clock."""
    return timezone.localtime(moment, BERLIN).strftime("%Y-%m-%d %H:%M")


def messages_of(response):
    page = BeautifulSoup(response.content, "html.parser")
    return " ".join(node.get_text(" ", strip=True) for node in page.select(".messages li"))


def approved_go_live(post):
    return [
        revision.approved_go_live_at
        for revision in Revision.page_revisions.filter(
            object_id=str(post.pk), approved_go_live_at__isnull=False
        )
    ]


def next_whole_minute(days):
    return (timezone.now() + timedelta(days=days)).replace(second=0, microsecond=0)


@pytest.fixture
def publisher(client):
    user = make_user("petra", group=PUBLISHERS, time_zone="Europe/Berlin")
    client.force_login(user)
    return user


@pytest.fixture
def scheduled(blog, author, topic):
    return schedule_post(
        blog,
        "Spot instances, one year on",
        next_whole_minute(days=40),
        expire_at=next_whole_minute(days=90),
        authors=[author],
        topics=[topic],
    )


def reschedule(client, post, value, follow=True):
    return client.post(reschedule_url(post), {f"post-{post.pk}-go_live_at": value}, follow=follow)


def test_a_publisher_moves_a_go_live_and_the_calendar_shows_it_on_the_new_day(
    client, publisher, scheduled
):
    new_time = next_whole_minute(days=3).replace(minute=17)
    response = reschedule(client, scheduled, typed(new_time))

    when = timezone.localtime(new_time, BERLIN).strftime("%-d %b %Y, %H:%M")
    assert messages_of(response) == (
        f"“Spot instances, one year on” is now scheduled for {when} Europe/Berlin. "
        "Readers see it from then."
    )
    assert response.request["QUERY_STRING"] == f"month={timezone.localtime(new_time, BERLIN):%Y-%m}"
    day = timezone.localtime(new_time, BERLIN).date()
    cell = BeautifulSoup(response.content, "html.parser").find(
        "time", attrs={"datetime": f"{day:%Y-%m-%d}"}
    )
    assert "Spot instances, one year on" in cell.parent.get_text()
    # One approved version, going live at the new minute, with that minute in its content:
    # the scheduler publishes it then, and the editor opens it with that go-live.
    assert approved_go_live(scheduled) == [new_time]
    post = BlogPage.objects.get(pk=scheduled.pk)
    assert not post.live
    assert post.go_live_at == new_time
    assert post.scheduled_revision.as_object().go_live_at == new_time
    assert post.get_latest_revision_as_object().go_live_at == new_time


def test_the_scheduler_publishes_at_the_new_minute(client, publisher, scheduled):
    new_time = next_whole_minute(days=3)
    reschedule(client, scheduled, typed(new_time))
    with time_machine.travel(new_time - timedelta(seconds=1)):
        run_pass(interval=30)
        assert not BlogPage.objects.get(pk=scheduled.pk).live
    with time_machine.travel(new_time + timedelta(seconds=1)):
        run_pass(interval=30)
        assert BlogPage.objects.get(pk=scheduled.pk).live


def test_the_move_is_in_the_posts_history_as_wagtails_scheduled_publication(
    client, publisher, scheduled
):
    reschedule(client, scheduled, typed(next_whole_minute(days=3)))
    entries = PageLogEntry.objects.filter(page=scheduled, user=publisher)
    assert [entry.action for entry in entries] == ["wagtail.publish.schedule"]


def test_a_live_post_keeps_its_live_version_while_its_new_one_moves(client, publisher, blog):
    post = publish_post(blog, "Already out")
    post.title = "Already out, revised"
    post.go_live_at = next_whole_minute(days=5)
    post.save_revision().publish()
    new_time = next_whole_minute(days=2)

    response = reschedule(client, post, typed(new_time))

    assert "“Already out, revised” is live; its new version is now scheduled for" in (
        messages_of(response)
    )
    assert approved_go_live(post) == [new_time]
    post.refresh_from_db()
    assert post.live
    assert post.title == "Already out"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("next tuesday", "Write the go-live time like 2027-03-12 09:30."),
        ("", "Choose when the post should go live."),
        ("2020-01-06 09:00", "6 Jan 2020, 09:00 Europe/Berlin has passed"),
        # Clocks jump from 02:00 to 03:00 in Berlin that night: the time does not exist.
        ("2030-03-31 02:30", "2030-03-31 02:30:00 couldn’t be interpreted in time zone"),
    ],
)
def test_a_time_that_cannot_be_the_go_live_is_refused_with_a_reason(
    client, publisher, scheduled, value, said
):
    before = approved_go_live(scheduled)
    response = reschedule(client, scheduled, value)
    assert response.status_code == 200
    assert "“Spot instances, one year on” keeps its go-live time." in messages_of(response)
    assert said in messages_of(response)
    assert approved_go_live(scheduled) == before


def test_a_go_live_after_the_expiry_is_refused(client, publisher, scheduled):
    response = reschedule(client, scheduled, typed(scheduled.expire_at + timedelta(days=1)))
    expiry = timezone.localtime(scheduled.expire_at, BERLIN).strftime("%-d %b %Y, %H:%M")
    assert f"The post is taken down on {expiry} Europe/Berlin" in messages_of(response)
    assert approved_go_live(scheduled) == [scheduled.go_live_at]


def test_changes_saved_after_scheduling_are_not_buried_by_a_move(client, publisher, scheduled):
    scheduled.title = "Spot instances, two years on"
    scheduled.save_revision()
    response = reschedule(client, scheduled, typed(next_whole_minute(days=3)))
    assert "has changes saved after it was scheduled" in messages_of(response)
    assert approved_go_live(scheduled) == [scheduled.go_live_at]
    assert scheduled.get_latest_revision_as_object().title == "Spot instances, two years on"


def test_a_post_that_is_no_longer_scheduled_says_so(client, publisher, blog):
    post = publish_post(blog, "Out already")
    response = reschedule(client, post, typed(next_whole_minute(days=3)))
    assert "“Out already” is not scheduled any more" in messages_of(response)


def test_a_post_locked_by_someone_else_keeps_its_schedule(client, publisher, scheduled):
    other = make_user("otto", group=PUBLISHERS)
    BlogPage.objects.filter(pk=scheduled.pk).update(
        locked=True, locked_by=other, locked_at=timezone.now()
    )
    response = reschedule(client, scheduled, typed(next_whole_minute(days=3)))
    assert "is locked" in messages_of(response)
    assert approved_go_live(scheduled) == [scheduled.go_live_at]


def test_the_calendar_offers_a_publisher_a_reschedule_dialog_with_the_go_live_filled_in(
    client, publisher, scheduled
):
    at = timezone.localtime(scheduled.go_live_at, BERLIN)
    page = BeautifulSoup(client.get(CALENDAR_URL, {"month": f"{at:%Y-%m}"}).content, "html.parser")
    toggle = page.find("button", string=lambda text: text and text.strip() == "Reschedule")
    dialog = page.find(id=toggle["data-a11y-dialog-show"])
    # Inside Wagtail's <template>, which get_text() skips.
    assert dialog.find(class_="w-dialog__subtitle").string == scheduled.draft_title
    field = dialog.find("input", attrs={"name": f"post-{scheduled.pk}-go_live_at"})
    assert field["value"] == f"{at:%Y-%m-%d %H:%M}"
    assert "Times are in Europe/Berlin" in str(dialog)
    assert dialog.find("form")["action"] == reschedule_url(scheduled)


def test_an_editor_sees_no_reschedule_button_and_may_not_move_a_go_live(client, scheduled):
    client.force_login(make_user("eddie", group=EDITORS))
    at = timezone.localtime(scheduled.go_live_at)
    calendar = client.get(CALENDAR_URL, {"month": f"{at:%Y-%m}"})
    assert "Spot instances, one year on" in calendar.content.decode()
    assert b'data-a11y-dialog-show="reschedule-' not in calendar.content

    response = reschedule(client, scheduled, typed(next_whole_minute(days=3)))
    # Wagtail answers a refused admin request with its "no permission" message and the dashboard.
    assert "Sorry, you do not have permission to access this area." in messages_of(response)
    assert approved_go_live(scheduled) == [scheduled.go_live_at]


def test_an_unknown_post_is_not_found_and_a_get_is_not_allowed(client, publisher, scheduled):
    assert client.post("/admin/blog/posts/999999/reschedule/").status_code == 404
    assert client.get(reschedule_url(scheduled)).status_code == 405


def test_the_reschedule_buttons_cost_the_same_queries_for_1_or_6_posts(client, publisher, blog):
    go_live = datetime(2031, 5, 5, 9, 0, tzinfo=BERLIN)

    def calendar_queries():
        with CaptureQueriesContext(connection) as queries:
            page = client.get(CALENDAR_URL, {"month": "2031-05"})
        return page.content.decode().count('data-a11y-dialog-show="reschedule-'), len(queries)

    schedule_post(blog, "Queued 0", go_live)
    buttons, one_post = calendar_queries()
    assert buttons == 1
    for n in range(1, 6):
        schedule_post(blog, f"Queued {n}", go_live + timedelta(days=n))
    assert calendar_queries() == (6, one_post)
