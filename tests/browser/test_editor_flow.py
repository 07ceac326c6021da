"""An editor writes a post in the real admin, a publisher approves and schedules it, the scheduler
puts it live; a reviewer reads a draft through a share link; the content checks speak up.

The live server runs in other threads and cannot see the test's transaction, so what these
tests create is committed from a thread of its own (`committed`) and removed again afterwards:
the reader tests that follow in this package expect the demo as `load_demo` left it.
"""

import io
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect
from wagtail.models import Page, Revision

from blog.editorial import in_editor_zone
from blog.models import Author, BlogIndexPage, BlogPage, Topic
from blog.roles import EDITORS, PUBLISHERS, REVIEW_WORKFLOW
from blog.share_links import DraftShareLink

from ..factories import draft_post, make_image
from .conftest import SCREENSHOTS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
# Previews render pictures on first sight and the machine is shared: 5 s is too tight.
expect.set_options(timeout=30_000)

PASSWORD = "correct horse battery staple"  # noqa: S105 (a throwaway test account)
TITLE = "Restoring a checkpoint across GPU generations"
SUMMARY = "What broke when we moved a running training job from A100s to H100s, and the fix."


def committed(work, *args):
    """Run ORM work in a thread of its own, so it commits at once and the live server sees it.

    The test thread holds the test's transaction (django_db), which the server's threads never
    see; the database itself is still wanted, as pytest-django only creates it for marked tests.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run_and_close, work, *args).result()


def run_and_close(work, *args):
    try:
        return work(*args)
    finally:
        connections.close_all()


def create_staff(server):
    User = get_user_model()
    editor = User.objects.create_user("edna", "edna@example.com", PASSWORD)
    editor.groups.add(Group.objects.get(name=EDITORS))
    publisher = User.objects.create_user("pete", "pete@example.com", PASSWORD)
    publisher.groups.add(Group.objects.get(name=PUBLISHERS))
    return {
        "editor": editor,
        "author": Author.objects.create(name="Edna Editor", slug="edna-editor", user=editor),
        "publisher": publisher,
        "image": make_image("Two GPU boards side by side", size=(1200, 675)),
        "blog": BlogIndexPage.objects.get(),
        "server": server,
        "posts_before": set(BlogPage.objects.values_list("pk", flat=True)),
    }


def remove_staff(staff):
    for post in BlogPage.objects.exclude(pk__in=staff["posts_before"]):
        post.delete()
    staff["image"].delete()
    staff["author"].delete()
    get_user_model().objects.filter(pk__in=[staff["editor"].pk, staff["publisher"].pk]).delete()


@pytest.fixture
def staff(demo_server):
    """An editor with a byline, a publisher and a picture in the library, with every post they
    write removed afterwards."""
    created = committed(create_staff, demo_server)
    yield created
    committed(remove_staff, created)


@pytest.fixture
def contexts(browser, request):
    """new_context() -> a fresh browser session; the failing test's pages are saved as
    screenshots in test-artifacts/screenshots."""
    opened = []

    def new_context():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(30_000)
        opened.append(context)
        return context

    yield new_context
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for number, context in enumerate(opened):
            for page_number, page in enumerate(context.pages):
                path = SCREENSHOTS / f"FAILED-{name}-{number}-{page_number}.png"
                page.screenshot(path=str(path), full_page=True)
    for context in opened:
        context.close()


def sign_in(context, server, user):
    page = context.new_page()
    page.goto(f"{server}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server}/admin/")
    return page


def choose_image(page, field, title):
    """Open the image chooser of a hero or block field and pick the picture by its title."""
    field.get_by_role("button", name="Choose an image").click()
    modal = page.locator(".modal-dialog")
    modal.get_by_role("link", name=title).first.click()
    modal.wait_for(state="hidden")


def add_block(page, name):
    """Add a block at the end of the post body through the block picker."""
    page.locator("[data-contentpath='body'] button.c-sf-add-button").last.click()
    page.get_by_role("option", name=name, exact=True).click()


def open_new_post(page, server, blog):
    page.goto(f"{server}/admin/pages/{blog.pk}/")
    page.get_by_role("link", name="Add child page").first.click()
    page.wait_for_url(re.compile(r"/admin/pages/add/blog/blogpage/\d+/"))


def add_topics(page, *names):
    """ "Add topics", tick them in the chooser and confirm: one new row per topic."""
    page.get_by_role("button", name="Add topics").click()
    modal = page.locator(".modal-dialog")
    for name in names:
        modal.locator("tr", has_text=name).get_by_role("checkbox").check()
    modal.get_by_role("button", name="Confirm selection").click()
    modal.wait_for(state="hidden")


def go_ahead_if_asked(page, action, message):
    """Wagtail may first ask whether to overwrite "a new version saved in another window": the
    autosave that ran while the editor typed. Going ahead is what the editor means."""
    done = page.locator(".messages", has_text=message)
    overwrite = page.get_by_role("dialog").get_by_role("button", name=action)
    expect(done.or_(overwrite)).to_be_visible()
    if overwrite.is_visible():
        overwrite.click()
    expect(done).to_be_visible()


def let_autosave_finish(page):
    """Wait out the autosave that follows typing (WAGTAIL_AUTOSAVE_INTERVAL after it stops).
    On a new post it creates the page: "Save draft" clicked while it runs posts the add form
    again and finds the post's address already taken by the page it just created."""
    page.wait_for_timeout(settings.WAGTAIL_AUTOSAVE_INTERVAL + 250)
    expect(page.locator("#w-autosave-indicator")).not_to_have_attribute(
        "data-w-autosave-state-value", "saving"
    )


def save_draft(page):
    let_autosave_finish(page)
    page.locator("footer").get_by_role("button", name="Save draft").click()
    go_ahead_if_asked(
        page, "Save draft", re.compile(r"created\.|has been updated|saved as a draft")
    )
    page.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))


def open_action_menu(page):
    page.locator("footer [data-w-dropdown-target='toggle']").click()


def bring_scheduled_go_live_forward(page_id):
    """Move the approved go-live time, and the one in the revision's content, a second into the
    past: waiting out the real minute would double the test's run time."""
    past = timezone.now() - timedelta(seconds=1)
    revision = Revision.page_revisions.get(
        object_id=str(page_id), approved_go_live_at__isnull=False
    )
    revision.content["go_live_at"] = past.isoformat()
    revision.approved_go_live_at = past
    revision.save(update_fields=["content", "approved_go_live_at"])
    Page.objects.filter(pk=page_id).update(go_live_at=past)


def write_draft(staff, title):
    return draft_post(
        staff["blog"],
        title,
        authors=[staff["author"]],
        topics=[Topic.objects.order_by("pk").first()],
        image=staff["image"],
    )


def run_scheduler_once():
    call_command("run_scheduler", "--once", stdout=io.StringIO())


def test_an_editor_writes_a_post_a_publisher_schedules_it_and_readers_see_it(staff, contexts):
    server, blog = staff["server"], staff["blog"]
    editor = sign_in(contexts(), server, staff["editor"])
    open_new_post(editor, server, blog)

    editor.fill("#id_title", TITLE)
    # A paste longer than the summary's limit is kept whole, and the counter says by how much
    # it is over (the browser's maxlength used to cut it mid-word without a word).
    editor.fill("#id_summary", SUMMARY * 6)
    expect(editor.locator("#id_summary-character-count")).to_have_text(
        f"{len(SUMMARY) * 6} / 300 characters ({len(SUMMARY) * 6 - 300} too many: shorten it to save)"
    )
    assert editor.input_value("#id_summary") == SUMMARY * 6
    editor.fill("#id_summary", SUMMARY)
    expect(editor.locator("#id_summary-character-count")).to_have_text(
        f"{len(SUMMARY)} / 300 characters"
    )
    hero = editor.locator("[data-field-wrapper]:has(#id_hero_image)")
    choose_image(editor, hero, "Two GPU boards side by side")
    editor.fill("#id_hero_alt", "Two circuit boards on a bench, an older one on the left.")
    # The byline starts as the signed-in editor's own.
    expect(editor.locator("#id_author_links-FORMS")).to_contain_text("Edna Editor")
    # The topics start empty: what the editor adds is all the form holds.
    expect(editor.locator("#id_topic_links-FORMS [data-inline-panel-child]")).to_have_count(0)
    # Ticked in one go, against the chooser's alphabetical list: the first ticked is the
    # card's label, so the post keeps the order of the ticks.
    add_topics(editor, "GPU reliability", "Benchmarks")
    expect(editor.locator("#id_topic_links-FORMS [data-inline-panel-child]")).to_have_text(
        [re.compile("GPU reliability"), re.compile("Benchmarks")]
    )
    add_block(editor, "Paragraph")
    editor.locator("[data-contentpath='body'] [contenteditable='true']").last.fill(
        "The optimizer state was saved in a layout the new cards could not read."
    )
    # Counted as it is typed, at the pace of the reader's "min read".
    expect(editor.locator("#body-word-count")).to_have_text("14 words · 1 min read")
    add_block(editor, "Image")
    figure = editor.locator("[data-contentpath='body'] [data-contentpath='image']").last
    choose_image(editor, figure, "Two GPU boards side by side")
    editor.locator("[data-contentpath='body'] [data-contentpath='alt_text'] textarea").last.fill(
        "The H100 board, its heat sink removed."
    )
    # Alt text is not read on the page: the count, like the Checks, leaves it out.
    expect(editor.locator("#body-word-count")).to_have_text("14 words · 1 min read")

    # Saved before previewing: when autosave turns a new page into an existing one, the preview
    # panel still points at the "add" preview and stays blank until the editor reloads.
    save_draft(editor)

    editor.get_by_role("button", name="Toggle preview").click()
    preview = editor.frame_locator("#w-preview-iframe")
    # The panel opens on the full page; a mode chosen before that has loaded is lost.
    expect(preview.locator("h1")).to_contain_text(TITLE)
    editor.select_option("#id_preview_mode", "card")
    card = preview.locator(".preview-shell__stage .card")
    expect(card).to_contain_text(TITLE)
    expect(card).to_contain_text(SUMMARY)

    open_action_menu(editor)
    submit_label = f"Submit to {REVIEW_WORKFLOW}"
    editor.locator("footer").get_by_role("button", name=submit_label).click()
    go_ahead_if_asked(editor, submit_label, "submitted for moderation")

    post = BlogPage.objects.get(title=TITLE)
    assert not post.live
    assert post.current_workflow_state.workflow.name == REVIEW_WORKFLOW
    submitted = post.get_latest_revision_as_object()
    assert [block.block_type for block in submitted.body] == ["paragraph", "image"]
    assert [topic.name for topic in submitted.topics] == ["GPU reliability", "Benchmarks"]

    publisher = sign_in(contexts(), server, staff["publisher"])
    review = publisher.locator("#awaiting-review-section")
    review.get_by_role("link", name=TITLE).first.click()
    publisher.wait_for_url(re.compile(rf"/admin/pages/{post.pk}/edit/"))
    # The schedule is a pair of fields on the Publishing tab, saved with the draft; the status
    # panel shows it but no longer offers a dialog of its own.
    publisher.get_by_role("button", name="Toggle status").click()
    expect(publisher.get_by_text("No publishing schedule set")).to_be_visible()
    expect(publisher.get_by_role("button", name="Set schedule")).to_be_hidden()
    publisher.get_by_role("button", name="Toggle status").click()
    publisher.get_by_role("tab", name="Publishing").click()
    go_live = (timezone.localtime() + timedelta(minutes=10)).replace(second=0, microsecond=0)
    publisher.fill("#id_go_live_at", go_live.strftime("%Y-%m-%d %H:%M"))
    publisher.get_by_role("tab", name="Publishing").click()  # closes the date picker
    save_draft(publisher)
    when = in_editor_zone(go_live)
    expect(publisher.locator(".messages")).to_contain_text(
        f"It will be scheduled to go live on {when} once a Publisher approves it."
    )
    open_action_menu(publisher)
    publisher.get_by_role("button", name="Approve and schedule", exact=True).click()
    expect(publisher.locator(".messages")).to_contain_text(
        f"“{TITLE}” is scheduled to go live on {when}."
    )
    # Approved with a go-live ahead, the post waits: the listing it returns to says so.
    expect(publisher.locator("tr", has_text=TITLE)).to_contain_text(re.compile("scheduled", re.I))
    # Featured from the post's own menu: it takes the slot when it goes live, not before.
    publisher.goto(f"{server}/admin/pages/{post.pk}/edit/")
    publisher.locator("header [data-w-dropdown-target='toggle']").first.click()
    publisher.get_by_role("link", name="Feature this post").click()
    publisher.get_by_role("button", name="Feature this post").click()
    expect(publisher.locator(".messages")).to_contain_text(
        f"“{TITLE}” will take the featured slot when it goes live on {when}"
    )

    post.refresh_from_db()
    scheduled = Revision.page_revisions.filter(object_id=str(post.pk)).exclude(
        approved_go_live_at=None
    )
    assert not post.live, "approval with a future go-live published at once"
    assert scheduled.count() == 1
    reader = contexts().new_page()
    reader.goto(f"{server}/blog/")
    expect(reader.locator("main")).not_to_contain_text(TITLE)

    committed(bring_scheduled_go_live_forward, post.pk)
    committed(run_scheduler_once)

    reader.goto(f"{server}/blog/")
    expect(reader.locator(".featured")).to_contain_text(TITLE)
    reader.locator(".featured").get_by_role("link", name=TITLE).first.click()
    expect(reader.locator("main")).to_contain_text("The optimizer state was saved in a layout")
    expect(reader.locator("main figure img").last).to_have_attribute(
        "alt", "The H100 board, its heat sink removed."
    )


def test_a_reviewer_without_an_account_reads_a_draft_through_its_share_link(staff, contexts):
    server = staff["server"]
    draft = committed(write_draft, staff, "Draft notes on preemptible GPU pools")
    other = committed(write_draft, staff, "Another draft nobody shared")
    editor = sign_in(contexts(), server, staff["editor"])
    editor.goto(f"{server}/admin/pages/{draft.pk}/edit/")
    editor.locator("header [data-w-dropdown-target='toggle']").first.click()
    editor.get_by_role("link", name="Share draft").click()
    editor.get_by_role("button", name="Create share link").click()
    expect(editor.locator(".messages")).to_contain_text("Share link created")
    link = editor.get_by_label("Share link").first.input_value()
    assert link.endswith(DraftShareLink.objects.get(page=draft).get_absolute_url())

    reviewer = contexts().new_page()
    response = reviewer.goto(link)
    assert response.status == 200
    expect(reviewer.locator(".draft-banner")).to_contain_text("Draft — not published")
    expect(reviewer.locator("main h1")).to_have_text(draft.title)
    expect(reviewer.locator("body")).not_to_contain_text(other.title)
    # Neither the draft's own address nor a token that was never issued shows anything.
    for address in (f"{server}{draft.url}", link[:-4] + "zzzz", f"{server}{other.url}"):
        assert reviewer.goto(address).status == 404, address
        expect(reviewer.locator("body")).not_to_contain_text("Draft — not published")


def test_the_editors_checks_panel_flags_missing_card_alt_text_and_summary(staff, contexts):
    editor = sign_in(contexts(), staff["server"], staff["editor"])
    open_new_post(editor, staff["server"], staff["blog"])
    editor.fill("#id_title", "A post still missing its card text")
    hero = editor.locator("[data-field-wrapper]:has(#id_hero_image)")
    choose_image(editor, hero, "Two GPU boards side by side")
    add_topics(editor, "GPU reliability")
    add_block(editor, "Paragraph")
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


def publish_for_staff(staff, title):
    post = write_draft(staff, title)
    post.get_latest_revision().publish()
    return post


def test_a_publisher_features_a_post_from_the_posts_list_and_readers_see_it(staff, contexts):
    server, title = staff["server"], "A post worth featuring"
    committed(publish_for_staff, staff, title)
    publisher = sign_in(contexts(), server, staff["publisher"])
    publisher.goto(f"{server}/admin/blog/blogpage/")
    row = publisher.locator("table.listing tbody tr", has_text=title)
    row.hover()
    row.get_by_role("link", name="Feature", exact=True).click()

    expect(publisher.locator("main")).to_contain_text(
        "in the featured slot at the top of the blog now"
    )
    publisher.get_by_role("button", name="Feature this post").click()

    expect(publisher.locator(".messages")).to_contain_text(
        f"“{title}” is now the featured post at the top of the blog."
    )
    expect(publisher.locator("table.listing tbody tr", has_text=title)).to_contain_text(
        "★ In the featured slot"
    )
    reader = contexts().new_page()
    reader.goto(f"{server}/blog/")
    expect(reader.locator(".featured__title")).to_have_text(title)
    screenshot(publisher, "publisher-featured-a-post")
