"""What the post editor says about errors stays true while the editor works
(static/js/editor-feedback.js)."""

import pytest
from playwright.sync_api import expect

from .editing import open_new_post, sign_in
from .test_autosave import type_after_the_editor_settles

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)


def errors_of(page, selector):
    field = page.locator(selector).locator("xpath=ancestor::*[@data-field][1]")
    return field.locator("[data-field-errors]")


def test_a_fixed_field_loses_its_error(staff, contexts):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)
    editor.wait_for_timeout(1500)
    editor.locator("footer").get_by_role("button", name="Save draft").click()
    expect(errors_of(editor, "#id_title")).to_have_text("This field is required.")

    type_after_the_editor_settles(editor, "#id_title", "Errors that tell the truth")
    expect(errors_of(editor, "#id_title")).to_have_text("")
    expect(errors_of(editor, "#id_summary")).to_have_text("")  # never had one
