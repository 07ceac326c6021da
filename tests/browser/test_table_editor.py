"""The table block as an editor meets it (issue #33, point 7): one caption, columns added without
choosing a data type, + buttons that say what they add, and three columns that fit a laptop."""

import pytest
from playwright.sync_api import expect

from .conftest import screenshot
from .editing import add_block, open_new_post, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)

ROWS = [["Warm standby", "12", "Reload from the cache"], ["Cold start", "95", "Reload the weights"]]


def test_an_editor_adds_a_three_column_table_that_fits_the_editor_at_1280(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    editor.set_viewport_size({"width": 1280, "height": 900})
    open_new_post(editor, staff["server"], staff["blog"])
    editor.fill("#id_title", "What a restart costs")
    add_block(editor, "Table")
    body = editor.locator("[data-contentpath='body']")
    table = body.locator(".typed-table-block")

    captions = body.get_by_role("textbox", name="Caption")
    expect(captions).to_have_count(1)
    captions.fill("Restart costs")

    # No menu of data types: "Add column" adds a column (and the first row with the first one).
    for _ in range(3):
        table.get_by_role("button", name="Add column").click()
    headings = table.get_by_placeholder("Column heading")
    expect(headings).to_have_count(3)
    for heading, words in zip(headings.all(), ["Path", "Minutes", "Notes"], strict=True):
        heading.fill(words)
    table.get_by_role("button", name="Add row").click()
    cells = table.locator("td [contenteditable='true']")
    expect(cells).to_have_count(6)
    for cell, words in zip(cells.all(), [w for row in ROWS for w in row], strict=True):
        cell.click()
        cell.press_sequentially(words)
    expect(table.get_by_role("button", name="Insert row")).to_have_count(2)

    # Every button in the table says what it does to a screen reader, the + ones included.
    nameless = table.locator("button:visible").evaluate_all(
        """(buttons) => buttons
          .filter((b) => !(b.getAttribute("aria-label") || b.title || b.textContent).trim())
          .map((b) => b.outerHTML)"""
    )
    assert nameless == []

    # The three columns fit: nothing in the block scrolls sideways or runs past the form.
    wrapper = table.locator(".typed-table-block__wrapper")
    overflow = wrapper.evaluate("(el) => el.scrollWidth - el.clientWidth")
    assert overflow <= 0, f"the table scrolls sideways by {overflow}px at 1280px"
    block_right = table.evaluate("(el) => el.getBoundingClientRect().right")
    form_right = body.evaluate("(el) => el.getBoundingClientRect().right")
    assert block_right <= form_right + 1
    screenshot(editor, "table-editor-1280")

    # What the editor sees is what the reader will: the caption above the three columns.
    editor.get_by_role("button", name="Toggle preview").click()
    preview = editor.frame_locator("#w-preview-iframe").locator(".post__body table")
    expect(preview.locator("caption")).to_have_text("Restart costs")
    expect(preview.locator("thead th")).to_have_text(["Path", "Minutes", "Notes"])
    expect(preview.locator("tbody tr")).to_have_count(2)
    expect(preview.locator("tbody tr").first.locator("td")).to_have_text(ROWS[0])
    expect(preview.locator("tbody td.num")).to_have_text(["12", "95"])
