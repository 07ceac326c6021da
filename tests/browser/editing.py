"""What the admin browser tests share: the staff who sign in, the steps they take in Wagtail's
editor, and the way their work reaches the live server.

The live server runs in other threads and cannot see the test's transaction, so what these
tests create is committed from a thread of its own (`committed`) and removed again afterwards:
the reader tests that follow in this package expect the demo as `load_demo` left it.
"""

import io
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connections
from django.utils import timezone
from playwright.sync_api import expect
from wagtail.models import Page, Revision

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import Author, BlogIndexPage, BlogPage, Topic

from ..factories import draft_post, make_image

PASSWORD = "correct horse battery staple"  # noqa: S105 (a throwaway test account)
HERO_TITLE = "Two GPU boards side by side"


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
        "image": make_image(HERO_TITLE, size=(1200, 675)),
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


# What the editor's own scripts announce, recorded on every page a signed-in user opens, so a
# test waits for a state instead of a fixed time:
# - the form as Wagtail's unsaved-changes controller last noted it (w-unsaved:watch-edits: on
#   opening, 2 s after it connects, and again after each successful autosave), in that
#   controller's own form (its formData getter, in wagtail/admin/static/wagtailadmin/js/core.js);
# - every submit of a form (whether a handler held it: defaultPrevented);
# - every answer to the "anyone else editing?" ping that reached the page.
EDITOR_SIGNALS = """
window.editorSignals = {noted: undefined, submits: [], pingAnswers: 0};
window.formState = (form) => {
  const data = new FormData(form);
  ["csrfmiddlewaretoken", "loaded_revision_id", "loaded_revision_created_at", "next"]
    .forEach((name) => data.delete(name));
  for (const name of [...data.keys()]) {
    if (name.startsWith("comments-")) data.delete(name);
    else if (data.get(name) instanceof File) {
      const described = data.getAll(name)
        .flatMap((file) => [["name", file.name], ["size", `${file.size}`], ["type", file.type]]);
      data.set(name, new URLSearchParams(described).toString());
    }
  }
  return new URLSearchParams(data).toString();
};
document.addEventListener("w-unsaved:watch-edits", (event) => {
  window.editorSignals.noted = event.detail.initialFormData;
}, true);
window.addEventListener("submit", (event) => window.editorSignals.submits.push(event), true);
document.addEventListener("w-swap:success", (event) => {
  if (event.target.closest && event.target.closest(".w-editing-sessions, #w-editing-sessions")) {
    window.editorSignals.pingAnswers += 1;
  }
}, true);
"""

# Every edit noted by Wagtail is saved, and no autosave is on its way: the form as it stands is
# the form as last noted (on opening, or after the last successful autosave). A form Wagtail
# opened as already changed (force) is never noted; there the autosave indicator tells.
ALL_AUTOSAVED = """() => {
  const form = document.querySelector("form[data-edit-form]");
  const indicator = document.getElementById("w-autosave-indicator");
  const state = indicator && indicator.getAttribute("data-w-autosave-state-value");
  if (!form || state === "saving") return false;
  const noted = window.editorSignals.noted;
  if (noted === undefined) return form.getAttribute("data-w-unsaved-has-edits-value") !== "true";
  return window.formState(form) === noted || state === "paused";
}"""


def sign_in(context, server, user):
    page = context.new_page()
    page.add_init_script(EDITOR_SIGNALS)
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


def wait_until_the_editor_notes_the_form(page):
    """Wagtail's unsaved-changes controller notes the form as it opened 2 s after it connects
    (initialDelayValue in its core.js): text typed before that is part of the form as opened,
    not a change, and autosave never starts. A form Wagtail re-opens as already changed (after
    a refused save: force) is never noted, and every keystroke there is a change already."""
    page.wait_for_function(
        """() => window.editorSignals.noted !== undefined || document.querySelector(
          "form[data-edit-form][data-w-unsaved-force-value='true']") !== null"""
    )


def type_after_the_editor_settles(page, selector, text):
    wait_until_the_editor_notes_the_form(page)
    page.locator(selector).press_sequentially(text, delay=20)


def let_autosave_finish(page):
    """Wait until the autosave that follows typing has been answered (WAGTAIL_AUTOSAVE_INTERVAL
    after typing stops). On a new post it creates the page: "Save draft" clicked while it runs
    posts the add form again and finds the post's address already taken by the page it just
    created."""
    page.wait_for_function(ALL_AUTOSAVED)


def save_draft(page):
    let_autosave_finish(page)
    page.locator("footer").get_by_role("button", name="Save draft").click()
    go_ahead_if_asked(
        page, "Save draft", re.compile(r"saved as a draft|Draft of .* saved|No changes to save")
    )
    page.wait_for_url(re.compile(r"/admin/pages/\d+/edit/"))


def open_action_menu(page):
    page.locator("footer [data-w-dropdown-target='toggle']").click()


def open_header_menu(page):
    """The ⋯ menu at the top of the post editor (Share draft, Feature this post, …)."""
    page.locator("header [data-w-dropdown-target='toggle']").first.click()


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
    """A draft with everything a post needs, written directly (not through the editor)."""
    return draft_post(
        staff["blog"],
        title,
        authors=[staff["author"]],
        topics=[Topic.objects.order_by("pk").first()],
        image=staff["image"],
    )


def run_scheduler_once():
    """One pass of the scheduler `make run` starts; returns what it prints."""
    out = io.StringIO()
    call_command("run_scheduler", "--once", stdout=out)
    return out.getvalue()


def numbered_screenshots(folder):
    """shoot(page, name) saves the page as folder/NN-name.png, numbered in the order of the walk
    (the folder is emptied first)."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    taken = []

    def shoot(page, name, full_page=False):
        taken.append(name)
        # Finished animations, so a message that is still sliding in is shown in full.
        path = folder / f"{len(taken):02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")

    return shoot


def take_heroes_from_half_the_posts():
    """As an import from a blog without featured pictures leaves them: the featured post and
    every other post in the listing lose their hero. Returns what put_heroes_back needs."""
    posts = list(BlogPage.objects.live().order_by("-first_published_at", "pk"))
    chosen = [post for number, post in enumerate(posts) if post.featured or number % 2 == 0]
    taken = {post.pk: (post.hero_image_id, post.hero_alt) for post in chosen}
    for post in chosen:
        post.hero_image, post.hero_alt = None, ""
        post.save(update_fields=["hero_image", "hero_alt"])  # retires the cached pages
    return taken


def put_heroes_back(taken):
    for post in BlogPage.objects.filter(pk__in=taken):
        post.hero_image_id, post.hero_alt = taken[post.pk]
        post.save(update_fields=["hero_image", "hero_alt"])


# Everything on the page that is laid out wrong for its width, in words.
# - The page scrolls sideways (Wagtail's frame, <main>, hides what is wider instead: that shows
#   as controls outside it, below).
# - A control whose label or value is wider than its box, or a button whose label wraps onto
#   a second line and out of Wagtail's one-line button.
# - A control outside the box that holds it: the screen, a frame that hides what sticks out, a
#   box that scrolls (anything past the end of its scrolling), or, for a control in the flow of
#   a table cell, the cell ("Reschedule" over the next day).
# - A placeholder wider or taller than its box ("Column headi…", a cell's "Write something or
#   type '/' to…" running below the box).
# Controls hidden from everyone (display: none, visibility, inert, clipped to nothing as Wagtail
# does for screen-reader-only text) are skipped.
LAID_OUT_WRONG = """() => {
  const hidden = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden" || e.inert) return true;
      if (style.clipPath !== "none") return true;
      if (style.position === "absolute" && style.clip !== "auto") return true;
    }
    return false;
  };
  const name = (element) => {
    const words = element.innerText || element.value || element.placeholder
      || element.getAttribute("aria-label") || element.className || "";
    return `${element.tagName.toLowerCase()} "${words.trim().replace(/\\s+/g, " ").slice(0, 50)}"`;
  };
  const transparent = (element, upTo) => {
    for (let e = element; e && e !== upTo.parentElement; e = e.parentElement) {
      if (getComputedStyle(e).opacity === "0") return true;
    }
    return false;
  };
  const textLines = (element) => {
    const tops = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      if (!node.textContent.trim() || hidden(node.parentElement)) continue;
      // Text faded out until asked for (the collapsed minimap's labels) is not read as a line.
      if (transparent(node.parentElement, element)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width && !tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) {
          tops.push(rect.top);
        }
      }
    }
    return tops.length;
  };
  const round = Math.round;
  const problems = [];
  for (const frame of [document.scrollingElement, document.body]) {
    if (frame.scrollWidth > innerWidth) {
      problems.push(`the page is ${frame.scrollWidth}px wide on a ${innerWidth}px screen`);
    }
  }
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, [role=button]";
  for (const control of document.querySelectorAll(controls)) {
    const place = control.getBoundingClientRect();
    if (place.width < 2 || place.height < 2 || hidden(control)) continue;
    const style = getComputedStyle(control);
    const what = name(control);
    if (style.display !== "inline") {
      if (control.scrollWidth > control.clientWidth + 1) {
        problems.push(`${what}: ${control.scrollWidth}px of text in ${control.clientWidth}px`);
      }
      const field = ["TEXTAREA", "INPUT", "SELECT"].includes(control.tagName);
      if (control.scrollHeight > control.clientHeight + 1 && (field || textLines(control) > 1)) {
        problems.push(`${what}: ${control.scrollHeight}px of text in ${control.clientHeight}px high`);
      }
    }
    if (control.classList.contains("button") && textLines(control) > 1) {
      problems.push(`${what}: the button's label wraps onto ${textLines(control)} lines`);
    }
    if (control.placeholder && !control.value) {
      const placeholder = getComputedStyle(control, "::placeholder");
      const context = document.createElement("canvas").getContext("2d");
      context.font = placeholder.font;
      const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const needed = context.measureText(control.placeholder).width;
      if (needed > room + 1) problems.push(`${what}: placeholder needs ${round(needed)}px, has ${round(room)}px`);
    }
    let box = null;
    for (let e = control.parentElement; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== "visible") { box = e; break; }
    }
    let left = 0, right = innerWidth, holder = "the screen";
    if (box) {
      const edges = box.getBoundingClientRect();
      const overflow = getComputedStyle(box).overflowX;
      holder = `its ${overflow} box ${name(box)}`;
      if (["auto", "scroll"].includes(overflow)) {
        left = edges.left + box.clientLeft - box.scrollLeft;
        right = left + box.scrollWidth;
      } else {
        left = edges.left;
        right = edges.right;
      }
    }
    if (place.left < left - 1 || place.right > right + 1) {
      problems.push(`${what}: at ${round(place.left)}–${round(place.right)}px, outside ${holder}`
        + ` (${round(left)}–${round(right)}px)`);
    }
    const cell = control.parentElement.closest("td, th");
    if (cell && !["absolute", "fixed"].includes(style.position)) {
      const edges = cell.getBoundingClientRect();
      if (place.left < edges.left - 1 || place.right > edges.right + 1) {
        problems.push(`${what}: at ${round(place.left)}–${round(place.right)}px, outside its`
          + ` cell (${round(edges.left)}–${round(edges.right)}px)`);
      }
    }
  }
  for (const line of document.querySelectorAll(".Draftail-block--empty")) {
    if (hidden(line)) continue;
    const placeholder = getComputedStyle(line, "::before");
    if (placeholder.content === "none" || placeholder.content === "normal") continue;
    const editor = line.closest(".Draftail-Editor").getBoundingClientRect();
    const top = line.getBoundingClientRect().top;
    if (top + parseFloat(placeholder.height) > editor.bottom + 1) {
      problems.push(`the placeholder ${placeholder.content.slice(0, 40)} runs below its box`);
    }
  }
  return problems;
}"""

# Words split across two lines in the Posts list's cells and the calendar's entries: narrow
# columns read "Engine ering", and a phone's calendar one letter a line. Only a word longer
# than a line may break. Text kept for screen readers only (a 1px box, clipped, as the
# dashboard's "Title" column heading on a phone) is no line anyone reads.
BROKEN_WORDS = """() => {
  const unseen = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return true;
      if (style.clipPath !== "none") return true;
      if (style.position === "absolute" && style.clip !== "auto") return true;
    }
    return false;
  };
  return [...document.querySelectorAll(
    "table.listing th, table.listing td, .editorial-calendar__entry")]
  .flatMap((holder) => {
    const broken = [];
    const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      if (unseen(node.parentElement)) continue;
      for (const match of node.textContent.matchAll(/[^\\s-]{1,20}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = [...range.getClientRects()].filter((rect) => rect.width).length;
        if (lines > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}"""


def layout_problems(page):
    """What on the screen is laid out wrong for its width (LAID_OUT_WRONG, BROKEN_WORDS), in
    words, as the reader pages' tests check for readers (test_reader_layout.py)."""
    return page.evaluate(LAID_OUT_WRONG) + [
        f"word broken across lines: {word}" for word in page.evaluate(BROKEN_WORDS)
    ]


def open_sidebar(page):
    """Wagtail's sidebar as the user at this width reaches it: on a phone it is folded away
    behind its menu button, which is pressed first."""
    menu = page.locator("button.sidebar-nav-toggle--mobile")
    if menu.is_visible() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    return page.locator("#wagtail-sidebar")


def open_from_sidebar(page, name):
    open_sidebar(page).get_by_role("link", name=name, exact=True).click()
