"""The admin at a laptop's and a phone's width (issue #33, point 8), as an Editor and as a
Publisher: the dashboard, the Posts list, the post editor and the Calendar. Nothing scrolls the
page sideways, and no button, link or field is cut, spills out of its box or lands where it
cannot be reached, as the reader pages' tests check for readers (test_reader_layout.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from .conftest import SCREENSHOTS
from .editing import committed, layout_problems, sign_in, write_draft

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
# 48 characters: the title box at 1280 px showed about 45 of them.
LONG_TITLE = "How we cut checkpoint restore time by two thirds"
SCHEDULED_TITLE = "What a checkpoint costs at ten thousand GPUs"

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
        found[screen] = layout_problems(page)
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
