"""A reader visits the demo blog that `make run` builds from the reference page."""

import pytest
from bs4 import BeautifulSoup
from django.core.management import call_command

from blog.demo.posts import POSTS
from blog.models import Author, BlogIndexPage, BlogPage, Topic

pytestmark = pytest.mark.django_db


def visible_text(response):
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


def test_blog_index_carries_the_reference_page(client, demo_site):
    response = client.get("/blog/")
    assert response.status_code == 200
    text = visible_text(response)
    for phrase in [
        "Login",
        "Schedule demo",
        "blog · field reports & engineering deep-dives",
        "Writing from the cedana team.",
        "Engineering notes, benchmarks, and field reports covering how we build the automation "
        "layer for AI factories.",
        "insights from the team.",
        "Field reports, engineering deep-dives, and benchmarks from the Cedana team.",
        "All posts · 13",
        "Showing 12 of 13 posts",
        "read →",
        "Cedana Editorial",
    ]:
        assert phrase in text, phrase


def test_every_post_card_shows_its_title_summary_and_alt_text(client, demo_site):
    soup = BeautifulSoup(client.get("/blog/").content, "html.parser")
    alts = {img["alt"] for img in soup.find_all("img")}
    text = " ".join(soup.get_text(" ").split())
    for spec in POSTS:
        assert spec["title"] in text
        assert spec["summary"] in text
        assert spec["alt"] in alts


def test_the_featured_post_leads_and_is_not_repeated_in_the_grid(client, demo_site):
    soup = BeautifulSoup(client.get("/blog/").content, "html.parser")
    featured = soup.select_one(".featured")
    assert POSTS[0]["title"] in featured.get_text()
    assert "Updated" in featured.get_text()
    assert "Engineering" in featured.get_text()
    grid_titles = [a.get_text(strip=True) for a in soup.select(".card-grid .card__title a")]
    assert len(grid_titles) == 12
    assert POSTS[0]["title"] not in grid_titles
    assert grid_titles[0] == POSTS[1]["title"]  # newest first


def test_topic_filter_lists_topics_with_live_post_counts(client, demo_site):
    soup = BeautifulSoup(client.get("/blog/").content, "html.parser")
    chips = {
        " ".join(a.get_text(" ").split()): a["href"] for a in soup.select(".topic-filter a.chip")
    }
    assert chips["All posts 13"] == "/blog/"
    assert chips["GPU reliability 12"] == "/blog/topic/gpu-reliability/"
    assert chips["Engineering 1"] == "/blog/topic/engineering/"
    assert not any(label.startswith("Benchmarks") for label in chips)  # no live posts yet


def test_a_topic_page_lists_only_that_topics_posts(client, demo_site):
    response = client.get("/blog/topic/gpu-reliability/")
    assert response.status_code == 200
    text = visible_text(response)
    assert "Showing 12 of 12 posts" in text
    assert POSTS[0]["title"] not in text.split("Topic")[-1]
    engineering = visible_text(client.get("/blog/topic/engineering/"))
    assert POSTS[0]["title"] in engineering
    assert "Showing 1 of 1 post" in engineering


def test_a_post_page_shows_everything_a_reader_expects(client, demo_site):
    spec = POSTS[3]
    response = client.get(f"/blog/{spec['slug']}/")
    assert response.status_code == 200
    soup = BeautifulSoup(response.content, "html.parser")
    assert [h1.get_text(strip=True) for h1 in soup.find_all("h1")] == [spec["title"]]
    text = " ".join(soup.get_text(" ").split())
    assert "Cedana Editorial" in text
    assert "min read" in text
    assert soup.select_one(".post__hero img")["alt"] == spec["alt"]
    assert soup.select(".related .card")  # more from the same topic
    assert soup.find("a", href="/blog/", string=lambda s: s and "All posts" in s)
    body = soup.select_one(".post__body")
    for selector in [
        "h2[id]",
        "figure.figure img[alt]",
        "figure.quote blockquote",
        "pre code",
        "aside.callout",
        "table",
        "figure.embed",
    ]:
        assert body.select_one(selector) is not None, selector


def test_running_the_demo_command_twice_changes_nothing(demo_site):
    counts = (BlogPage.objects.count(), Topic.objects.count(), Author.objects.count())
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert (BlogPage.objects.count(), Topic.objects.count(), Author.objects.count()) == counts
    assert counts[0] == 13


def test_the_demo_blogs_default_byline_is_cedana_editorial(demo_site):
    """Imported posts that name no author carry it."""
    assert BlogIndexPage.objects.get().default_author.name == "Cedana Editorial"


def test_the_demo_command_adds_synthetic_posts_on_request(demo_site, client):
    call_command("load_demo", posts=15, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert BlogPage.objects.live().count() == 28
    call_command("load_demo", posts=15, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert BlogPage.objects.count() == 28
    assert "All posts · 28" in visible_text(client.get("/blog/"))


def test_the_demo_served_where_make_run_serves_it_links_there(demo_site, client):
    call_command("load_demo", address="127.0.0.1:8000", stdout=open("/dev/null", "w"))  # noqa: SIM115
    index = visible_text(client.get("/blog/"))
    feed = client.get("/blog/feed/").content.decode()
    assert "All posts · 13" in index
    assert "<link>http://127.0.0.1:8000/blog/" in feed
    assert "http://localhost" not in feed
