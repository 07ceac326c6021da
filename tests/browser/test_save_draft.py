"""Save draft keeps the editor open (issue 33, point 9): the post is saved as its autosave is,
the editor says what readers see, and what is typed next becomes a new version."""

import re

import pytest
from playwright.sync_api import expect

from blog.models import BlogPage

from .editing import (
    committed,
    let_autosave_finish,
    sign_in,
    type_after_the_editor_settles,
    wait_until_the_editor_notes_the_form,
    write_draft,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)

STILL_OPEN = "() => window.openedOnce === true"


def open_without_reloads(editor, url):
    editor.goto(url)
    # A page load would forget this; saving in place keeps it.
    editor.evaluate("() => { window.openedOnce = true; }")


def test_save_draft_saves_without_reloading_the_editor_and_says_so(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "Cooling the render farm")
    editor = sign_in(contexts(), server, staff["editor"])
    loads = []
    editor.on("load", lambda page: loads.append(page.url))
    open_without_reloads(editor, f"{server}/admin/pages/{post.pk}/edit/")

    type_after_the_editor_settles(editor, "#id_title", "Retitled: ")
    editor.locator("footer").get_by_role("button", name="Save draft").click()

    expect(editor.locator(".messages")).to_contain_text(
        "“Retitled: Cooling the render farm” saved as a draft. Readers don't see it until it is "
        "published."
    )
    # The slug followed the new title after the click: a change of its own, which the footer
    # calls unsaved edits (as Wagtail does), never a paused autosave.
    expect(editor.locator("footer")).not_to_contain_text("Autosave is paused", timeout=1)
    assert editor.evaluate(STILL_OPEN)
    assert len(loads) == 1, f"the editor was loaded again: {loads}"
    expect(editor.locator("footer").get_by_role("button", name="Save draft")).to_be_enabled()
    expect(editor.locator("#w-autosave-indicator")).to_have_attribute(
        "data-w-autosave-state-value", "saved"
    )
    saved = committed(lambda: BlogPage.objects.get(pk=post.pk).get_latest_revision_as_object())
    assert saved.title == "Retitled: Cooling the render farm"

    # The side panel Wagtail renders for the post follows the save, as after a reload.
    editor.reload()
    expect(editor.locator("#id_title")).to_have_value("Retitled: Cooling the render farm")
    expect(editor.locator(".messages")).not_to_contain_text("saved as a draft")


def type_at_the_end(editor, selector, text):
    field = editor.locator(selector)
    field.click()
    field.press("End")
    field.press_sequentially(text)


def test_what_is_typed_after_save_draft_is_a_new_version_not_a_rewrite(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "Why our GPUs ran hot")
    versions_before = committed(lambda: post.revisions.count())
    editor = sign_in(contexts(), server, staff["editor"])
    open_without_reloads(editor, f"{server}/admin/pages/{post.pk}/edit/")
    wait_until_the_editor_notes_the_form(editor)

    type_at_the_end(editor, "#id_summary", " The fans.")
    editor.locator("footer").get_by_role("button", name="Save draft").click()
    expect(editor.locator(".messages")).to_contain_text("saved as a draft")
    saved = committed(lambda: BlogPage.objects.get(pk=post.pk).latest_revision_id)

    type_at_the_end(editor, "#id_summary", " The pump.")
    let_autosave_finish(editor)
    assert editor.evaluate(STILL_OPEN)

    def versions():
        fresh = BlogPage.objects.get(pk=post.pk)
        newest = fresh.get_latest_revision_as_object()
        kept = fresh.revisions.get(pk=saved).as_object()
        return fresh.revisions.count(), fresh.latest_revision_id, newest.summary, kept.summary

    count, latest, newest, kept = committed(versions)
    # The saved version stays as it was saved; the autosave wrote a version of its own, as it
    # would have after a reload.
    assert kept.endswith("hot. The fans.")
    assert newest.endswith("The fans. The pump.")
    assert latest != saved
    assert count == versions_before + 2
    # No conflict on the way: the editor is not asked about another window.
    expect(editor.get_by_text("You saved a new version in another window")).to_have_count(0)
    expect(editor.get_by_text("Saving will overwrite a newer version")).to_have_count(0)


def test_a_save_draft_the_server_refuses_shows_the_forms_errors(staff, contexts):
    """Anything but success submits the form as before: the page that answers says why."""
    server = staff["server"]
    post = committed(write_draft, staff, "A post with a bad schedule")
    editor = sign_in(contexts(), server, staff["editor"])
    open_without_reloads(editor, f"{server}/admin/pages/{post.pk}/edit/")

    editor.get_by_role("tab", name="Publishing").click()
    editor.fill("#id_go_live_at", "2031-05-02 10:00")
    editor.fill("#id_expire_at", "2031-05-01 10:00")
    editor.get_by_role("tab", name="Publishing").click()
    editor.locator("footer").get_by_role("button", name="Save draft").click()

    expect(editor.locator(".messages")).to_contain_text(re.compile("could not be saved", re.I))
    expect(editor.locator("[data-field-errors]", has_text="Expiry date")).not_to_have_count(0)
    assert not editor.evaluate(STILL_OPEN), "the form was not sent"
