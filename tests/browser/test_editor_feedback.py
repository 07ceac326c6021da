"""What the post editor says about errors stays true while the editor works
(static/js/editor-feedback.js)."""

import re

import pytest
from playwright.sync_api import expect

from blog.editorial.roles import REVIEW_WORKFLOW

from .editing import (
    let_autosave_finish,
    open_action_menu,
    open_new_post,
    sign_in,
    type_after_the_editor_settles,
    wait_until_the_editor_notes_the_form,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)

# Watches every change to the page, from its first paint: a "✓ Saved" indicator beside a red
# "could not be saved" banner is recorded, however briefly the two were shown together.
RECORD_CONTRADICTIONS = """
window.contradictions = [];
const check = () => {
  const indicator = document.getElementById("w-autosave-indicator");
  const saved = indicator && indicator.getAttribute("data-w-autosave-state-value") === "saved";
  const refused = [...document.querySelectorAll(".messages li.error")].some((banner) =>
    banner.textContent.includes("could not be saved"));
  if (saved && refused) window.contradictions.push(document.querySelector(".messages").innerText);
};
new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true,
  characterData: true});
"""


def errors_of(page, selector):
    field = page.locator(selector).locator("xpath=ancestor::*[@data-field][1]")
    return field.locator("[data-field-errors]")


def submit_without_a_summary(editor, server, blog):
    """A new post with a title only, submitted for review: refused, as a post needs more."""
    open_new_post(editor, server, blog)
    type_after_the_editor_settles(editor, "#id_title", "Errors that tell the truth")
    let_autosave_finish(editor)
    open_action_menu(editor)
    editor.locator("footer").get_by_role("button", name=f"Submit to {REVIEW_WORKFLOW}").click()
    expect(errors_of(editor, "#id_summary")).to_have_text("This field is required.")


def test_a_fixed_field_loses_its_error(staff, contexts):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)
    wait_until_the_editor_notes_the_form(editor)
    editor.locator("footer").get_by_role("button", name="Save draft").click()
    expect(errors_of(editor, "#id_title")).to_have_text("This field is required.")

    type_after_the_editor_settles(editor, "#id_title", "Errors that tell the truth")
    expect(errors_of(editor, "#id_title")).to_have_text("")
    expect(errors_of(editor, "#id_summary")).to_have_text("")  # never had one


def test_a_refused_submit_never_shows_saved_beside_could_not_be_saved(staff, contexts):
    """After the refused submit Wagtail autosaves the form once, at once: the banner follows
    what that autosave did, whichever way it went."""
    server, blog = staff["server"], staff["blog"]
    context = contexts()
    context.add_init_script(RECORD_CONTRADICTIONS)
    editor = sign_in(context, server, staff["editor"])
    submit_without_a_summary(editor, server, blog)

    indicator = editor.locator("#w-autosave-indicator")
    expect(indicator).to_have_attribute(
        "data-w-autosave-state-value", re.compile(r"^(saved|paused)$")
    )
    banner = editor.locator(".messages")
    if indicator.get_attribute("data-w-autosave-state-value") == "saved":
        expect(banner).to_contain_text(
            "Your changes are saved as a draft. To publish, fix the fields marked below."
        )
        expect(banner).not_to_contain_text("could not be saved")
    else:  # the autosave was refused too: the banner's "could not be saved" stays true
        expect(banner).to_contain_text("could not be saved")
    assert editor.evaluate("window.contradictions") == []


def test_the_error_counts_count_the_errors_shown(staff, contexts):
    """Summary, topics and the empty body: three errors on the Content tab (the hero picture is
    optional; the content checks ask for one)."""
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    submit_without_a_summary(editor, server, blog)

    content_tab_count = editor.locator("#tab-label-content .w-tabs__errors")
    shown = editor.locator("#tab-content :is(.error-message, .help-critical):visible")
    minimap_count = editor.locator(".w-minimap-item__errors")
    expect(shown).to_have_count(3)
    expect(content_tab_count).to_contain_text("3 errors")
    expect(editor.locator(".w-minimap-item", has_text="Body")).to_contain_text("1")
    expect(minimap_count).to_have_text(["1", "1", "1"])

    editor.locator("#id_summary").press_sequentially("Why the counts were wrong", delay=20)
    expect(shown).to_have_count(2)
    expect(content_tab_count).to_contain_text("2 errors")
    expect(minimap_count).to_have_count(2)
    expect(editor.locator(".w-minimap-item", has_text="Summary")).not_to_contain_text("1")
