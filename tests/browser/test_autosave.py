"""Autosave racing the editor's other requests, in a real Chromium (static/js/autosave-guard.js).

The browser's router holds the requests, so each race happens on every run, not only when the
machine is slow.
"""

import re
import time

import pytest
from playwright.sync_api import expect

from blog.models import BlogPage

from .editing import (
    committed,
    open_new_post,
    sign_in,
    type_after_the_editor_settles,
    write_draft,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)

ANOTHER_WINDOW = "You saved a new version in another window"


def hold(page, pattern, method="POST"):
    """Hold the page's requests to `pattern` until release() is called; later ones pass."""
    held, holding = [], [True]

    def route(request_route):
        if holding[0] and request_route.request.method == method:
            held.append(request_route)
        else:
            request_route.continue_()

    def release():
        holding[0] = False
        for request_route in held:
            request_route.continue_()

    page.route(pattern, route)
    return held, release


def wait_until(page, condition, what, seconds=30):
    """Poll a condition the page's routes update, failing at the deadline."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} never happened"
        page.wait_for_timeout(50)


def test_save_draft_clicked_while_the_first_autosave_runs_makes_one_post(staff, contexts):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)
    add_form = re.compile(r"/admin/pages/add/blog/blogpage/\d+/")
    held, release = hold(editor, add_form)

    type_after_the_editor_settles(editor, "#id_title", "A post saved twice at once")
    wait_until(editor, lambda: held, "the first autosave")
    editor.locator("footer").get_by_role("button", name="Save draft").click(no_wait_after=True)
    # The click's submit has happened, and was held rather than sent.
    editor.wait_for_function("() => window.editorSignals.submits.length > 0")
    assert editor.evaluate("() => window.editorSignals.submits.every((s) => s.defaultPrevented)")
    assert len(held) == 1, "Save draft posted the add form while its autosave was unanswered"
    release()

    editor.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))
    expect(editor.locator(".messages")).to_contain_text("A post saved twice at once")
    expect(editor.locator(".messages")).not_to_contain_text("address")
    titles = committed(lambda: list(BlogPage.objects.values_list("title", flat=True)))
    assert titles.count("A post saved twice at once") == 1


def test_a_ping_answered_after_this_windows_autosave_reports_no_other_window(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "One window only")
    editor = sign_in(contexts(), server, staff["editor"])
    held, release = hold(editor, re.compile(r"/editing-sessions/ping/"))
    editor.goto(f"{server}/admin/pages/{post.pk}/edit/")
    wait_until(editor, lambda: held, "the 'anyone else editing?' ping sent as the editor opened")

    type_after_the_editor_settles(editor, "#id_title", "Retitled: ")
    expect(editor.locator("#w-autosave-indicator")).to_have_attribute(
        "data-w-autosave-state-value", "saved"
    )
    pings = len(held)
    release()  # the server answers the ping now, after the autosave
    editor.wait_for_function(f"() => window.editorSignals.pingAnswers >= {pings}")

    expect(editor.locator("#w-editing-sessions")).not_to_contain_text(ANOTHER_WINDOW)
    editor.locator("footer").get_by_role("button", name="Save draft").click()
    expect(editor.locator(".messages")).to_contain_text("Retitled: One window only")
    expect(editor.get_by_text(ANOTHER_WINDOW)).to_have_count(0)
