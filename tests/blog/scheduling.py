"""Builders for scheduled posts and people, shared by the scheduler, dashboard and admin tests."""

from django.contrib.auth.models import Group, User
from wagtail.models import PageLogEntry
from wagtail.test.utils.form_data import (
    nested_form_data,
    querydict_from_html,
    rich_text,
    streamfield,
)
from wagtail.users.models import UserProfile

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


def make_user(username, *, group=None, time_zone="", superuser=False):
    user = User.objects.create_user(
        username, f"{username}@example.com", "pw", is_superuser=superuser
    )
    if group:
        user.groups.add(Group.objects.get(name=group))
    if time_zone:
        profile = UserProfile.get_for_user(user)
        profile.current_time_zone = time_zone
        profile.save()
    return user


def edit_url(page):
    return f"/admin/pages/{page.pk}/edit/"


def edit_form_data(client, page, **changes):
    """What the browser posts from the page's edit form as it opens, with `changes` typed in.

    Every input the server renders is carried back as is, including the Publishing tab's schedule
    fields; only the StreamField body, which the admin's JavaScript builds, is filled in here.
    """
    response = client.get(edit_url(page))
    assert response.status_code == 200
    data = querydict_from_html(response.content.decode(), form_id="page-edit-form")
    body = streamfield([("paragraph", rich_text(f"<p>Body of {page.title}.</p>"))])
    for key, value in {**nested_form_data({"body": body}), **changes}.items():
        data[key] = value
    return data
