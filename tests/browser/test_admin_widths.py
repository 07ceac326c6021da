"""The admin at a laptop's and a phone's width (issue #33, point 8), as an Editor and as a
Publisher: the dashboard, the Posts list, the post editor and the Calendar. Nothing scrolls the
page sideways, and no button, link or field is cut, spills out of its box or lands where it
cannot be reached, as the reader pages' tests check for readers (test_reader_layout.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from .conftest import SCREENSHOTS
from .editing import committed, sign_in, write_draft

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
# 48 characters: the title box at 1280 px showed about 45 of them.
LONG_TITLE = "How we cut checkpoint restore time by two thirds"
SCHEDULED_TITLE = "What a checkpoint costs at ten thousand GPUs"

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
# than a line may break.
BROKEN_WORDS = """() => [...document.querySelectorAll(
    "table.listing th, table.listing td, .editorial-calendar__entry")]
  .flatMap((holder) => {
    const broken = [];
    const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      for (const match of node.textContent.matchAll(/[^\\s-]{1,20}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = [...range.getClientRects()].filter((rect) => rect.width).length;
        if (lines > 1) broken.push(match[0]);
      }
    }
    return broken;
  })"""

# How many lines each title in the Posts list takes.
TITLE_LINES = """() => [...document.querySelectorAll("table.listing .title-wrapper a")].map((title) => {
  const tops = new Set([...title.getClientRects()].map((rect) => Math.round(rect.top)));
  return [title.textContent.trim(), tops.size];
})"""


def posts_to_show(staff):
    """A draft with a long title and a table whose cells show their placeholders, and a post
    scheduled for the coming days (its calendar entry has a Reschedule button)."""
    empty_column = {"type": "rich_text", "heading": ""}
    draft = write_draft(staff, LONG_TITLE)
    draft.body = [
        {"type": "paragraph", "value": f"<p>Body of {LONG_TITLE}.</p>"},
        {
            "type": "table",
            "value": {
                "caption": "",
                "table": {"columns": [empty_column] * 3, "rows": [{"values": ["", "", ""]}]},
            },
        },
    ]
    draft.save_revision()
    go_live = (timezone.localtime() + timedelta(days=2)).replace(hour=9, minute=0, second=0)
    scheduled = write_draft(staff, SCHEDULED_TITLE)
    scheduled.go_live_at = go_live
    scheduled.save_revision().publish()
    return draft.pk, go_live


def shoot(page, name):
    """The whole page: Wagtail scrolls <main>, not the document, so a full-page screenshot
    would stop at the screen's bottom. The window is made as tall as the page for the shot."""
    size = page.viewport_size
    height = page.evaluate(
        "Math.max(document.scrollingElement.scrollHeight,"
        " document.querySelector('main') ? document.querySelector('main').scrollHeight : 0)"
    )
    folder = SCREENSHOTS / "admin-widths"
    folder.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    page.screenshot(path=str(folder / f"{name}.png"), animations="disabled")
    page.set_viewport_size(size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("role", ["editor", "publisher"])
def test_the_admin_fits_a_laptop_and_a_phone(staff, contexts, role, size):
    width, height = SIZES[size]
    draft_pk, go_live = committed(posts_to_show, staff)
    server = staff["server"]
    page = sign_in(contexts(), server, staff[role])
    page.set_viewport_size({"width": width, "height": height})
    screens = {
        "dashboard": "/admin/",
        "posts": "/admin/blog/blogpage/",
        "editor": f"/admin/pages/{draft_pk}/edit/",
        "calendar": f"/admin/calendar/?month={go_live:%Y-%m}",
    }
    found = {}
    for screen, path in screens.items():
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        shoot(page, f"{role}-{screen}-{width}")
        found[screen] = page.evaluate(LAID_OUT_WRONG) + [
            f"word broken across lines: {word}" for word in page.evaluate(BROKEN_WORDS)
        ]
        if screen == "posts":
            # The list really shows what spilled: a long title and the longest actions.
            labels = page.locator("table.listing .actions .button").all_inner_texts()
            assert "Share draft" in labels
            assert ("Stop featuring" in labels) == (role == "publisher")
            lines = dict(page.evaluate(TITLE_LINES))
            assert LONG_TITLE in lines
            if size == "phone":
                # The filters, one full-width button a line, pushed the list a screen down.
                first = page.locator("table.listing .title-wrapper a").first.bounding_box()
                if first["y"] + first["height"] > height:
                    found[screen].append(f"the first post's title is at {first['y']:.0f}px")
            if size == "laptop":
                # Seven columns shared evenly squeezed titles to six lines.
                found[screen] += [f"title in {n} lines: {t}" for t, n in lines.items() if n > 3]
        if screen == "editor":
            assert page.locator("#id_title").input_value() == LONG_TITLE
            assert page.locator(".typed-table-block").is_visible()
        if screen == "calendar":
            entry = page.locator(".editorial-calendar__entry", has_text=SCHEDULED_TITLE)
            assert entry.count() == 1
            reschedule = entry.get_by_role("button", name="Reschedule")
            assert reschedule.count() == (1 if role == "publisher" else 0)
    problems = [
        f"{screen} at {width}px: {problem}" for screen in found for problem in found[screen]
    ]
    assert problems == [], "\n".join(problems)
