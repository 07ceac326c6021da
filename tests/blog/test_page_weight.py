"""The reader pages stay light: a phone on a slow network paints them quickly."""

import gzip
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"
CSS_AND_JS_BUDGET = 40 * 1024  # compressed, for the whole site
INDEX_HTML_BUDGET = 60 * 1024


def test_all_the_sites_css_and_js_fit_the_budget_once_compressed():
    files = [*STATIC.rglob("*.css"), *STATIC.rglob("*.js")]
    assert files
    compressed = sum(len(gzip.compress(path.read_bytes(), 9)) for path in files)
    assert compressed <= CSS_AND_JS_BUDGET, f"{compressed} bytes"


def test_the_blog_index_html_fits_the_budget(client, demo_site):
    response = client.get("/blog/")
    assert response.status_code == 200
    assert len(response.content) <= INDEX_HTML_BUDGET, f"{len(response.content)} bytes"


def test_pictures_offer_webp_with_a_jpeg_fallback_in_two_card_sizes(client, demo_site):
    html = client.get("/blog/").content.decode()
    assert html.count('type="image/webp"') == 13  # the featured post and 12 cards
    assert ".format-jpeg.fill-640x360.jpg 640w" in html
    assert ".format-jpeg.fill-960x540.jpg 960w" in html
    assert ".format-webp.fill-1200x675.webp 1200w" in html  # the featured post
