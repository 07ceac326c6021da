"""Requesting changes: the Publisher is told it was done; the author finds the request and its
comment at the top of the editor and one way on, "Send back for review" (issue #33, point 4)."""

import json

import pytest
from bs4 import BeautifulSoup

from blog.editorial.roles import EDITORS, PUBLISHERS
from tests.factories import draft_post

from .scheduling import edit_form_data, edit_url, make_user

pytestmark = pytest.mark.django_db

COMMENT = "The second chart needs its units."


@pytest.fixture
def changes_requested(client, blog, author, topic):
    editor = make_user("eddie", group=EDITORS)
    publisher = make_user("petra", group=PUBLISHERS)
    publisher.first_name, publisher.last_name = "Petra", "Publisher"
    publisher.save()
    post = draft_post(blog, "Needs a look", authors=[author], topics=[topic], owner=editor)
    client.force_login(editor)
    data = edit_form_data(client, post)
    data["action-submit"] = "action-submit"
    client.post(edit_url(post), data)

    client.force_login(publisher)
    data = edit_form_data(client, post)
    data["action-workflow-action"] = "true"
    data["workflow-action-name"] = "reject"
    data["workflow-action-extra-data"] = json.dumps({"comment": COMMENT})
    response = client.post(edit_url(post), data, follow=True)
    return {"post": post, "editor": editor, "publisher_sees": response}


def test_the_publisher_is_told_the_changes_were_requested(changes_requested):
    page = BeautifulSoup(changes_requested["publisher_sees"].content, "html.parser")
    assert "Changes requested on “Needs a look”" in page.select_one(".messages").get_text()


def test_the_author_sees_the_request_and_its_comment_and_one_way_back(client, changes_requested):
    client.force_login(changes_requested["editor"])
    page = BeautifulSoup(client.get(edit_url(changes_requested["post"])).content, "html.parser")

    banner = page.select_one(".messages").get_text(" ", strip=True)
    assert "Petra Publisher requested changes on" in banner
    assert f"“{COMMENT}”" in banner
    footer = page.select_one("footer")
    buttons = [
        " ".join(b.get_text().split()) for b in footer.find_all("button") if b.get_text().strip()
    ]
    assert "Send back for review" in buttons[0]
    text = footer.get_text(" ", strip=True)
    for gone in ("Restart", "Cancel", "Resubmit"):
        assert gone not in text


def test_sending_it_back_puts_it_in_review_again(client, changes_requested):
    post = changes_requested["post"]
    client.force_login(changes_requested["editor"])
    data = edit_form_data(client, post)
    data["action-submit"] = "action-submit"
    assert client.post(edit_url(post), data).status_code == 302
    post.refresh_from_db()
    assert post.current_workflow_state.status == "in_progress"
