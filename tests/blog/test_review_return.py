"""A Publisher who approves a post returns to the screen they opened it from."""

from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from django.utils import timezone

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import BlogPage
from tests.factories import draft_post

from .scheduling import edit_form_data, edit_url, make_user
from .test_admin_scheduling import told

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_review(client, blog, author, topic):
    """A post an editor submitted with a go-live tomorrow."""
    post = draft_post(blog, "Launch notes", authors=[author], topics=[topic])
    client.force_login(make_user("eddie", group=EDITORS))
    go_live = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
    submit = edit_form_data(client, post, go_live_at=go_live, **{"action-submit": "1"})
    client.post(edit_url(post), submit)
    client.force_login(make_user("kenji", group=PUBLISHERS))
    return post


def open_editor_from(client, post, screen):
    """Click the post's title on `screen`: the browser names it as the referrer."""
    return client.get(
        edit_url(post), headers={"referer": f"http://testserver{screen}"}, follow=True
    )


def approve(client, post, opened):
    """Approve and schedule, from the editor as it was opened (its form carries `next`)."""
    approval = edit_form_data(client, post, **{"action-workflow-action": "true"})
    approval["workflow-action-name"] = "approve"
    form = BeautifulSoup(opened.content, "html.parser").select_one("#page-edit-form")
    approval["next"] = form.select_one("input[name=next]")["value"]
    return client.post(edit_url(post), approval, follow=True)


@pytest.mark.parametrize("screen", ["/admin/", "/admin/calendar/?month=2027-03"])
def test_approving_from_the_dashboard_or_calendar_returns_there(client, in_review, screen):
    opened = open_editor_from(client, in_review, screen)
    assert opened.redirect_chain[-1][0].startswith(edit_url(in_review) + "?next=")
    done = approve(client, in_review, opened)
    assert done.redirect_chain[-1][0] == screen
    [message] = told(done)
    assert message.startswith("“Launch notes” is scheduled for")
    assert BlogPage.objects.get(pk=in_review.pk).scheduled_revision is not None


def test_approving_a_post_opened_without_a_way_back_ends_on_the_posts_list(client, in_review):
    opened = client.get(edit_url(in_review))
    done = approve(client, in_review, opened)
    assert done.redirect_chain[-1][0] == "/admin/blog/blogpage/"
    [message] = told(done)
    assert message.startswith("“Launch notes” is scheduled for")
