"""Save draft without reloading the editor (static/js/autosave-guard.js sends the form as an
autosave does, with save_in_place): the answer carries the message the editor shows, and the
save ends the editing session's version as Save draft always did."""

import pytest
from bs4 import BeautifulSoup

from .scheduling import edit_url
from .test_autosave import AUTOSAVE, autosaved_post, edit_form_data

pytestmark = pytest.mark.django_db

IN_PLACE = {"save_in_place": "1"}


def message_in(answer):
    """The message the answer's side panels carry for the editor, or None."""
    html = BeautifulSoup(answer.json()["html"], "html.parser")
    template = html.select_one("template[data-saved-message]")
    return template.get_text().strip() if template else None


def test_save_draft_in_place_answers_with_what_readers_see(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")

    answer = editor_client.post(edit_url(post), {**data, **IN_PLACE}, **AUTOSAVE)

    assert answer.json()["success"]
    assert message_in(answer) == (
        "“Why our GPUs ran hotter” saved as a draft. Readers don't see it until it is published."
    )
    post.refresh_from_db()
    assert post.get_latest_revision_as_object().title == "Why our GPUs ran hotter"
    # Said once, in the answer: the next page the editor opens repeats nothing.
    assert "saved as a draft" not in editor_client.get(edit_url(post)).content.decode()


def test_an_autosave_carries_no_message(editor_client, blog):
    post = autosaved_post(editor_client, blog)
    data = edit_form_data(editor_client, post, title="Why our GPUs ran hotter")

    answer = editor_client.post(edit_url(post), data, **AUTOSAVE)

    assert answer.json()["success"]
    assert message_in(answer) is None


def test_save_draft_in_place_with_nothing_changed_adds_no_version(editor_client, blog):
    """As Save draft always did: the first autosave of a session would add one."""
    post = autosaved_post(editor_client, blog)
    versions = post.revisions.count()

    answer = editor_client.post(
        edit_url(post), {**edit_form_data(editor_client, post), **IN_PLACE}, **AUTOSAVE
    )

    assert answer.json()["success"]
    post.refresh_from_db()
    assert answer.json()["revision_id"] == post.latest_revision_id
    assert post.revisions.count() == versions


def test_the_blog_page_saved_in_place_says_so_in_wagtails_words(admin_client, blog):
    data = edit_form_data(admin_client, blog, title="Engineering notes")

    answer = admin_client.post(edit_url(blog), {**data, **IN_PLACE}, **AUTOSAVE)

    assert answer.json()["success"]
    assert message_in(answer) == "Page 'Engineering notes' has been updated."
