"""What a reader sees in a real browser, from a phone to a desktop."""

import pytest

from .conftest import READER_PAGES, WIDTHS, load_every_image, screenshot

# django_db makes pytest-django create the test database; the demo itself is committed once
# for the whole package by the demo_server fixture.
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

POST = READER_PAGES["post"]


def box(locator):
    return locator.bounding_box()


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_the_screen_and_shows_its_pictures(open_page, width):
    """No sideways scrolling, every picture loaded and described; a screenshot of each page."""
    for name, path in READER_PAGES.items():
        page = open_page(path, width)
        load_every_image(page)
        screenshot(page, f"{name}-{WIDTHS[width]}")
        overflow = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {WIDTHS[width]}px"
        images = page.evaluate(
            "[...document.images].map((img) => ({src: img.currentSrc, width: img.naturalWidth,"
            " alt: img.getAttribute('alt')}))"
        )
        assert [image["src"] for image in images if not image["width"]] == [], name
        assert [image["src"] for image in images if not (image["alt"] or "").strip()] == [], name
        if name in {"blog", "post"}:
            assert images, f"{name} shows no pictures"
        if name == "404":
            assert (
                page.get_by_role("heading", level=1).inner_text() == "We couldn't find that page."
            )


def test_the_stylesheet_loads_and_follows_the_system_colour_scheme(open_page):
    light = open_page("/blog/", scheme="light")
    dark = open_page("/blog/", scheme="dark")
    background = "getComputedStyle(document.body).backgroundColor"
    assert light.evaluate(background) == "rgb(246, 248, 252)"
    assert dark.evaluate(background) == "rgb(7, 16, 31)"
    hero = "getComputedStyle(document.querySelector('.hero')).backgroundColor"
    assert light.evaluate(hero) == "rgb(18, 63, 140)"  # blueprint blue
    screenshot(dark, "blog-1280-dark")
    screenshot(open_page(POST, "phone", scheme="dark"), "post-375-dark")


def test_the_featured_post_leads_a_grid_of_one_two_then_three_columns(open_page):
    for width, columns in [("phone", 1), ("tablet", 2), ("desktop", 3)]:
        page = open_page("/blog/", width)
        featured = box(page.locator(".featured"))
        cards = [box(card) for card in page.locator(".card-grid .card").all()]
        assert len(cards) == 12
        assert featured["y"] + featured["height"] <= cards[0]["y"], "featured is not above"
        first_row = [card for card in cards if abs(card["y"] - cards[0]["y"]) < 1]
        assert len(first_row) == columns, f"{len(first_row)} columns at {WIDTHS[width]}px"
        lefts = sorted(card["x"] for card in first_row)
        assert all(a < b for a, b in zip(lefts, lefts[1:], strict=False))
        # Pictures keep the drawings' 16:9 shape in every slot.
        for selector in [".featured__image", ".card__image"]:
            image = box(page.locator(selector).first)
            assert image["width"] / image["height"] == pytest.approx(16 / 9, rel=0.02)


def overlaps(a, b):
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_header_links_and_search_box_stay_on_a_phone_screen(open_page):
    """On every reader page the brand, Login, Schedule demo and the search box are on screen at
    the top, side by side without overlapping, and the search box takes a query to the results."""
    for name, path in READER_PAGES.items():
        page = open_page(path, "phone")
        header = page.locator(".site-header")
        # The suggestion script turns the search box into a combobox, so find it by its label.
        controls = {
            "brand": header.locator(".brand__name"),
            "Login": header.get_by_role("link", name="Login"),
            "Schedule demo": header.get_by_role("link", name="Schedule demo"),
            "search box": header.get_by_label("Search posts", exact=True),
        }
        places = {}
        for control, locator in controls.items():
            assert locator.is_visible(), f"{control} is hidden on {name}"
            place = places[control] = box(locator)
            assert place["x"] >= 0 and place["x"] + place["width"] <= WIDTHS["phone"], (
                f"{control} runs off the screen on {name}"
            )
            assert place["y"] + place["height"] <= 160, f"{control} is not at the top of {name}"
        assert places["search box"]["width"] >= WIDTHS["phone"] / 2, "search box too narrow"
        clashes = [
            (a, b) for a in places for b in places if a < b and overlaps(places[a], places[b])
        ]
        assert clashes == [], f"overlapping in the header of {name}"
    controls["search box"].fill("checkpoint")
    controls["search box"].press("Enter")
    page.wait_for_url("**/search/?q=checkpoint")
    assert page.locator(".search-result").count() > 0


def test_topic_chips_scroll_sideways_on_a_phone_and_wrap_on_a_desktop(open_page):
    phone = open_page("/blog/", "phone")
    chips = phone.locator(".topic-filter__list")
    assert phone.evaluate("(list) => getComputedStyle(list).overflowX", chips.element_handle()) in {
        "auto",
        "scroll",
    }
    tops = {round(box(chip)["y"]) for chip in phone.locator(".topic-filter a.chip").all()}
    assert len(tops) == 1, "chips should stay on one row on a phone"
    desktop = open_page("/blog/")
    last = desktop.locator(".topic-filter a.chip").last
    assert box(last)["x"] + box(last)["width"] <= WIDTHS["desktop"]


def test_a_post_reads_at_a_comfortable_measure_with_a_hero_above_the_fold(open_page):
    page = open_page(POST)
    hero = page.locator(".post__hero img")
    assert hero.get_attribute("fetchpriority") == "high"
    assert hero.evaluate("(img) => img.currentSrc").endswith(".avif")
    assert hero.get_attribute("loading") != "lazy"
    assert box(hero)["y"] < 900
    characters_per_line = page.evaluate(
        """() => {
            const paragraph = [...document.querySelectorAll('.post__body > p')]
                .find((p) => p.textContent.length > 300);
            const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            const lines = new Map();
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                for (let i = 0; i < text.length; i++) {
                    range.setStart(text, i); range.setEnd(text, i + 1);
                    const top = Math.round(range.getBoundingClientRect().top);
                    lines.set(top, (lines.get(top) || 0) + 1);
                }
            }
            const counts = [...lines.values()];
            return counts.slice(0, -1);  // the last line is short by nature
        }"""
    )
    assert characters_per_line
    average = sum(characters_per_line) / len(characters_per_line)
    assert 60 <= average <= 80, characters_per_line
    # Code and tables scroll inside themselves on a phone instead of widening the page.
    phone = open_page(POST, "phone")
    for selector in [".post__body pre", ".post__body .table-scroll"]:
        element = phone.locator(selector).first
        assert element.evaluate("(e) => getComputedStyle(e).overflowX") == "auto"
        assert box(element)["width"] <= WIDTHS["phone"]


def test_cards_below_the_fold_load_lazily_and_the_featured_picture_does_not(open_page):
    page = open_page("/blog/")
    featured = page.locator(".featured__image")
    assert featured.get_attribute("fetchpriority") == "high"
    assert featured.get_attribute("loading") is None
    # AVIF only above the fold, where its smaller bytes speed the first paint; the lazy cards
    # stay WebP, ten times cheaper to encode on a post's first view.
    sources = page.locator(".featured picture source").evaluate_all(
        "(sources) => sources.map((s) => s.type)"
    )
    assert sources == ["image/avif", "image/webp"]
    assert featured.evaluate("(img) => img.currentSrc").endswith(".avif")
    assert featured.evaluate("(img) => img.src").endswith(".jpg")
    card_sources = page.locator(".card picture source").evaluate_all(
        "(sources) => [...new Set(sources.map((s) => s.type))]"
    )
    assert card_sources == ["image/webp"]
    assert {img.get_attribute("loading") for img in page.locator(".card__image").all()} == {"lazy"}
    srcset = page.locator(".card__image").first.get_attribute("srcset")
    assert " 640w" in srcset and " 960w" in srcset


# Links, buttons and fields whose box leaves the screen; a strip that scrolls sideways on
# purpose (the topic chips on a phone) holds its controls inside itself.
CONTROLS_OFF_SCREEN = """() => [...document.querySelectorAll('a[href], button, input, select')]
    .filter((control) => {
        const place = control.getBoundingClientRect();
        if (!place.width || control.classList.contains('skip-link')) return false;
        for (let box = control.parentElement; box; box = box.parentElement) {
            if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return false;
        }
        return place.left < -1 || place.right > innerWidth + 1;
    })
    .map((control) => control.outerHTML.slice(0, 80))"""

# Each card's picture slot, filled by a picture or by the blank sheet of a post without one.
CARD_MEDIA = """() => [...document.querySelectorAll('.card')].map((card) => {
    const place = card.querySelector('.card__media').getBoundingClientRect();
    return {top: Math.round(card.getBoundingClientRect().top), width: place.width,
            height: place.height, blank: card.querySelector('.blank-sheet') !== null};
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_posts_without_a_picture_keep_the_grid_even_and_the_pages_on_screen(
    open_page, half_without_heroes, width
):
    def open_at(path):
        page = open_page(path, "phone" if width < 768 else "desktop")
        page.set_viewport_size({"width": width, "height": 900})
        load_every_image(page)
        return page

    listing = open_at("/blog/")
    assert listing.locator(".featured .blank-sheet").count() == 1
    bare = listing.locator(".card:has(.blank-sheet) .card__title a").first.get_attribute("href")
    pictured = listing.locator(".card:has(img) .card__title a").first.get_attribute("href")
    pages = {"blog": "/blog/", "topic": READER_PAGES["topic"], "bare": bare, "post": pictured}
    for name, path in pages.items():
        page = listing if name == "blog" else open_at(path)
        screenshot(page, f"no-hero-{name}-{width}")
        overflow = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {width}px"
        assert page.evaluate(CONTROLS_OFF_SCREEN) == [], f"{name} at {width}px"
        broken = page.evaluate(
            "[...document.images].filter((img) => !img.naturalWidth || !img.getAttribute('src')"
            " || !(img.getAttribute('alt') || '').trim()).map((img) => img.outerHTML)"
        )
        assert broken == [], name
        media = page.evaluate(CARD_MEDIA)
        for card in media:
            assert card["width"] / card["height"] == pytest.approx(16 / 9, rel=0.02), name
        rows = {}
        for card in media:
            rows.setdefault(card["top"], []).append(card["height"])
        assert all(max(row) - min(row) <= 1 for row in rows.values()), f"{name}: {rows}"
    # The listing really mixes both kinds, side by side where there are columns.
    media = listing.evaluate(CARD_MEDIA)
    assert {card["blank"] for card in media} == {True, False}
    if width >= 1280:
        tops = {card["top"] for card in media}
        assert any(len({c["blank"] for c in media if c["top"] == top}) == 2 for top in tops)
    bare_page = open_at(bare)
    assert bare_page.locator(".post__hero").count() == 0
    title = box(bare_page.locator(".post__title"))
    assert title["y"] + title["height"] < 900, "the title of a post without a picture is on screen"


@pytest.mark.parametrize("name", ["blog", "topic"])
def test_a_reader_finds_the_link_to_the_feed_on_the_blog_and_its_topics(open_page, name):
    path = READER_PAGES[name]
    page = open_page(path, "phone")
    link = page.get_by_role("link", name="Subscribe by RSS")
    assert link.is_visible(), f"no feed link on {name}"
    place = box(link)
    assert place["x"] >= 0 and place["x"] + place["width"] <= WIDTHS["phone"]
    assert place["height"] >= 24, "the feed link is too small a target for a thumb"
    feed = page.request.get(link.evaluate("(a) => a.href"))
    assert feed.url.endswith(f"{path}feed/")
    assert feed.status == 200
    assert feed.headers["content-type"].startswith("application/rss+xml")
