"""Editors write and submit posts; Publishers review, publish, schedule and edit site settings."""

import importlib

import pytest
from django.apps import apps
from django.core import mail
from wagtail.models import GroupPagePermission, PageLogEntry, Site, WorkflowPage

from blog.editorial.roles import EDITORS, PUBLISHERS, REVIEW_WORKFLOW
from tests.factories import draft_post

from .scheduling import edit_form_data, edit_url, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(db):
    return make_user("eddie", group=EDITORS)


@pytest.fixture
def publisher(db):
    return make_user("petra", group=PUBLISHERS)


def test_an_editor_who_presses_publish_only_saves_a_draft(client, blog, author, topic, editor):
    post = draft_post(blog, "First draft", authors=[author], topics=[topic])
    client.force_login(editor)
    data = edit_form_data(client, post, title="First draft, edited")
    data["action-publish"] = "action-publish"
    assert client.post(edit_url(post), data).status_code == 302
    post.refresh_from_db()
    assert not post.live
    assert post.get_latest_revision_as_object().title == "First draft, edited"
    assert not PageLogEntry.objects.filter(page=post, action="wagtail.publish").exists()


def test_a_publisher_publishes(client, blog, author, topic, publisher):
    post = draft_post(blog, "Ready", authors=[author], topics=[topic])
    client.force_login(publisher)
    data = edit_form_data(client, post)
    data["action-publish"] = "action-publish"
    assert client.post(edit_url(post), data).status_code == 302
    post.refresh_from_db()
    assert post.live


def test_an_editor_submits_for_review_and_publishers_are_emailed(
    client, blog, author, topic, editor, publisher
):
    post = draft_post(blog, "Needs a look", authors=[author], topics=[topic])
    client.force_login(editor)
    data = edit_form_data(client, post)
    data["action-submit"] = "action-submit"
    assert client.post(edit_url(post), data).status_code == 302

    state = post.current_workflow_state
    assert state.workflow.name == REVIEW_WORKFLOW
    assert state.current_task_state.task.name == "Publisher review"
    assert any(publisher.email in message.to for message in mail.outbox)
    post.refresh_from_db()
    assert not post.live


def test_a_publisher_approves_a_submitted_post_and_it_goes_live(
    client, blog, author, topic, editor, publisher
):
    post = draft_post(blog, "Needs a look", authors=[author], topics=[topic])
    client.force_login(editor)
    data = edit_form_data(client, post)
    data["action-submit"] = "action-submit"
    client.post(edit_url(post), data)
    task_state = post.current_workflow_state.current_task_state

    client.force_login(publisher)
    response = client.post(
        f"/admin/pages/workflow/action/{post.pk}/approve/{task_state.pk}/", {"comment": ""}
    )
    assert response.status_code in (200, 302)
    post.refresh_from_db()
    assert post.live


def test_editors_work_only_inside_the_blog(client, home, blog, editor):
    client.force_login(editor)
    assert client.get(edit_url(home)).status_code == 302  # redirected with "no permission"
    assert client.get(edit_url(blog)).status_code == 200


def test_only_publishers_edit_the_site_settings(client, blog, editor, publisher):
    site = Site.objects.get(is_default_site=True)
    url = f"/admin/settings/home/sitesettings/{site.pk}/"
    client.force_login(editor)
    assert client.get(url).status_code in (302, 403)
    client.force_login(publisher)
    assert client.get(url).status_code == 200


def test_the_roles_migration_wires_a_blog_that_already_exists(blog):
    GroupPagePermission.objects.filter(page=blog).delete()
    WorkflowPage.objects.filter(page=blog).delete()
    migration = importlib.import_module("blog.migrations.0003_editorial_roles")

    migration.create_roles(apps, schema_editor=None)

    granted = set(
        GroupPagePermission.objects.filter(page=blog).values_list(
            "group__name", "permission__codename"
        )
    )
    assert (EDITORS, "change_page") in granted
    assert (EDITORS, "publish_page") not in granted
    assert (PUBLISHERS, "publish_page") in granted
    assert WorkflowPage.objects.get(page=blog).workflow.name == REVIEW_WORKFLOW
