"""What the editor is told after an action, in Chromium (issue #33): the share link's "Copy
link" puts the address on the clipboard and says so."""

import pytest
from playwright.sync_api import expect

from .editing import committed, sign_in, write_draft

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)


def test_copy_link_puts_the_share_address_on_the_clipboard_and_says_so(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "A draft to copy a link of")
    context = contexts()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    editor = sign_in(context, server, staff["editor"])
    editor.goto(f"{server}/admin/blog/posts/{post.pk}/share-links/")
    editor.get_by_role("button", name="Create share link").click()
    address = editor.get_by_label("Share link").first.input_value()
    assert address.startswith("http")

    editor.get_by_role("button", name="Copy link").first.click()

    feedback = editor.locator("[aria-live='polite']", has_text="Link copied")
    expect(feedback).to_be_visible()
    assert editor.evaluate("navigator.clipboard.readText()") == address
