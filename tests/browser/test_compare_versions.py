"""An Editor compares any two versions of a post from its History, in a real Chromium."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import AXE_JS, screenshot
from .editing import (
    committed,
    go_ahead_if_asked,
    sign_in,
    type_after_the_editor_settles,
    write_draft,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)


def three_versions(staff):
    """The draft as written, then a new title, then a new summary; the ids, oldest first."""
    post = write_draft(staff, "Why our GPUs ran hot")
    post.revisions.update(user=staff["editor"])
    post.title = "Why our GPUs ran hotter"
    post.save_revision(user=staff["editor"], log_action=True)
    post.summary = "The pump, not the fan, was the fault."
    post.save_revision(user=staff["editor"], log_action=True)
    return post.pk, list(post.revisions.order_by("created_at", "pk").values_list("pk", flat=True))


# The form's lists and button, each inside the form and none over another.
CONTROLS_OVERLAP = """(form) => {
  const box = form.getBoundingClientRect();
  const rects = [...form.querySelectorAll("select, button")].map((c) => c.getBoundingClientRect());
  const outside = rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1);
  const over = rects.some((a, i) => rects.slice(i + 1).some((b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
  return outside || over || box.right > innerWidth;
}"""


def test_an_editor_compares_the_first_and_third_versions_from_history(staff, contexts):
    server = staff["server"]
    post_id, (first, _second, third) = committed(three_versions, staff)
    editor = sign_in(contexts(), server, staff["editor"])

    editor.goto(f"{server}/admin/pages/{post_id}/history/")
    form = editor.locator("form.compare-versions")
    form.get_by_label("From").select_option(str(first))
    form.get_by_label("To").select_option(str(third))
    assert not form.evaluate(CONTROLS_OVERLAP)
    screenshot(editor, "history-compare-versions")
    form.get_by_role("button", name="Compare versions").click()

    editor.wait_for_url(re.compile(rf"/revisions/compare/{first}\.\.\.{third}/$"))
    changes = editor.locator("table.listing")
    expect(changes.locator(".addition", has_text="hotter")).to_be_visible()
    expect(changes.locator(".addition", has_text="pump")).to_be_visible()
    screenshot(editor, "history-compared-versions")


def test_the_versions_form_fits_a_phone_and_axe_finds_no_serious_problem_in_it(staff, contexts):
    server = staff["server"]
    post_id, _versions = committed(three_versions, staff)
    context = contexts()
    editor = sign_in(context, server, staff["editor"])
    editor.set_viewport_size({"width": 390, "height": 844})

    editor.goto(f"{server}/admin/pages/{post_id}/history/")

    form = editor.locator("form.compare-versions")
    expect(form.get_by_role("button", name="Compare versions")).to_be_visible()
    assert not form.evaluate(CONTROLS_OVERLAP)
    screenshot(editor, "history-compare-versions-phone")
    editor.add_script_tag(path=str(AXE_JS))
    found = editor.evaluate(
        "axe.run('form.compare-versions', {resultTypes: ['violations']})"
        ".then((r) => r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))"
        ".map((v) => v.id))"
    )
    assert found == []


def test_save_draft_right_after_typing_compares_with_the_version_before_the_session(
    staff, contexts
):
    server = staff["server"]
    post = committed(write_draft, staff, "Why our GPUs ran hot")
    editor = sign_in(contexts(), server, staff["editor"])
    editor.goto(f"{server}/admin/pages/{post.pk}/edit/")
    type_after_the_editor_settles(editor, "#id_title", "Retitled: ")
    # The editing session's version exists: autosave made it.
    expect(editor.locator("#w-autosave-indicator")).to_have_attribute(
        "data-w-autosave-state-value", "saved"
    )

    # More typed, and Save draft at once, before the next autosave.
    editor.locator("#id_summary").press_sequentially(" The pump.")
    editor.locator("footer").get_by_role("button", name="Save draft").click()
    go_ahead_if_asked(editor, "Save draft", re.compile(r"saved as a draft|Draft of .* saved"))

    editor.goto(f"{server}/admin/pages/{post.pk}/history/")
    editor.locator("tbody tr").first.get_by_role("button", name="Actions").click()
    editor.get_by_role("link", name="Compare with previous version").first.click()
    changes = editor.locator("table.listing")
    expect(changes.locator(".addition", has_text="Retitled: Why")).to_be_visible()
    expect(changes.locator(".addition", has_text="pump")).to_be_visible()
    assert committed(lambda: post.revisions.count()) == 2
