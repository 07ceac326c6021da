"""What search engines, link previews and old links see of the blog."""

import json
from datetime import timedelta

import pytest
from bs4 import BeautifulSoup
from defusedxml import ElementTree
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils import timezone
from wagtail.contrib.redirects.models import Redirect
from wagtail.models import PageViewRestriction

from tests.factories import (
    draft_post,
    make_author,
    make_blog_index,
    make_image,
    make_topic,
    publish_post,
    publish_posts,
)

pytestmark = pytest.mark.django_db

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XSS_TITLE = "</script><script>alert(1)</script>"


def soup_of(response):
    assert response.status_code == 200
    return BeautifulSoup(response.content, "html.parser")


def meta(soup, key):
    """The content of <meta property=key> or <meta name=key>; a list when it repeats."""
    tags = soup.select(f'head meta[property="{key}"], head meta[name="{key}"]')
    values = [tag["content"] for tag in tags]
    return values[0] if len(values) == 1 else values or None


def canonical(soup):
    return soup.select_one("head link[rel=canonical]")["href"]


def json_ld(soup):
    scripts = soup.select('script[type="application/ld+json"]')
    assert len(scripts) == 1
    return json.loads(scripts[0].string)


@pytest.fixture
def post(blog, author, topic):
    return publish_post(
        blog,
        "Checkpoint a GPU job",
        authors=[author, make_author("Grace Hopper")],
        topics=[topic, make_topic("Checkpointing")],
        summary="How we freeze a running training job.",
        image=make_image("Wide photo", size=(1600, 900)),
        published_at=timezone.now() - timedelta(days=2),
    )


def test_a_post_page_has_its_title_description_and_canonical_address(client, post):
    soup = soup_of(client.get(post.url))
    assert soup.title.string == "Checkpoint a GPU job · cedana"
    assert meta(soup, "description") == "How we freeze a running training job."
    assert canonical(soup) == post.get_full_url()
    assert canonical(soup).startswith("http")


def test_the_seo_title_and_description_win_over_the_title_and_summary(client, post):
    post.seo_title = "Freezing GPU jobs"
    post.search_description = "A shorter line for search engines."
    post.save_revision().publish()
    soup = soup_of(client.get(post.url))
    assert soup.title.string == "Freezing GPU jobs · cedana"
    assert meta(soup, "description") == "A shorter line for search engines."
    assert meta(soup, "og:title") == "Freezing GPU jobs"
    assert json_ld(soup)["headline"] == "Freezing GPU jobs"


def test_a_shared_post_shows_a_large_picture_preview(client, post):
    soup = soup_of(client.get(post.url))
    assert meta(soup, "og:type") == "article"
    assert meta(soup, "og:title") == "Checkpoint a GPU job"
    assert meta(soup, "og:description") == "How we freeze a running training job."
    assert meta(soup, "og:url") == post.get_full_url()
    assert meta(soup, "og:site_name") == "cedana"
    image = meta(soup, "og:image")
    assert image.startswith("http://localhost/media/images/")
    assert ".fill-1200x630" in image
    assert (meta(soup, "og:image:width"), meta(soup, "og:image:height")) == ("1200", "630")
    assert meta(soup, "og:image:alt") == post.hero_alt
    assert meta(soup, "article:author") == ["Ada Lovelace", "Grace Hopper"]
    assert meta(soup, "article:section") == "GPU reliability"
    assert meta(soup, "article:tag") == ["GPU reliability", "Checkpointing"]
    published = meta(soup, "article:published_time")
    assert published == post.first_published_at.isoformat()
    assert meta(soup, "article:modified_time") == post.last_published_at.isoformat()
    assert meta(soup, "twitter:card") == "summary_large_image"
    assert meta(soup, "twitter:image") == image


def test_a_post_describes_itself_as_a_blog_posting(client, post):
    data = json_ld(soup_of(client.get(post.url)))
    assert data["@context"] == "https://schema.org"
    assert data["@type"] == "BlogPosting"
    assert data["headline"] == "Checkpoint a GPU job"
    assert data["description"] == "How we freeze a running training job."
    assert data["image"][0].startswith("http://localhost/media/images/")
    assert data["datePublished"] == post.first_published_at.isoformat()
    assert data["dateModified"] == post.last_published_at.isoformat()
    assert data["author"] == [
        {"@type": "Person", "name": "Ada Lovelace"},
        {"@type": "Person", "name": "Grace Hopper"},
    ]
    assert data["publisher"] == {"@type": "Organization", "name": "cedana"}
    assert data["mainEntityOfPage"]["@id"] == post.get_full_url()


def test_a_title_that_closes_the_script_cannot_escape_the_structured_data(
    client, blog, author, topic
):
    post = publish_post(
        blog,
        XSS_TITLE,
        slug="xss",
        authors=[author],
        topics=[topic],
        body=[{"type": "paragraph", "value": "<p>A plain body.</p>"}],
    )
    raw = client.get(post.url).content.decode()
    assert "<script>alert(1)" not in raw
    soup = BeautifulSoup(raw, "html.parser")
    assert json_ld(soup)["headline"] == XSS_TITLE
    assert json_ld(soup_of(client.get("/blog/")))["blogPost"][0]["headline"] == XSS_TITLE
    assert meta(soup, "og:title") == XSS_TITLE


def test_the_blog_index_describes_itself_and_the_posts_it_lists(client, blog, author, topic):
    blog.posts_per_page = 2
    blog.save_revision().publish()
    featured = publish_post(blog, "Featured one", featured=True, authors=[author], topics=[topic])
    publish_posts(blog, 3, authors=[author], topics=[topic])
    soup = soup_of(client.get("/blog/"))
    assert soup.title.string == "Blog · cedana"
    assert meta(soup, "description") == "Engineering notes and field reports."
    assert meta(soup, "og:type") == "website"
    assert meta(soup, "twitter:card") == "summary"
    data = json_ld(soup)
    assert data["@type"] == "Blog"
    assert data["url"] == blog.get_full_url()
    listed = [entry["headline"] for entry in data["blogPost"]]
    assert listed == ["Featured one", "Post 000", "Post 001"]
    assert data["blogPost"][0]["url"] == featured.get_full_url()

    second = json_ld(soup_of(client.get("/blog/?page=2")))
    assert [entry["headline"] for entry in second["blogPost"]] == ["Post 002"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", ""), ("?page=1", ""), ("?page=2", "?page=2"), ("?page=abc", ""), ("?page=03", "?page=3")],
)
def test_each_page_of_the_listing_names_its_own_canonical_address(
    client, blog, author, topic, query, expected
):
    blog.posts_per_page = 2
    blog.save_revision().publish()
    publish_posts(blog, 6, authors=[author], topics=[topic])
    soup = soup_of(client.get(f"/blog/{query}"))
    assert canonical(soup) == blog.get_full_url() + expected
    assert meta(soup, "og:url") == canonical(soup)


def test_a_topic_page_has_its_own_title_description_and_canonical(client, post, topic, blog):
    topic.description = "Keeping accelerators busy."
    topic.save()
    soup = soup_of(client.get(f"/blog/topic/{topic.slug}/?page=1"))
    assert soup.title.string == "GPU reliability · Blog · cedana"
    assert meta(soup, "description") == "Keeping accelerators busy."
    assert canonical(soup) == f"{blog.get_full_url()}topic/{topic.slug}/"


def test_the_home_page_has_a_title_canonical_and_site_name(client, home, post):
    soup = soup_of(client.get("/"))
    assert canonical(soup) == home.get_full_url()
    assert meta(soup, "og:site_name") == "cedana"
    assert meta(soup, "og:title") == "Home"


def test_previews_and_search_results_ask_not_to_be_indexed(client, post):
    preview = post.make_preview_request()
    assert preview.status_code == 200
    assert b'<meta name="robots" content="noindex">' in preview.content
    search = client.get("/search/?q=checkpoint")
    assert b'<meta name="robots" content="noindex">' in search.content
    assert b'name="robots"' not in client.get(post.url).content
    assert b'name="robots"' not in client.get("/blog/").content


def test_a_previewed_draft_of_a_new_post_still_renders_its_metadata(blog, author, topic):
    draft = draft_post(blog, "Not yet out", authors=[author], topics=[topic])
    response = draft.make_preview_request()
    soup = soup_of(response)
    assert meta(soup, "og:title") == "Not yet out"
    assert "datePublished" not in json_ld(soup)


def sitemap_entries(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    root = ElementTree.fromstring(response.content)
    return {
        url.findtext(f"{SITEMAP}loc"): url.findtext(f"{SITEMAP}lastmod")
        for url in root.findall(f"{SITEMAP}url")
    }


def test_the_sitemap_lists_readable_pages_and_topics_with_dates(client, home, blog, post, topic):
    quiet = make_topic("Quiet")
    entries = sitemap_entries(client)
    base = blog.get_full_url()
    assert set(entries) == {
        home.get_full_url(),
        base,
        post.get_full_url(),
        f"{base}topic/{topic.slug}/",
        f"{base}topic/checkpointing/",
    }
    assert f"{base}topic/{quiet.slug}/" not in entries
    assert entries[post.get_full_url()] == post.last_published_at.date().isoformat()
    assert entries[f"{base}topic/{topic.slug}/"] == post.last_published_at.date().isoformat()


def test_the_sitemap_leaves_out_what_readers_cannot_open(client, home, blog, author, topic):
    publish_post(blog, "Public", authors=[author], topics=[topic])
    draft_post(blog, "Draft", authors=[author], topics=[topic])
    expired = publish_post(blog, "Expired", authors=[author], topics=[topic])
    expired.expire_at = timezone.now() - timedelta(minutes=5)
    expired.save(update_fields=["expire_at"])
    private = publish_post(blog, "Private", authors=[author], topics=[topic])
    PageViewRestriction.objects.create(page=private, restriction_type="password", password="x")
    hidden = make_blog_index(home, title="Hidden", slug="hidden")
    publish_post(hidden, "Under hidden", authors=[author], topics=[make_topic("Hidden topic")])
    hidden.unpublish()

    paths = {url.removeprefix("http://localhost") for url in sitemap_entries(client)}
    assert paths == {"/", "/blog/", "/blog/public/", f"/blog/topic/{topic.slug}/"}


def test_robots_txt_points_to_the_sitemap_and_keeps_crawlers_out_of_admin_and_search(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert "Disallow: /admin/" in lines
    assert "Disallow: /search/" in lines
    assert "Sitemap: http://localhost/sitemap.xml" in lines


def test_a_renamed_post_keeps_its_old_address_working(
    client, blog, author, topic, django_capture_on_commit_callbacks
):
    post = publish_post(blog, "Old name", slug="old-name", authors=[author], topics=[topic])
    post.slug = "new-name"
    # Wagtail creates the redirect once the publish transaction commits.
    with django_capture_on_commit_callbacks(execute=True):
        post.save_revision().publish()
    assert Redirect.objects.filter(old_path="/blog/old-name", redirect_page=post).exists()
    response = client.get("/blog/old-name/")
    assert response.status_code == 301
    assert response["Location"].endswith("/blog/new-name/")
    assert client.get(response["Location"].removeprefix("http://localhost")).status_code == 200


def test_editors_find_redirects_in_the_admin_menu(client, db):
    editor = User.objects.create_superuser("editor", "editor@example.com", "pw")
    client.force_login(editor)
    assert b'"/admin/redirects/"' in client.get("/admin/").content
    assert client.get("/admin/redirects/").status_code == 200


@pytest.mark.parametrize("slug", ["feed", "atom", "topic"])
def test_a_post_cannot_take_a_slug_the_blog_uses_itself(blog, author, topic, slug):
    post = draft_post(blog, "Clashing", authors=[author], topics=[topic])
    post.slug = slug
    with pytest.raises(ValidationError) as error:
        post.full_clean()
    assert "slug" in error.value.message_dict


def test_a_template_rendered_without_a_request_still_gets_its_head(db):
    html = render_to_string("base.html", {})
    assert '<meta property="og:type" content="website">' in html
    assert "canonical" not in html


def test_a_post_whose_picture_cannot_be_read_still_renders_with_its_alt_text(client, blog, author):
    """The object store down (or a lost file): no rendition can be made, the page still reads."""
    post = publish_post(blog, "Lost picture", authors=[author], image=make_image("Lost"))
    post.hero_image.file.storage.delete(post.hero_image.file.name)

    soup = soup_of(client.get(post.url))
    assert meta(soup, "og:image") is None
    assert meta(soup, "twitter:card") == "summary"
    hero = soup.select_one("img.post__hero-image")
    assert hero["alt"] == post.hero_alt
    assert hero["src"].endswith("not-found")

    feed = client.get(blog.url + "feed/")
    assert feed.status_code == 200
    assert b"Lost picture" in feed.content
    assert b"<enclosure" not in feed.content
