"""The header and footer every process caches ({% wagtailcache %} by the content generation,
blog/caching/chrome.py) still show what each reader's page should: their query, their blog,
the settings as an editor last saved them, and an editor's preview."""

import pytest
from bs4 import BeautifulSoup
from wagtail.models import Site

from home.models import SiteSettings
from tests.blog.test_fragments import preview_blog
from tests.factories import make_blog_index, make_topic, publish_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def content_cache_on(content_cache):
    """As in production: what one request remembers, the next one reads."""


def soup_of(response):
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def header_query(response):
    return soup_of(response).select_one("#site-search-q")["value"]


def title_line(response):
    return soup_of(response).select_one(".brand__line").get_text(strip=True)


def test_the_header_search_box_holds_each_readers_own_query(client, blog, author, topic):
    publish_post(blog, "Checkpointing", authors=[author], topics=[topic])
    assert header_query(client.get("/search/", {"q": "checkpoint"})) == "checkpoint"
    assert header_query(client.get("/search/", {"q": "gpu"})) == "gpu"
    assert header_query(client.get("/blog/")) == ""


def test_each_blog_shows_its_own_title_line_in_the_header(client, home, blog, author, topic):
    other = make_blog_index(home, title="Notes", slug="notes", title_line="notes · short ones")
    publish_post(blog, "In the blog", authors=[author], topics=[topic])
    publish_post(other, "In the notes", authors=[author], topics=[topic])
    for _ in range(2):
        assert title_line(client.get("/blog/")) == "blog · field reports"
        assert title_line(client.get("/notes/")) == "notes · short ones"


def test_saved_site_settings_show_in_the_header_and_footer_at_the_next_request(
    client, blog, commit
):
    page = soup_of(client.get("/blog/"))
    assert page.select_one(".site-footer__text") is None
    with commit():
        settings = SiteSettings.objects.get()
        settings.brand_name = "Renamed"
        settings.footer_text = "Written by the platform team."
        settings.save()
    page = soup_of(client.get("/blog/"))
    assert page.select_one(".brand__name").get_text(strip=True) == "Renamed"
    assert page.select_one(".site-footer__brand").get_text(strip=True) == "Renamed"
    assert page.select_one(".site-footer__text").get_text(strip=True) == (
        "Written by the platform team."
    )


def test_the_blog_search_box_searches_the_topic_being_read(client, blog, author, topic):
    other = make_topic("Networking")
    publish_post(blog, "Both", authors=[author], topics=[topic, other])

    def hidden_topic(url):
        field = soup_of(client.get(url)).select_one('#blog-search-q ~ input[name="topic"]')
        return field["value"] if field else None

    assert hidden_topic("/blog/") is None
    assert hidden_topic(f"/blog/topic/{topic.slug}/") == topic.slug
    assert hidden_topic(f"/blog/topic/{other.slug}/") == other.slug
    assert hidden_topic("/blog/") is None


def test_a_preview_shows_the_unsaved_title_line_and_readers_never_do(client, rf, admin_user, blog):
    # Wagtail renders a preview as a request to the site's own host name.
    host = Site.objects.get(is_default_site=True).hostname
    assert title_line(client.get("/blog/", HTTP_HOST=host)) == "blog · field reports"
    response = preview_blog(rf, admin_user, blog, title_line="an unsaved line")
    assert title_line(response) == "an unsaved line"
    assert title_line(client.get("/blog/", HTTP_HOST=host)) == "blog · field reports"
