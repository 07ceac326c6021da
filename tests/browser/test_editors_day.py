"""One editor's day, end to end through the admin in Chromium at a laptop's 1280×800 and a
phone's 390×844 (issues #18 and #33, "Done when"): an Editor writes a post and previews it in
every mode, submits it; a Publisher in Tokyo asks for a change, the Editor sends it back; the
Publisher schedules it for a minute of tomorrow, finds it in the calendar and features it from
the Posts list; the Editor shares the draft, copies the link and switches it off; the scheduler
puts it live.

Each step asserts what the editor is told and what a reader sees, and leaves a screenshot in
test-artifacts/editors-day/<width>/ (under $TEST_ARTIFACTS if set), numbered in the order of the
walk. Every admin screen on the way is checked for controls that spill out of their box or a
page that scrolls sideways (editing.layout_problems); the navigation is the sidebar's, behind its
menu button on a phone.
"""

import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from wagtail.users.models import UserProfile

from blog.editorial.featuring import in_slot
from blog.editorial.roles import REVIEW_WORKFLOW
from blog.models import BlogPage

from .conftest import ARTIFACTS, load_every_image
from .editing import (
    HERO_TITLE,
    add_block,
    add_topics,
    bring_scheduled_go_live_forward,
    choose_image,
    committed,
    go_ahead_if_asked,
    layout_problems,
    numbered_screenshots,
    open_action_menu,
    open_from_sidebar,
    open_header_menu,
    open_sidebar,
    run_scheduler_once,
    save_draft,
    sign_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db]
# Previews render pictures on first sight and the machine is shared: 5 s is too tight.
expect.set_options(timeout=30_000)

STEPS = ARTIFACTS / "editors-day"
TITLE = "Restoring a checkpoint across GPU generations"
SUMMARY = "What broke when we moved a running training job from A100s to H100s, and the fix."
HERO_ALT = "Two circuit boards on a bench, an older one on the left."
HEADING = "What the optimizer saved"
PARAGRAPH = "The optimizer state was saved in a layout the new cards could not read."
QUOTE = "Nothing was lost; it was only written down in the wrong order."
CODE = "torch.load(path, map_location='cuda:0')"
FIGURE_ALT = "The H100 board, its heat sink removed."
PUBLISHER_ZONE = "Asia/Tokyo"
EDITOR_ZONE = "Europe/Berlin"
CHANGE_REQUEST = "Say which PyTorch version wrote the checkpoint."
# A laptop's screen and a phone's, by width.
SCREENS = {1280: 800, 390: 844}


def set_time_zone(user, zone):
    profile = UserProfile.get_for_user(user)
    profile.current_time_zone = zone
    profile.save()


def tomorrow_at(hour, minute, zone):
    """A minute of tomorrow in `zone`. 08:15 in Tokyo is the day before in UTC, so a calendar
    that sorted by the server's date would put the post on the wrong day."""
    tz = ZoneInfo(zone)
    tomorrow = timezone.now().astimezone(tz).date() + timedelta(days=1)
    return datetime.combine(tomorrow, time(hour, minute), tzinfo=tz)


def featured_title(blog):
    shown = in_slot(blog)
    return shown.title if shown else None


def pk_and_address(title):
    post = BlogPage.objects.get(title=title)
    return post.pk, post.url


def scheduled_banner_time(moment, zone):
    """The go-live as the scheduled banner words it on the clock of `zone`
    (blog.revisions.scheduled_moment)."""
    local = moment.astimezone(ZoneInfo(zone))
    year = "" if local.year == timezone.now().astimezone(ZoneInfo(zone)).year else f" {local.year}"
    return f"{local:%a %-d %b}{year}, {local:%H:%M} {zone.rsplit('/', 1)[-1]} time"


@pytest.mark.parametrize("width", SCREENS)
def test_an_editors_day(staff, contexts, width):
    server, blog = staff["server"], staff["blog"]
    screen = {"width": width, "height": SCREENS[width]}
    shoot = numbered_screenshots(STEPS / str(width))
    misfits = []

    def check_the_fit(page, where):
        misfits.extend(f"{where} at {width}px: {problem}" for problem in layout_problems(page))

    committed(set_time_zone, staff["publisher"], PUBLISHER_ZONE)
    committed(set_time_zone, staff["editor"], EDITOR_ZONE)
    featured_before = committed(featured_title, blog)
    assert featured_before, "the demo blog has a featured post for this one to follow"

    # 1. The Editor writes a post: title, summary, hero with alt text, topics, five blocks.
    # The sidebar speaks of posts only: no Pages beside Posts.
    editor_session = contexts(viewport=screen)
    editor_session.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    editor = sign_in(editor_session, server, staff["editor"])
    check_the_fit(editor, "the Editor's dashboard")
    sidebar = open_sidebar(editor)
    expect(sidebar.get_by_role("link", name="Posts", exact=True)).to_be_visible()
    expect(sidebar.get_by_text("Pages", exact=True)).to_have_count(0)
    sidebar.get_by_role("link", name="Posts", exact=True).click()
    editor.get_by_role("link", name="Add post").first.click()
    editor.wait_for_url(re.compile(r"/admin/pages/add/blog/blogpage/\d+/"))
    expect(editor.get_by_role("tab")).to_contain_text(["Content", "Card & SEO", "Publishing"])
    editor.fill("#id_title", TITLE)
    # A paste longer than the summary's limit is kept whole, and the counter says by how much.
    editor.fill("#id_summary", SUMMARY * 6)
    too_long = len(SUMMARY) * 6
    expect(editor.locator("#id_summary-character-count")).to_have_text(
        f"{too_long} / 300 characters ({too_long - 300} too many: shorten it to save)"
    )
    assert editor.input_value("#id_summary") == SUMMARY * 6
    editor.fill("#id_summary", SUMMARY)
    expect(editor.locator("#id_summary-character-count")).to_have_text(
        f"{len(SUMMARY)} / 300 characters"
    )
    choose_image(editor, editor.locator("[data-field-wrapper]:has(#id_hero_image)"), HERO_TITLE)
    editor.fill("#id_hero_alt", HERO_ALT)
    # The byline starts as the signed-in editor's own; the topics start empty.
    expect(editor.locator("#id_author_links-FORMS")).to_contain_text("Edna Editor")
    expect(editor.locator("#id_topic_links-FORMS [data-inline-panel-child]")).to_have_count(0)
    # Ticked in one go, against the chooser's alphabetical list: the first ticked is the
    # card's label, so the post keeps the order of the ticks.
    add_topics(editor, "GPU reliability", "Benchmarks")
    expect(editor.locator("#id_topic_links-FORMS [data-inline-panel-child]")).to_have_text(
        [re.compile("GPU reliability"), re.compile("Benchmarks")]
    )

    body = editor.locator("[data-contentpath='body']")
    add_block(editor, "Heading")
    body.locator("[data-contentpath='text'] input").last.fill(HEADING)
    add_block(editor, "Text")
    body.locator("[contenteditable='true']").last.fill(PARAGRAPH)
    # Counted as it is typed (heading and paragraph), at the pace of the reader's "min read".
    word_count = editor.locator("#body-word-count")
    expect(word_count).to_have_text("18 words · 1 min read")
    add_block(editor, "Quote")
    body.locator("[data-contentpath='quote'] textarea").last.fill(QUOTE)
    add_block(editor, "Code")
    body.locator("[data-contentpath='language'] select").last.select_option("python")
    body.locator("[data-contentpath='code'] textarea").last.fill(CODE)
    add_block(editor, "Picture with caption")
    choose_image(editor, body.locator("[data-contentpath='image']").last, HERO_TITLE)
    # Counted half a second after the last edit: read only once every block's words are in
    # (read at once, it once caught the count still at the paragraph's 18 under load).
    words = len(f"{HEADING} {PARAGRAPH} {QUOTE} {CODE}".split())
    expect(word_count).to_have_text(f"{words} words · 1 min read")
    # Alt text is not read on the page: the count, like the Checks, leaves it out. Judged on
    # the count of a form that holds the alt text, not on one sent before it was typed.
    with editor.expect_response(
        lambda response: (
            "/word-count/" in response.url and FIGURE_ALT in (response.request.post_data or "")
        )
    ) as recount:
        body.locator("[data-contentpath='alt_text'] textarea").last.fill(FIGURE_ALT)
    assert recount.value.json()["words"] == words
    expect(word_count).to_have_text(f"{words} words · 1 min read")
    shoot(editor, "editor-writes-the-post", full_page=True)
    check_the_fit(editor, "the post editor")

    # Saved before previewing: when autosave turns a new page into an existing one, the preview
    # panel still points at the "add" preview and stays blank until the editor reloads.
    save_draft(editor)
    expect(editor.locator(".messages")).to_contain_text(TITLE)
    shoot(editor, "draft-saved")

    # 2. Every preview mode the post offers shows the post as readers would meet it there.
    editor.get_by_role("button", name="Toggle preview").click()
    preview = editor.frame_locator("#w-preview-iframe")
    modes = editor.locator("#id_preview_mode option")
    expect(modes).to_have_text(["Full page", "Card", "Featured slot", "Social share card"])
    # The panel opens on the full page; a mode chosen before that has loaded is lost.
    expect(preview.locator("h1")).to_contain_text(TITLE)
    expect(preview.get_by_role("main")).to_contain_text(PARAGRAPH)
    expect(preview.get_by_role("main").locator("blockquote")).to_contain_text(QUOTE)
    expect(preview.get_by_role("main").locator("pre code")).to_contain_text(CODE)
    expect(preview.locator(".post__hero img")).to_have_attribute("alt", HERO_ALT)
    shoot(editor, "preview-full-page")
    editor.select_option("#id_preview_mode", "card")
    card = preview.locator(".preview-shell__stage .card")
    expect(card).to_contain_text(TITLE)
    expect(card).to_contain_text(SUMMARY)
    shoot(editor, "preview-card")
    editor.select_option("#id_preview_mode", "featured")
    featured = preview.locator(".preview-shell__stage .featured")
    expect(featured).to_contain_text(TITLE)
    expect(featured.locator("img")).to_have_attribute("alt", HERO_ALT)
    shoot(editor, "preview-featured-slot")
    editor.select_option("#id_preview_mode", "social")
    social = preview.locator(".social-card")
    expect(social.locator(".social-card__title")).to_have_text(TITLE)
    expect(social.locator(".social-card__description")).to_have_text(SUMMARY)
    expect(social.locator(".social-card__domain")).not_to_be_empty()
    shoot(editor, "preview-social-share-card")
    editor.get_by_role("button", name="Toggle preview").click()

    # 3. Submitted for review: the Editor is back on the Posts list, where the post is.
    open_action_menu(editor)
    submit_label = f"Submit to {REVIEW_WORKFLOW}"
    editor.locator("footer").get_by_role("button", name=submit_label).click()
    go_ahead_if_asked(editor, submit_label, "is submitted for review")
    expect(editor.locator(".messages")).to_contain_text(TITLE)
    editor.wait_for_url(f"{server}/admin/blog/blogpage/")
    expect(editor.get_by_role("heading", level=1)).to_have_text("Posts")
    shoot(editor, "submitted-for-review")
    check_the_fit(editor, "the Editor's Posts list")
    pk, address = committed(pk_and_address, TITLE)
    address = server + address

    # 4. The Publisher (in Tokyo) opens it from the dashboard and asks for a change, with a
    # comment; the Editor finds it at the top of the post and sends the post back.
    publisher = sign_in(contexts(viewport=screen), server, staff["publisher"])
    awaiting = publisher.locator("#awaiting-review-section")
    expect(awaiting).to_contain_text("Awaiting your review")
    shoot(publisher, "publisher-dashboard-awaiting-review")
    check_the_fit(publisher, "the Publisher's dashboard")
    awaiting.get_by_role("link", name=TITLE).first.click()
    publisher.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))
    open_action_menu(publisher)
    publisher.locator("footer").get_by_role("button", name="Request changes").click()
    request = publisher.locator(".modal-dialog")
    request.get_by_label("Comment").fill(CHANGE_REQUEST)
    request.get_by_role("button", name="Request changes").click()
    expect(publisher.locator(".messages")).to_contain_text(f"Changes requested on “{TITLE}”")
    shoot(publisher, "publisher-requests-changes")

    editor.get_by_role("link", name=TITLE).first.click()
    editor.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))
    change_request = editor.locator(".messages")
    expect(change_request).to_contain_text("requested changes")
    expect(change_request).to_contain_text(f"“{CHANGE_REQUEST}”")
    shoot(editor, "editor-reads-the-change-request")
    check_the_fit(editor, "the post editor with a change request")
    send_back = editor.locator("footer").get_by_role("button", name="Send back for review")
    send_back.click()
    go_ahead_if_asked(editor, "Send back for review", "is submitted for review")

    # 5. The Publisher schedules it on the Publishing tab for a minute of tomorrow: the menu
    # says what approving will do as soon as the go-live is typed, and approving schedules it.
    open_from_sidebar(publisher, "Dashboard")
    awaiting.get_by_role("link", name=TITLE).first.click()
    publisher.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))
    publisher.get_by_role("tab", name="Publishing").click()
    expect(publisher.locator("#panel-child-publishing-schedule-section")).to_contain_text(
        f"Times are in {PUBLISHER_ZONE}, your time zone"
    )
    go_live = tomorrow_at(8, 15, PUBLISHER_ZONE)
    when = f"{go_live:%-d %b %Y, %H:%M} {PUBLISHER_ZONE}"
    # The picker opens 100 ms after the field is entered (its own timer): a person sees it
    # before typing, and Tab pressed sooner would leave the field before it opened.
    publisher.locator("#id_go_live_at").click()
    expect(publisher.locator(".xdsoft_datetimepicker:visible")).to_have_count(1)
    publisher.fill("#id_go_live_at", go_live.strftime("%Y-%m-%d %H:%M"))
    # Leaving the field closes the date picker (on a phone it covers the tabs).
    publisher.locator("#id_go_live_at").press("Tab")
    expect(publisher.locator(".xdsoft_datetimepicker:visible")).to_have_count(0)
    check_the_fit(publisher, "the Publishing tab")
    open_action_menu(publisher)
    approve = publisher.locator("footer").get_by_role("button", name="Approve and schedule")
    expect(approve).to_be_visible()
    expect(publisher.locator("footer")).not_to_contain_text("Approve and publish")
    shoot(publisher, "publisher-sets-the-go-live")
    approve.click()
    expect(publisher.locator(".messages")).to_contain_text(f"“{TITLE}” is scheduled for {when}.")
    # Back on the dashboard the review started from, whose Scheduled publishing lists it.
    expect(publisher).to_have_url(f"{server}/admin/")
    upcoming = publisher.locator(
        "table", has=publisher.get_by_role("columnheader", name="Goes live")
    )
    expect(upcoming.locator("tr", has_text=TITLE)).to_contain_text(PUBLISHER_ZONE)
    shoot(publisher, "approved-and-scheduled")

    # 6. The calendar shows it on tomorrow's date in Tokyo, at 08:15, marked scheduled.
    open_from_sidebar(publisher, "Calendar")
    expect(publisher.locator(".editorial-calendar caption")).to_contain_text(PUBLISHER_ZONE)
    if go_live.day == 1:
        publisher.get_by_role("link", name=re.compile(r"›$")).click()
    day = publisher.locator(f"td.editorial-calendar__day:has(time[datetime='{go_live:%Y-%m-%d}'])")
    entry = day.locator(".editorial-calendar__entry", has_text=TITLE)
    expect(entry).to_contain_text("Goes live 08:15")
    entry.get_by_role("link", name=TITLE).hover()
    expect(entry.locator(".editorial-calendar__card")).to_contain_text("Scheduled")
    expect(entry.locator(".editorial-calendar__card")).to_contain_text(SUMMARY)
    shoot(publisher, "calendar")
    check_the_fit(publisher, "the Calendar")

    # 7. Featured from the Posts list: it takes the slot at its go-live, not before.
    open_from_sidebar(publisher, "Posts")
    row = publisher.locator("table.listing tbody tr", has_text=TITLE)
    expect(row).to_contain_text("Scheduled")
    expect(row).to_contain_text(when)
    row.hover()
    row.get_by_role("link", name="Feature", exact=True).click()
    expect(publisher.locator("main")).to_contain_text(
        f"Readers see “{featured_before}” in the featured slot at the top of the blog now."
    )
    expect(publisher.locator("main")).to_contain_text(
        f"it takes the featured slot when it goes live on {when}"
    )
    shoot(publisher, "feature-this-post")
    check_the_fit(publisher, "Feature this post")
    publisher.get_by_role("button", name="Feature this post").click()
    expect(publisher.locator(".messages")).to_contain_text(
        f"“{TITLE}” will take the featured slot when it goes live on {when}; "
        f"until then readers see “{featured_before}” there."
    )
    expect(publisher.locator("table.listing tbody tr", has_text=TITLE)).to_contain_text(
        "Featured once it goes live"
    )
    shoot(publisher, "featured-once-it-goes-live")
    check_the_fit(publisher, "the Publisher's Posts list")

    # Before its go-live readers find nothing of it: not in the slot, not listed, no page.
    reader = contexts(viewport=screen).new_page()
    reader.goto(f"{server}/blog/")
    expect(reader.locator(".featured__title")).to_have_text(featured_before)
    expect(reader.locator("main")).not_to_contain_text(TITLE)
    load_every_image(reader)
    shoot(reader, "reader-blog-before-go-live", full_page=True)
    assert reader.goto(address).status == 404
    expect(reader.locator("body")).not_to_contain_text(TITLE)

    # 8. The Editor opens the post from the Posts list: it says when it goes live, on the
    # Editor's own clock, and who can change that.
    open_from_sidebar(editor, "Posts")
    editor.get_by_role("link", name=TITLE).first.click()
    editor.wait_for_url(re.compile(rf"/admin/pages/{pk}/edit/"))
    expect(editor.locator(".messages")).to_contain_text(
        f"Scheduled for {scheduled_banner_time(go_live, EDITOR_ZONE)} — "
        "a Publisher can unschedule it to change it."
    )
    shoot(editor, "editor-sees-it-scheduled")
    check_the_fit(editor, "the scheduled post's editor")

    # 9. The Editor shares the draft and copies the link; a reviewer without an account reads
    # it, until the link is switched off.
    open_header_menu(editor)
    editor.get_by_role("link", name="Share draft").click()
    editor.get_by_role("button", name="Create share link").click()
    expect(editor.locator(".messages")).to_contain_text(
        "Share link created. Anyone with it can read the newest draft until"
    )
    link = editor.get_by_label("Share link").first.input_value()
    editor.get_by_role("button", name="Copy link").first.click()
    expect(editor.locator("[aria-live='polite']", has_text="Link copied")).to_be_visible()
    assert editor.evaluate("navigator.clipboard.readText()") == link
    shoot(editor, "share-link-created-and-copied")
    check_the_fit(editor, "the share links")
    reviewer = contexts(viewport=screen).new_page()
    assert reviewer.goto(link).status == 200
    expect(reviewer.locator(".draft-banner")).to_contain_text("Draft — not published")
    expect(reviewer.locator("main h1")).to_have_text(TITLE)
    expect(reviewer.locator("main")).to_contain_text(PARAGRAPH)
    shoot(reviewer, "reviewer-reads-the-draft", full_page=True)
    editor.get_by_role("button", name="Switch off").click()
    expect(editor.locator(".messages")).to_contain_text(
        "Share link switched off. It now shows a 'not found' page."
    )
    expect(editor.locator("tr.share-link").first).to_contain_text("Switched off")
    shoot(editor, "share-link-switched-off")
    assert reviewer.goto(link).status == 404
    expect(reviewer.locator("h1")).to_have_text("We couldn't find that page.")
    expect(reviewer.locator("body")).not_to_contain_text(TITLE)
    shoot(reviewer, "reviewer-finds-the-link-gone", full_page=True)

    # 10. Go-live: the scheduler's pass (the go-live moved a second into the past rather than
    # waiting for tomorrow) puts it live, in the featured slot, with every block.
    committed(bring_scheduled_go_live_forward, pk)
    assert "published 1," in committed(run_scheduler_once)
    reader.goto(f"{server}/blog/")
    expect(reader.locator(".featured__title")).to_have_text(TITLE)
    load_every_image(reader)
    shoot(reader, "reader-blog-after-go-live", full_page=True)
    reader.locator(".featured").get_by_role("link", name=TITLE).first.click()
    reader.wait_for_url(address)
    article = reader.locator("main")
    expect(article.locator("h1")).to_have_text(TITLE)
    # In the order the editor added them: the first is the label on the post's card.
    expect(article.locator(".post__topics li")).to_have_text(["GPU reliability", "Benchmarks"])
    expect(article.locator(".post__author")).to_have_text(["Edna Editor"])
    expect(article.get_by_role("heading", name=HEADING)).to_be_visible()
    expect(article).to_contain_text(PARAGRAPH)
    expect(article.locator("blockquote")).to_contain_text(QUOTE)
    expect(article.locator("pre code")).to_contain_text(CODE)
    expect(article.locator(".post__hero img")).to_have_attribute("alt", HERO_ALT)
    expect(article.locator("figure.figure img")).to_have_attribute("alt", FIGURE_ALT)
    shoot(reader, "reader-post", full_page=True)
    publisher.reload()
    row = publisher.locator("table.listing tbody tr", has_text=TITLE)
    expect(row).to_contain_text("Live")
    expect(row).to_contain_text("★ In the featured slot")
    shoot(publisher, "posts-list-after-go-live")
    assert misfits == [], "\n".join(misfits)
