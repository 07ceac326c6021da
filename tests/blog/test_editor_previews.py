"""The preview panel's modes, and the blog's own content checks beside the accessibility ones."""

import json

import pytest
from bs4 import BeautifulSoup
from wagtail.test.utils.form_data import inline_formset, nested_form_data, rich_text, streamfield

from blog.editorial.content_checks import BODY_ALT_RULE, CARD_ALT_RULE, SUMMARY_RULE
from blog.models import BlogPage
from tests.factories import draft_post, make_image, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(blog, author, topic):
    return publish_post(
        blog,
        "Cooling the training cluster",
        authors=[author],
        topics=[topic],
        summary="How we stopped thermal throttling.",
        hero_alt="Blueprint of a rack with airflow arrows",
    )


def preview(client, post, mode=None, **changes):
    """Send the editor's current form to the preview endpoint, then open the preview."""
    url = f"/admin/pages/{post.pk}/edit/preview/"
    data = nested_form_data(
        {
            "title": changes.get("title", post.title),
            "slug": post.slug,
            "summary": changes.get("summary", post.summary),
            "hero_image": post.hero_image_id or "",
            "hero_alt": changes.get("hero_alt", post.hero_alt),
            "author_links": saved_rows(post.author_links.all(), "author"),
            "topic_links": saved_rows(post.topic_links.all(), "topic"),
            "body": streamfield(
                changes.get("body", [("paragraph", rich_text("<p>Unsaved words.</p>"))])
            ),
            "comments": inline_formset([]),
            "seo_title": changes.get("seo_title", ""),
            "search_description": changes.get("search_description", ""),
        }
    )
    state = client.post(url, data).json()
    assert state["is_valid"], state
    return client.get(url, {"mode": mode} if mode is not None else {})


def saved_rows(links, field):
    """A saved post's rows as its edit form sends them back: each with its id."""
    rows = [{"id": link.pk, field: getattr(link, f"{field}_id")} for link in links]
    return inline_formset(rows, initial=len(rows), min=1)


def soup(response):
    return BeautifulSoup(response.content, "html.parser")


def test_the_post_offers_four_preview_modes(post):
    assert [label for _, label in post.preview_modes] == [
        "Full page",
        "Card",
        "Featured slot",
        "Social share card",
    ]


def test_full_page_preview_shows_unsaved_changes(admin_client, post):
    response = preview(admin_client, post, title="A better headline")
    assert response.status_code == 200
    page = soup(response)
    assert page.select_one("h1.post__title").get_text() == "A better headline"
    assert "Unsaved words." in page.select_one(".post__body").get_text()


def checked_region(page):
    """What Wagtail's checks count words in: the first `main, [role="main"]` (its core.js)."""
    return page.select_one('main, [role="main"]')


def test_the_checks_count_the_words_of_the_body_only(admin_client, post):
    """They said 167 words for a 64-word body: the title, byline and related cards counted."""
    body = " ".join(["word"] * 64)
    page = soup(preview(admin_client, post, body=[("paragraph", rich_text(f"<p>{body}</p>"))]))
    region = checked_region(page)
    assert len(region.get_text(" ").split()) == 64
    assert len(page.select('main, [role="main"]')) == 1
    assert page.select_one("#main").find(class_="post__title")  # the skip link still leads there


def test_readers_keep_the_whole_post_in_the_main_landmark(client, post):
    page = soup(client.get(post.url))
    assert checked_region(page).name == "main"
    assert checked_region(page).find("h1", class_="post__title")
    assert page.select('[role="main"]') == []


def test_card_preview_shows_the_card_as_listed_with_the_site_styles(admin_client, post):
    page = soup(preview(admin_client, post, "card", summary="A sharper summary."))
    card = page.select_one(".card-grid .card")
    assert card.select_one(".card__title").get_text(strip=True) == post.title
    assert card.select_one(".card__summary").get_text(strip=True) == "A sharper summary."
    assert card.select_one("img")["alt"] == "Blueprint of a rack with airflow arrows"
    assert page.select_one('link[rel="stylesheet"]')["href"].endswith("css/site.css")


def test_featured_slot_preview_shows_the_featured_card(admin_client, post):
    page = soup(preview(admin_client, post, "featured"))
    assert page.select_one(".featured__title").get_text(strip=True) == post.title
    assert page.select_one(".featured .badge").get_text() == "Featured"


def test_social_card_preview_shows_what_a_network_would(admin_client, post):
    page = soup(
        preview(
            admin_client,
            post,
            "social",
            seo_title="Cooler GPUs in 3 steps",
            search_description="What we changed in the racks.",
        )
    )
    card = page.select_one(".social-card")
    image = card.select_one("img")
    assert (image["width"], image["height"]) == ("1200", "630")
    assert card.select_one(".social-card__title").get_text() == "Cooler GPUs in 3 steps"
    assert card.select_one(".social-card__description").get_text() == (
        "What we changed in the racks."
    )
    assert card.select_one(".social-card__domain").get_text() == post.get_site().hostname.upper()


def test_an_unknown_preview_mode_falls_back_to_the_full_page(admin_client, post):
    response = preview(admin_client, post, "no-such-mode")
    assert response.status_code == 200
    assert soup(response).select_one("h1.post__title")


def test_a_new_post_can_be_previewed_before_its_first_save(admin_client, blog, author, topic):
    url = f"/admin/pages/add/blog/blogpage/{blog.pk}/preview/"
    data = nested_form_data(
        {
            "title": "Brand new",
            "slug": "brand-new",
            "summary": "Not saved yet.",
            "hero_alt": "",
            "author_links": inline_formset([{"author": author.pk}]),
            "topic_links": inline_formset([{"topic": topic.pk}]),
            "body": streamfield([]),
            "comments": inline_formset([]),
        }
    )
    assert admin_client.post(url, data).json()["is_valid"]
    for mode in ("", "card", "featured", "social"):
        response = admin_client.get(url, {"mode": mode})
        assert response.status_code == 200, mode
        assert "Brand new" in response.content.decode(), mode


@pytest.fixture
def draft(blog, author, topic):
    return draft_post(blog, "Notes on fan curves", authors=[author], topics=[topic])


def text(node):
    return node.get_text(" ", strip=True)


@pytest.mark.parametrize(("mode", "byline"), [("card", ".card .byline"), ("featured", ".byline")])
def test_a_draft_card_shows_its_authors_without_a_separator_for_the_missing_date(
    admin_client, draft, mode, byline
):
    assert text(soup(preview(admin_client, draft, mode)).select_one(byline)) == "Ada Lovelace"


@pytest.mark.parametrize("mode", ["card", "featured"])
def test_a_draft_card_with_no_author_yet_shows_no_empty_byline(admin_client, blog, mode):
    draft = draft_post(blog, "Notes nobody has signed")
    page = soup(preview(admin_client, draft, mode))
    assert page.select_one(".card__title, .featured__title")
    assert page.select_one(".byline") is None
    assert "·" not in text(page.select_one("main"))


def test_a_draft_full_page_preview_lists_only_what_it_has(admin_client, blog, draft):
    meta = soup(preview(admin_client, draft)).select_one(".post__meta")
    assert text(meta) == f"By Ada Lovelace · {draft.reading_minutes} min read"
    unsigned = draft_post(blog, "Notes nobody has signed")
    meta = soup(preview(admin_client, unsigned)).select_one(".post__meta")
    assert text(meta) == f"{unsigned.reading_minutes} min read"


def test_a_published_card_keeps_its_date_and_authors_apart(admin_client, post):
    byline = text(soup(preview(admin_client, post, "card")).select_one(".card .byline"))
    published = post.first_published_at
    assert byline == f"{published:%b} {published.day}, {published.year} · Ada Lovelace"


def axe_configuration(response):
    page = soup(response)
    template = page.select_one("template#wagtail-userbar-template")
    inner = BeautifulSoup(template.decode_contents(), "html.parser")
    return json.loads(inner.select_one("#checker-axe-configuration").get_text())


def test_the_content_checker_runs_the_blog_checks_on_a_post(admin_client, post):
    config = axe_configuration(admin_client.get(post.url))
    assert {CARD_ALT_RULE, SUMMARY_RULE} <= set(config["options"]["runOnly"])
    rules = {rule["id"]: rule for rule in config["spec"]["rules"]}
    assert rules[CARD_ALT_RULE]["selector"] == 'img[data-content-check="card-image"]'
    assert rules[SUMMARY_RULE]["selector"] == "[data-summary-limit]"
    assert "alt-text-quality" in rules, "Wagtail's own checks stay"
    checks = {check["id"]: check for check in config["spec"]["checks"]}
    # Function source would need eval, which the admin's CSP refuses: no check would run.
    assert checks[f"{SUMMARY_RULE}-check"]["evaluate"] == "attr-non-space-content-evaluate"
    assert not [c for c in checks.values() if str(c.get("evaluate", "")).startswith("function")]
    assert config["messages"][CARD_ALT_RULE]["error_name"] == "Card picture has no alt text"


def test_the_checks_panel_in_the_editor_runs_the_blog_checks(admin_client, post):
    url = f"/admin/pages/{post.pk}/edit/preview/"
    preview(admin_client, post)
    config = axe_configuration(admin_client.get(url, {"in_preview_panel": "true"}))
    assert CARD_ALT_RULE in config["options"]["runOnly"]


def test_the_pages_mark_what_the_checks_look_at(admin_client, post):
    for mode in ("", "card", "featured", "social"):
        page = soup(preview(admin_client, post, mode))
        image = page.select_one('img[data-content-check="card-image"]')
        assert image["alt"] == "Blueprint of a rack with airflow arrows", mode
        summary = page.select_one("[data-summary-limit]")
        assert summary["data-summary-limit"] == "300", mode
        assert summary.get_text(strip=True) == post.summary, mode
        assert summary["data-summary-fits"] == "yes", mode


def test_a_summary_over_its_limit_is_marked_for_the_checker(client, post):
    # Imported content can skip the form's validation; the checker still catches it.
    BlogPage.objects.filter(pk=post.pk).update(summary="word " * 70)
    summary = soup(client.get(post.url)).select_one("[data-summary-limit]")
    assert len(summary.get_text(strip=True)) > 300
    assert summary["data-summary-fits"] == ""


def test_the_checks_flag_a_body_picture_without_alt_text_unless_it_is_decorative(
    admin_client, post
):
    """Axe's own image rule accepts alt="", which only a decorative picture should have."""
    config = axe_configuration(admin_client.get(post.url))
    assert BODY_ALT_RULE in config["options"]["runOnly"]
    rules = {rule["id"]: rule for rule in config["spec"]["rules"]}
    assert rules[BODY_ALT_RULE]["selector"] == 'img[data-content-check="body-image"]'
    checks = {check["id"]: check for check in config["spec"]["checks"]}
    assert checks[f"{BODY_ALT_RULE}-check"]["options"] == {"attribute": "alt"}
    assert config["messages"][BODY_ALT_RULE]["error_name"] == "Picture in the post has no alt text"

    # A draft may leave the alt text for later; its preview is what the checks run on.
    undescribed = make_image("IMG_2041")
    ornament = make_image("Divider")
    body = [
        ("image", {"image": undescribed.pk, "alt_text": "", "caption": ""}),
        ("image", {"image": ornament.pk, "alt_text": "", "decorative": "on", "caption": ""}),
    ]
    pictures = soup(preview(admin_client, post, body=body)).select("figure.figure img")
    assert len(pictures) == 2
    flagged, decorative = pictures
    assert flagged["data-content-check"] == "body-image" and flagged["alt"] == ""
    assert not decorative.has_attr("data-content-check") and decorative["alt"] == ""
