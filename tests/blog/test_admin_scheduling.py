"""Scheduling as editors do it in the admin: the Publishing tab, local times, what the editor is
told, and editing after the scheduler ran."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from bs4 import BeautifulSoup
from django.conf import settings
from django.contrib.messages import get_messages
from wagtail.models import PageLogEntry

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.editorial.scheduling import run_pass
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


def told(response):
    """The messages the editor reads on the page a save leads to, as plain text."""
    assert response.redirect_chain, "the save was refused"
    page = BeautifulSoup(response.content, "html.parser")
    return [" ".join(item.get_text().split()) for item in page.select(".messages li")]


def test_the_publishing_tab_asks_for_go_live_and_expiry_to_the_minute_in_the_editors_zone(
    client, blog, author, topic
):
    client.force_login(make_user("kenji", group=PUBLISHERS, time_zone="Asia/Tokyo"))
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    page = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")

    assert "Publishing" in page.find(id="tab-label-publishing").get_text()
    tab = page.find(id="tab-publishing")
    assert "Times are in Asia/Tokyo, your time zone" in tab.get_text()
    assert "Leave empty to publish as soon as it is approved or published" in tab.get_text()
    for name, label in (("go_live_at", "Go live at"), ("expire_at", "Expire at")):
        assert label in tab.find("label", attrs={"for": f"id_{name}"}).get_text()
        assert tab.find("input", attrs={"name": name}) is not None
        picker = re.search(rf'initDateTimeChooser\("id_{name}", (\{{.*?\}})\);', str(tab))
        config = json.loads(picker.group(1))
        # Typed to the minute, offered every 5 minutes (the picker's default is whole hours).
        assert (config["format"], config["step"]) == ("Y-m-d H:i", 5)


def test_the_status_panel_offers_no_schedule_dialog_beside_the_tab(client, blog, author, topic):
    client.force_login(make_user("pat", group=PUBLISHERS))
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    html = client.get(edit_url(post)).content.decode()

    assert 'id="schedule-publishing-dialog"' not in html, "the schedule is edited twice"
    # Wagtail still renders its "Set schedule" button; our stylesheet hides it by this attribute.
    page = BeautifulSoup(html, "html.parser")
    assert page.select('[data-a11y-dialog-show="schedule-publishing-dialog"]'), (
        "Wagtail changed its schedule button: update static/css/editor-schedule.css"
    )
    assert page.find("link", href=re.compile(r"/css/editor-schedule\.css$")) is not None
    stylesheet = (settings.BASE_DIR / "static/css/editor-schedule.css").read_text()
    assert '[data-a11y-dialog-show="schedule-publishing-dialog"]' in stylesheet


def test_a_publisher_in_tokyo_publishing_with_a_go_live_ahead_is_told_when_in_tokyo_time(
    client, blog, author, topic
):
    client.force_login(make_user("kenji", group=PUBLISHERS, time_zone="Asia/Tokyo"))
    with time_machine.travel(MONDAY, tick=False):
        post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
        data = edit_form_data(
            client, post, go_live_at="2026-12-01 09:05", expire_at="2026-12-08 17:30"
        )
        data["action-publish"] = "action-publish"
        response = client.post(edit_url(post), data, follow=True)

    assert told(response) == [
        "“Launch notes” is scheduled for 1 Dec 2026, 09:05 Asia/Tokyo and to be "
        "taken down on 8 Dec 2026, 17:30 Asia/Tokyo. Edit"
    ]
    revision = post.revisions.get(approved_go_live_at__isnull=False)
    assert revision.approved_go_live_at == datetime(2026, 12, 1, 0, 5, tzinfo=UTC)


def test_an_editors_go_live_waits_for_approval_and_approving_schedules_it(
    client, blog, author, topic
):
    editor = make_user("eddie", group=EDITORS, time_zone="Europe/Berlin")
    publisher = make_user("kenji", group=PUBLISHERS, time_zone="Asia/Tokyo")
    with time_machine.travel(MONDAY, tick=False):
        post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
        client.force_login(editor)
        saved = client.post(
            edit_url(post),
            edit_form_data(client, post, go_live_at="2026-12-01 09:00"),
            follow=True,
        )
        assert told(saved) == [
            "“Launch notes” has been saved as a draft. It will be scheduled for "
            "1 Dec 2026, 09:00 Europe/Berlin once a Publisher approves it."
        ]
        submit = edit_form_data(client, post)
        submit["action-submit"] = "action-submit"
        client.post(edit_url(post), submit)

        client.force_login(publisher)
        review = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")
        approve = review.find("button", attrs={"data-workflow-action-name": "approve"})
        assert approve.get_text(strip=True) == "Approve and schedule"
        approval = edit_form_data(client, post)
        approval["action-workflow-action"] = "true"
        approval["workflow-action-name"] = "approve"
        approved = client.post(edit_url(post), approval, follow=True)

    assert told(approved) == ["“Launch notes” is scheduled for 1 Dec 2026, 17:00 Asia/Tokyo. Edit"]
    post.refresh_from_db()
    assert not post.live
    # 09:00 in Berlin in December (CET, UTC+1) is 08:00 UTC.
    with time_machine.travel(datetime(2026, 12, 1, 8, 0, tzinfo=UTC), tick=False):
        assert run_pass(interval=30).published == 1
    post.refresh_from_db()
    assert post.live


def test_autosave_leaves_no_message_behind(client, blog, author, topic):
    client.force_login(make_user("eddie", group=EDITORS))
    with time_machine.travel(MONDAY, tick=False):
        post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
        data = edit_form_data(client, post, go_live_at="2026-12-01 09:00")
        response = client.post(edit_url(post), data, HTTP_ACCEPT="application/json")
    assert response.json()["success"]
    assert not list(get_messages(response.wsgi_request))


def test_the_go_live_picker_opens_at_now_in_the_editors_zone_with_weeks_from_monday(
    client, blog, author, topic
):
    client.force_login(make_user("kenji", group=PUBLISHERS, time_zone="Asia/Tokyo"))
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    # 12:03 UTC is 21:03 in Tokyo: the list opens at the next 5 minutes of the editor's clock.
    with time_machine.travel(datetime(2026, 12, 1, 12, 3, tzinfo=UTC), tick=False):
        page = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")
    tab = page.find(id="tab-publishing")
    picker = re.search(r'initDateTimeChooser\("id_go_live_at", (\{.*?\})\);', str(tab))
    config = json.loads(picker.group(1))
    assert (config["defaultTime"], config["dayOfWeekStart"]) == ("21:05", 1)
    assert tab.find("input", attrs={"name": "go_live_at"})["data-editor-zone"] == "Asia/Tokyo"
