"""What only a browser shows of the editor's screens, beside the walk through a whole day in
test_editors_day.py: the content checks speak up, the Posts list keeps its words whole, and a
calendar entry's card shows on hover and on focus, and a Publisher reschedules from it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blog.editorial.overview import in_editor_zone
from blog.models import BlogPage

from .conftest import screenshot
from .editing import (
    HERO_TITLE,
    add_block,
    add_topics,
    choose_image,
    committed,
    open_new_post,
    save_draft,
    sign_in,
    write_draft,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
# Previews render pictures on first sight and the machine is shared: 5 s is too tight.
expect.set_options(timeout=30_000)

SUMMARY = "What broke when we moved a running training job from A100s to H100s, and the fix."


def test_the_editors_checks_panel_flags_missing_card_alt_text_and_summary(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    open_new_post(editor, staff["server"], staff["blog"])
    editor.fill("#id_title", "A post still missing its card text")
    hero = editor.locator("[data-field-wrapper]:has(#id_hero_image)")
    choose_image(editor, hero, HERO_TITLE)
    add_topics(editor, "GPU reliability")
    add_block(editor, "Text")
    editor.locator("[data-contentpath='body'] [contenteditable='true']").last.fill(
        "Five words in the body."
    )
    expect(editor.locator("#body-word-count")).to_have_text("5 words · 1 min read")

    # Saved first, as in the test above; blank fields stop neither a draft nor its preview,
    # which the checks run on.
    save_draft(editor)
    editor.get_by_role("button", name="Toggle preview").click()
    expect(editor.frame_locator("#w-preview-iframe").locator("h1")).to_contain_text("missing")
    editor.get_by_role("button", name="Toggle checks").click()
    issues = editor.locator("[data-checks-panel]")
    expect(issues).to_contain_text("Card picture has no alt text")
    expect(issues).to_contain_text("Summary is empty or too long")

    editor.fill("#id_summary", SUMMARY)
    editor.fill("#id_hero_alt", "Two circuit boards on a bench.")
    save_draft(editor)
    editor.get_by_role("button", name="Toggle checks").click()
    # The body's words, as the counter under the editor says: not the title, byline or the
    # page around the post (it said 167 words for a 64-word body).
    expect(editor.locator("[data-content-word-count]")).to_have_text("5")
    expect(editor.locator("[data-checks-panel]")).not_to_contain_text("Card picture has no alt")
    expect(editor.locator("[data-checks-panel]")).not_to_contain_text("Summary is empty")


# Each word of the table's cells, and the number of lines it is drawn on.
WORDS_ON_LINES = """() => [...document.querySelectorAll("table.listing th, table.listing td")]
    .flatMap((cell) => {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        const words = [];
        for (let node; (node = walker.nextNode()); ) {
            for (const match of node.textContent.matchAll(/[^\\s-]+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                words.push([match[0], range.getClientRects().length]);
            }
        }
        return words;
    })"""


def test_the_posts_list_breaks_no_word_in_two(staff, contexts):
    """Narrow columns read "Engine ering" and "Schedule d" when every cell could break anywhere."""
    publisher = sign_in(contexts(), staff["server"], staff["publisher"])
    for width in (1400, 1024):
        publisher.set_viewport_size({"width": width, "height": 900})
        publisher.goto(f"{staff['server']}/admin/blog/blogpage/")
        words = publisher.evaluate(WORDS_ON_LINES)
        assert any(word == "Scheduled" for word, _ in words)
        assert [word for word, lines in words if lines > 1] == [], width


def latest_first_publication():
    return BlogPage.objects.live().order_by("-first_published_at")[0].first_published_at


def test_a_calendar_entry_shows_its_card_on_hover_and_on_keyboard_focus(staff, contexts):
    """The card is CSS only: an editor pointing at a title, or tabbing to it, sees it."""
    published = committed(latest_first_publication)
    publisher = sign_in(contexts(), staff["server"], staff["publisher"])
    publisher.goto(f"{staff['server']}/admin/calendar/?month={published:%Y-%m}")
    entry = publisher.locator(".editorial-calendar__entry").first
    title, card = entry.get_by_role("link").first, entry.locator(".editorial-calendar__card")

    def card_width():
        return card.bounding_box()["width"]

    assert card_width() <= 1
    title.hover()
    assert card_width() > 200
    expect(card).to_contain_text("Live")
    box, viewport = card.bounding_box(), publisher.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    publisher.mouse.move(0, 0)
    assert card_width() <= 1
    title.focus()
    assert card_width() > 200
    card.get_by_role("link", name="Preview").focus()
    assert card_width() > 200


def schedule_for_staff(staff, title, go_live_at):
    post = write_draft(staff, title)
    post.go_live_at = go_live_at
    post.save_revision().publish()
    return post


def test_a_publisher_moves_a_go_live_from_the_calendar(staff, contexts):
    """The Reschedule dialog takes a minute in the editor's zone and the entry moves day."""
    title = "Notes from the capacity review"
    first = (timezone.localtime() + timedelta(days=40)).replace(hour=9, minute=0, second=0)
    moved = (first + timedelta(days=2)).replace(hour=14, minute=35, microsecond=0)
    committed(schedule_for_staff, staff, title, first)
    publisher = sign_in(contexts(), staff["server"], staff["publisher"])
    publisher.goto(f"{staff['server']}/admin/calendar/?month={first:%Y-%m}")
    entry = publisher.locator(".editorial-calendar__entry", has_text=title)
    entry.get_by_role("button", name="Reschedule").click()
    dialog = publisher.get_by_role("dialog", name="Reschedule")
    expect(dialog).to_contain_text(title)
    expect(dialog).to_contain_text(f"Times are in {timezone.get_current_timezone_name()}")
    field = dialog.get_by_label("Go live at")
    field.fill(moved.strftime("%Y-%m-%d %H:%M"))
    dialog.get_by_role("button", name="Reschedule").click()

    expect(publisher.locator(".messages")).to_contain_text(
        f"“{title}” is now scheduled for {in_editor_zone(moved)}."
    )
    moved_day = publisher.locator(f"td:has(time[datetime='{moved:%Y-%m-%d}'])")
    expect(moved_day.locator(".editorial-calendar__entry", has_text=title)).to_contain_text(
        "Goes live 14:35"
    )
    screenshot(publisher, "publisher-rescheduled-from-the-calendar")
