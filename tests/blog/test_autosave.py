"""Autosave beside the editor's own saves: one post per add form, no identical versions."""

import pytest
from bs4 import BeautifulSoup
from wagtail.models import PageLogEntry
from wagtail.test.utils.form_data import (
    nested_form_data,
    querydict_from_html,
    rich_text,
    streamfield,
)

from blog.models import BlogPage

from .scheduling import edit_url
from .test_editor_form import add_url, form_errors, post_form

pytestmark = pytest.mark.django_db

# The editor's JavaScript keeps the names of blocks and paragraphs from one save to the next.
BODY = '<p data-block-key="fan01">It started with a fan.</p>'
BLOCK_ID = "0a6c2f9e-5b1d-4c3e-9f8a-7d6e5c4b3a21"
AUTOSAVE = {"headers": {"Accept": "application/json"}}


def history_rows(post):
    """What History lists: Wagtail shows the rows of one autosave session as one."""
    return PageLogEntry.objects.filter(page=post).latest_by_uuid_and_action().count()


def the_add_form(client, blog):
    """The add form as the browser posts it, with the key the page was rendered with."""
    page = client.get(add_url(blog)).content.decode()
    key = querydict_from_html(page, form_id="page-edit-form")["add_form_key"]
    body = streamfield([("paragraph", rich_text(BODY))])
    return post_form(add_form_key=key, body=body, **{"body-0-id": BLOCK_ID})


def test_save_draft_while_the_first_autosave_made_the_post_edits_that_post(editor_client, blog):
    form = the_add_form(editor_client, blog)
    autosaved = editor_client.post(add_url(blog), form, **AUTOSAVE)
    assert autosaved.json()["success"]

    saved = editor_client.post(add_url(blog), form)

    post = BlogPage.objects.child_of(blog).get()
    assert saved.status_code == 302
    assert saved.url == edit_url(post)
    assert "address" not in form_errors(saved)
    assert post.revisions.count() == 1


def test_an_autosave_answered_after_save_draft_made_the_post_edits_it_and_moves_the_form(
    editor_client, blog
):
    form = the_add_form(editor_client, blog)
    editor_client.post(add_url(blog), form)

    answer = editor_client.post(
        add_url(blog), {**form, "title": "Why our GPUs ran hotter"}, **AUTOSAVE
    )

    post = BlogPage.objects.child_of(blog).get()
    assert answer.json()["success"]
    assert answer.json()["url"] == edit_url(post)
    assert post.get_latest_revision_as_object().title == "Why our GPUs ran hotter"


def test_two_add_forms_still_make_two_posts(editor_client, blog):
    editor_client.post(add_url(blog), the_add_form(editor_client, blog))
    second = editor_client.post(
        add_url(blog), {**the_add_form(editor_client, blog), "slug": "why-our-gpus-ran-hot-2"}
    )
    assert second.status_code == 302
    assert BlogPage.objects.child_of(blog).count() == 2


def test_an_add_form_key_from_someone_else_makes_a_new_post(
    client, editor_client, blog, admin_user
):
    form = the_add_form(editor_client, blog)
    editor_client.post(add_url(blog), form)
    client.force_login(admin_user)
    again = client.post(add_url(blog), form)
    assert "Another post already has the address" in form_errors(again)


def edit_form_data(client, post, **changes):
    """The edit form as the browser posts it when it opens, with `changes` typed in."""
    page = client.get(edit_url(post)).content.decode()
    data = querydict_from_html(page, form_id="page-edit-form")
    body = streamfield([("paragraph", rich_text(BODY))])
    for key, value in {**nested_form_data({"body": body}), "body-0-id": BLOCK_ID}.items():
        data[key] = value
    for key, value in changes.items():
        data[key] = value
    return data


def autosaved_post(client, blog):
    form = the_add_form(client, blog)
    client.post(add_url(blog), form, **AUTOSAVE)
    return BlogPage.objects.child_of(blog).get()


def test_save_draft_right_after_an_autosave_adds_no_identical_version(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    rows = history_rows(post)

    saved = editor_client.post(edit_url(post), edit_form_data(editor_client, post))

    assert saved.status_code == 302
    assert post.revisions.count() == 1
    assert history_rows(post) == rows


def test_an_autosave_without_a_change_adds_no_history_row(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    data = edit_form_data(editor_client, post)
    first = editor_client.post(edit_url(post), data, **AUTOSAVE).json()
    revisions, entries = post.revisions.count(), PageLogEntry.objects.filter(page=post).count()

    again = editor_client.post(
        edit_url(post), {**data, "overwrite_revision_id": first["revision_id"]}, **AUTOSAVE
    ).json()

    assert again["success"]
    assert again["revision_id"] == first["revision_id"]
    assert post.revisions.count() == revisions
    assert PageLogEntry.objects.filter(page=post).count() == entries


def test_a_changed_post_still_gets_a_new_version(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    editor_client.post(edit_url(post), edit_form_data(editor_client, post, title="A new title"))
    assert post.revisions.count() == 2
    assert post.revisions.order_by("-pk").first().as_object().title == "A new title"


def test_publishing_an_autosaved_draft_publishes_it_without_a_copy(
    editor_client, blog, author, topic, hero_image
):
    form = the_add_form(editor_client, blog)
    body = streamfield([("paragraph", rich_text(BODY))])
    form.update(post_form(author=author, topic=topic, image=hero_image, body=body))
    editor_client.post(add_url(blog), form, **AUTOSAVE)
    post = BlogPage.objects.child_of(blog).get()

    data = edit_form_data(editor_client, post, **{"action-publish": "action-publish"})
    assert editor_client.post(edit_url(post), data).status_code == 302

    post.refresh_from_db()
    assert post.live
    assert post.revisions.count() == 1
    assert post.live_revision_id == post.latest_revision_id


def test_the_editor_loads_the_autosave_guard(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    page = BeautifulSoup(editor_client.get(edit_url(post)).content, "html.parser")
    assert page.select_one('script[src$="js/autosave-guard.js"]')
