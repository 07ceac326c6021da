"""A post waiting for its go-live reads as scheduled, on the editor's clock, with the way out
beside it; not as "locked" (issue #33, point 3)."""

import re
from datetime import UTC, datetime

import pytest
import time_machine
from bs4 import BeautifulSoup

from blog.editorial.roles import PUBLISHERS

from .scheduling import edit_url, make_user, schedule_post

pytestmark = pytest.mark.django_db

TUESDAY = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# 23:21 in Berlin (CET, UTC+1) on Friday 4 December.
GO_LIVE = datetime(2026, 12, 4, 22, 21, tzinfo=UTC)


def test_a_scheduled_post_says_when_in_the_publishers_zone_and_offers_unschedule(
    client, blog, author, topic
):
    publisher = make_user("berta", group=PUBLISHERS, time_zone="Europe/Berlin")
    client.force_login(publisher)
    with time_machine.travel(TUESDAY, tick=False):
        post = schedule_post(blog, "Launch notes", GO_LIVE, authors=[author], topics=[topic])
        page = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")

    banner = page.select_one(".messages").get_text(" ", strip=True)
    assert "Scheduled for Fri 4 Dec, 23:21 Berlin time — unschedule to change it." in banner
    assert "locked" not in banner.lower()
    assert page.select_one(".messages").find("button", string=re.compile(r"^\s*Unschedule\s*$"))
    footer = page.select_one("footer").get_text(" ", strip=True)
    assert "Scheduled for Fri 4 Dec, 23:21 Berlin time" in footer
    assert "Page locked" not in footer


def test_a_go_live_next_year_names_the_year_and_utc_is_utc(client, blog, author, topic):
    publisher = make_user("ursula", group=PUBLISHERS, time_zone="UTC")
    client.force_login(publisher)
    with time_machine.travel(TUESDAY, tick=False):
        go_live = datetime(2027, 1, 8, 9, 5, tzinfo=UTC)
        post = schedule_post(blog, "New year notes", go_live, authors=[author], topics=[topic])
        page = BeautifulSoup(client.get(edit_url(post)).content, "html.parser")
    assert "Scheduled for Fri 8 Jan 2027, 09:05 UTC —" in page.select_one(".messages").text
