"""Writing a post as one continuous text, as in Ghost or WordPress (issue #33, point 10): the
Text block takes Markdown shortcuts, and "/" opens the menu of everything that can be added."""

import pytest
from playwright.sync_api import expect

from .editing import add_block, open_new_post, save_draft, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
expect.set_options(timeout=30_000)


def test_an_editor_writes_a_heading_and_a_list_with_markdown_shortcuts(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    open_new_post(editor, staff["server"], staff["blog"])
    editor.fill("#id_title", "The stalled cluster")
    add_block(editor, "Text")
    text = editor.locator("[data-contentpath='body'] [contenteditable='true']").last
    text.click()
    text.press_sequentially("## Why the cluster stalled")
    text.press("Enter")
    text.press_sequentially("- Check the switch")
    text.press("Enter")
    text.press_sequentially("Replace the cable")
    expect(text.locator("h2")).to_have_text("Why the cluster stalled")
    expect(text.locator("ul > li")).to_have_text(["Check the switch", "Replace the cable"])
    # Counted from the form once Draftail has written the text into it, as saving sends it.
    expect(editor.locator("#body-word-count")).to_have_text("10 words · 1 min read")

    # The reader can link to the heading, as to a heading block's.
    save_draft(editor)
    editor.get_by_role("button", name="Toggle preview").click()
    preview = editor.frame_locator("#w-preview-iframe")
    heading = preview.locator(".post__body h2#why-the-cluster-stalled")
    expect(heading.get_by_role("link", name="Link to this section")).to_have_attribute(
        "href", "#why-the-cluster-stalled"
    )
    expect(preview.locator(".post__body ul > li")).to_have_count(2)


def test_slash_opens_the_menu_of_what_can_be_added(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    open_new_post(editor, staff["server"], staff["blog"])
    add_block(editor, "Text")
    text = editor.locator("[data-contentpath='body'] [contenteditable='true']").last
    text.click()
    # The menu opens under the pointer left where it clicked: Draftail's menu (Downshift)
    # highlights what the pointer rests on and drops the highlight as the list changes under
    # it, so Enter would take nothing. A person types with the pointer out of the way.
    editor.mouse.move(0, 0)
    text.press_sequentially("/")
    menu = editor.get_by_role("listbox")
    # What the text holds, then the blocks that need fields of their own.
    expect(menu.get_by_role("option")).to_contain_text(
        ["Heading 2", "Bulleted list", "Blockquote", "Image", "Embed", "Code", "Table"]
    )
    # Typing filters the menu; Enter takes what is left.
    text.press_sequentially("blockq")
    expect(menu.get_by_role("option")).to_have_text(["Blockquote"])
    # Enter takes the highlighted entry: on a busy machine the highlight can follow the filter late.
    expect(menu.get_by_role("option", name="Blockquote")).to_have_attribute("aria-selected", "true")
    text.press("Enter")
    expect(text.locator("blockquote")).to_have_count(1)
    text.press_sequentially("It was the cable.")
    expect(text.locator("blockquote")).to_have_text("It was the cable.")


def test_every_entry_of_the_slash_menu_has_a_name_of_its_own(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    open_new_post(editor, staff["server"], staff["blog"])
    add_block(editor, "Text")
    text = editor.locator("[data-contentpath='body'] [contenteditable='true']").last
    text.click()
    text.press_sequentially("/")
    options = editor.get_by_role("listbox").get_by_role("option")
    expect(options.first).to_be_visible()
    names = [name.strip() for name in options.all_inner_texts()]
    repeated = sorted({name for name in names if names.count(name) > 1})
    assert not repeated, f"named twice in the / menu: {repeated} (of {names})"
    # The blocks say what they are beside the text's own picture and embed.
    assert {"Picture with caption", "Video or post with caption"} <= set(names)
