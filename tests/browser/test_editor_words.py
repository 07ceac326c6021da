"""What the editor is told, in Chromium (issue #33): the share link's "Copy link" puts the
address on the clipboard and says so; the editor's word count and the preview's Checks say the
same number, the model's, and the card, featured and social previews run no article checks."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from blog.demo.posts import POSTS
from blog.editorial.roles import REVIEW_WORKFLOW
from blog.models import BlogPage, BlogPageTopic, Topic
from blog.reading import reading_minutes

from .conftest import screenshot
from .editing import (
    add_topics,
    committed,
    go_ahead_if_asked,
    open_action_menu,
    open_new_post,
    sign_in,
    write_draft,
)

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


# What the Checks ran on: the preview's main region, as the panel extracted it each time.
RECORD_CHECK_RUNS = """
window.checked = [];
document.addEventListener("w-preview:content", (event) => {
  window.checked.push(event.detail.content.innerHTML);
});
"""
# Something each mode's preview shows and the others don't.
MODE_MARKERS = {"card": "card-grid", "featured": "featured__", "social": "social-card"}


def show_preview_mode(page, mode):
    """Choose a preview mode; the panel reloads its preview when shown, and a mode chosen while
    that reload runs is lost, so it is chosen again until the preview shows it: what that mode
    alone shows (the previous mode's preview has the same shell)."""
    shell = page.frame_locator("#w-preview-iframe").locator(
        f'body.preview-shell [class*="{MODE_MARKERS[mode]}"]'
    )
    for attempt in range(3):
        if attempt:
            page.select_option("#id_preview_mode", "")
        page.select_option("#id_preview_mode", mode)
        try:
            expect(shell.first).to_be_attached(timeout=10_000)
        except AssertionError:
            continue
        return
    expect(shell.first).to_be_attached()


def words_of(slug):
    post = BlogPage.objects.get(slug=slug).get_latest_revision_as_object()
    return post.word_count()


def test_the_editor_and_the_checks_count_the_words_the_reading_time_counts(staff, contexts):
    server = staff["server"]
    # A demo post with headings, code, a table and pictures: every kind of block.
    slug = POSTS[3]["slug"]
    words = committed(words_of, slug)
    minutes = reading_minutes(words)
    pk = committed(lambda: BlogPage.objects.get(slug=slug).pk)
    context = contexts()
    context.add_init_script(RECORD_CHECK_RUNS)
    publisher = sign_in(context, server, staff["publisher"])
    publisher.goto(f"{server}/admin/pages/{pk}/edit/")

    expect(publisher.locator("#body-word-count")).to_have_text(
        f"{words} words · {minutes} min read"
    )
    publisher.get_by_role("button", name="Toggle preview").click()
    publisher.get_by_role("button", name="Toggle checks").click()
    expect(publisher.locator("[data-content-word-count]")).to_have_text(str(words))
    expect(publisher.locator("[data-content-reading-time]")).to_have_text(
        f"{minutes} min" if minutes == 1 else f"{minutes} mins"
    )

    for mode in ("card", "featured", "social"):
        publisher.evaluate("window.checked = []")
        publisher.get_by_role("button", name="Toggle preview").click()
        show_preview_mode(publisher, mode)
        publisher.get_by_role("button", name="Toggle checks").click()
        publisher.wait_for_function(
            "(marker) => window.checked.some((html) => html.includes(marker))",
            arg=MODE_MARKERS[mode],
        )
        # Still the post's words, and no heading or alt-text error for a card's title.
        expect(publisher.locator("[data-content-word-count]")).to_have_text(str(words))
        expect(publisher.locator("[data-checks-panel] [data-content-checker-row]")).to_have_count(0)


def test_each_topic_row_is_headed_by_the_topics_name(staff, contexts):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)
    add_topics(editor, "GPU reliability", "Benchmarks")
    headings = editor.locator(
        "#id_topic_links-FORMS [data-inline-panel-child] [data-panel-heading-text]"
    )
    expect(headings).to_have_text(["GPU reliability", "Benchmarks"])
    expect(editor.locator("#id_author_links-FORMS [data-panel-heading-text]")).to_have_text(
        ["Edna Editor"]
    )


def test_the_publish_button_follows_a_go_live_typed_on_the_publishing_tab(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "A draft to schedule")
    publisher = sign_in(contexts(), server, staff["publisher"])
    publisher.goto(f"{server}/admin/pages/{post.pk}/edit/")
    publish = publisher.locator("footer button[name='action-publish']")
    publisher.get_by_role("tab", name="Publishing").click()
    go_live = publisher.locator("#id_go_live_at")

    go_live.click()
    # The picker's weeks start on Monday, as the Calendar's do.
    picker = publisher.locator(".xdsoft_datetimepicker:visible")
    expect(picker.locator(".xdsoft_calendar th").first).to_have_text("Mon")
    go_live.fill(tomorrow())
    go_live.press("Tab")
    open_action_menu(publisher)
    expect(publish).to_have_text("Schedule to publish")

    go_live.fill("")
    go_live.press("Tab")
    expect(publish).to_have_text("Publish")


def tomorrow():
    return (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%d 09:30")


@pytest.fixture
def new_topic_removed():
    yield "edge-inference"
    committed(remove_topic, "edge-inference")


def test_an_editor_adds_a_new_topic_from_the_chooser_while_writing(
    staff, contexts, new_topic_removed
):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)
    editor.get_by_role("button", name="Add topics").click()
    modal = editor.locator(".modal-dialog")
    modal.get_by_role("tab", name="New topic").click()
    modal.locator("input[name$='name']").fill("Edge inference")
    modal.locator("input[name$='slug']").fill("edge-inference")
    modal.get_by_role("button", name="Add topic").click()
    modal.wait_for(state="hidden")
    rows = editor.locator("#id_topic_links-FORMS [data-inline-panel-child]")
    expect(rows).to_have_count(1)
    expect(rows.locator("[data-chooser-title]")).to_have_text("Edge inference")


def remove_topic(slug):
    # An autosave may have linked the new post to it already; the post goes with the staff.
    BlogPageTopic.objects.filter(topic__slug=slug).delete()
    Topic.objects.filter(slug=slug).delete()


def test_an_editor_meets_posts_not_pages_and_ends_on_the_posts_list(staff, contexts):
    server = staff["server"]
    post = committed(write_draft, staff, "A draft to send for review")
    editor = sign_in(contexts(), server, staff["editor"])

    sidebar = editor.locator("#wagtail-sidebar")
    expect(sidebar.get_by_role("link", name="Posts", exact=True)).to_be_visible()
    expect(sidebar.get_by_text("Pages", exact=True)).to_have_count(0)
    summary = editor.locator(".w-summary")
    expect(summary).to_contain_text(re.compile(r"\d+ Posts"))
    expect(summary).not_to_contain_text("Page")
    expect(editor.get_by_placeholder("Search all posts…")).to_be_visible()
    screenshot(editor, "editor-dashboard-in-post-words")

    editor.goto(f"{server}/admin/pages/{post.pk}/edit/")
    editor.get_by_role("button", name="Toggle status").click()
    status = editor.locator("[data-side-panel='status']")
    expect(status).to_contain_text("Anyone can edit this post")
    expect(status).not_to_contain_text("this page")

    open_action_menu(editor)
    submit_label = f"Submit to {REVIEW_WORKFLOW}"
    editor.locator("footer").get_by_role("button", name=submit_label).click()
    go_ahead_if_asked(editor, submit_label, "is submitted for review")
    editor.wait_for_url(f"{server}/admin/blog/blogpage/")
    expect(editor.get_by_role("heading", level=1)).to_have_text("Posts")
    expect(editor.get_by_role("link", name="A draft to send for review")).to_be_visible()
    screenshot(editor, "editor-back-on-the-posts-list-after-submitting")
