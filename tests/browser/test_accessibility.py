"""A reader using a screen reader or only a keyboard can use every reader page."""

import pytest

from .conftest import AXE_JS, READER_PAGES, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def serious_axe_violations(page):
    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `npm ci --prefix tests/browser` (.ci/services.sh)")
    page.add_script_tag(path=str(AXE_JS))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results["violations"]
        if violation["impact"] in {"serious", "critical"}
    ]


@pytest.mark.parametrize(
    ("width", "scheme"),
    [("desktop", "light"), ("tablet", "light"), ("phone", "light"), ("phone", "dark")],
)
def test_axe_finds_no_serious_problem_on_any_reader_page(open_page, width, scheme):
    problems = {}
    for name, path in READER_PAGES.items():
        page = open_page(path, width, scheme)
        found = serious_axe_violations(page)
        if found:
            screenshot(page, f"axe-{name}-{width}-{scheme}")
            problems[name] = found
    assert problems == {}


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_axe_finds_no_serious_problem_where_posts_have_no_picture(
    open_page, half_without_heroes, width
):
    listing = open_page("/blog/", width)
    bare = listing.locator(".card:has(.blank-sheet) .card__title a").first.get_attribute("href")
    problems = {}
    for name, path in {"blog": "/blog/", "topic": READER_PAGES["topic"], "bare": bare}.items():
        page = listing if name == "blog" else open_page(path, width)
        found = serious_axe_violations(page)
        if found:
            screenshot(page, f"axe-no-hero-{name}-{width}")
            problems[name] = found
    assert problems == {}


FOCUS_STATE = """() => {
    const element = document.activeElement;
    const style = getComputedStyle(element);
    return {
        tag: element.tagName,
        text: (element.textContent || element.getAttribute('aria-label') || element.name || '')
            .trim().slice(0, 60),
        skip: element.classList.contains('skip-link'),
        outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        inMain: element.closest('main') !== null,
        stop: element.dataset.tabStop ?? null,
    };
}"""


def test_the_skip_link_comes_first_and_moves_focus_to_the_content(open_page):
    page = open_page("/blog/")
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUS_STATE)
    assert first["skip"] and first["text"] == "Skip to content"
    assert first["outline"], "the skip link shows no focus outline"
    assert page.locator(".skip-link").is_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS_STATE)["inMain"], "Tab after the skip link left the content"


@pytest.mark.parametrize("name", READER_PAGES)
def test_tab_reaches_every_link_and_control_with_a_visible_focus(open_page, name):
    page = open_page(READER_PAGES[name], "tablet")
    # Number each link and control in document order, so a Tab can be matched to what it reached.
    focusable = page.evaluate(
        """() => [...document.querySelectorAll('a[href], button, input, select, textarea,'
            + ' [tabindex]:not([tabindex="-1"])')]
            .filter((e) => e.tabIndex >= 0 && !e.closest('[aria-hidden="true"]')
                && e.getClientRects().length > 0)
            .map((e, index) => { e.dataset.tabStop = index; }).length"""
    )
    reached, unfocused = [], []
    for _ in range(2 * focusable + 5):
        page.keyboard.press("Tab")
        state = page.evaluate(FOCUS_STATE)
        if state["tag"] != "BODY" and not state["outline"]:
            unfocused.append(state)
        if state["stop"] is None:
            # The page itself, between the last stop and the first; a busy CI machine has also
            # once dropped focus to it mid-page, and the next Tab carried on from there.
            continue
        if state["stop"] in reached:
            break  # back at the start: a full round
        reached.append(state["stop"])
    missed = sorted(set(map(str, range(focusable))) - set(reached), key=int)
    assert missed == [], f"Tab reached {len(reached)} of {focusable}; never reached stops {missed}"
    assert reached == sorted(reached, key=int), "Tab order differs from the reading order"
    assert unfocused == [], "focus not visible on these"
