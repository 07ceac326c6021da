"""The admin names things with the editor's words: a post is a "post", the site is the blog."""

import pytest
from bs4 import BeautifulSoup

from blog.models import BlogIndexPage, BlogPage
from blog.roles import EDITORS

from .scheduling import make_user

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(BeautifulSoup(response.content, "html.parser").get_text(" ").split())


def test_the_posts_list_and_its_button_speak_of_posts(client, demo_site):
    client.force_login(make_user("eddie", group=EDITORS))
    listing = text_of(client.get("/admin/blog/blogpage/"))
    assert "Add post" in listing
    assert "blog page" not in listing.lower()


def test_the_dashboard_greets_editors_with_the_blogs_name(client, demo_site, settings):
    client.force_login(make_user("eddie", group=EDITORS))
    response = client.get("/admin/")
    heading = BeautifulSoup(response.content, "html.parser").select_one("h1")
    assert heading.get_text(strip=True) == settings.WAGTAIL_SITE_NAME
    assert "localhost" not in text_of(response)


def test_the_post_editor_asks_for_the_post_title(client, demo_site):
    client.force_login(make_user("eddie", group=EDITORS))
    blog = BlogIndexPage.objects.get()
    page = BeautifulSoup(
        client.get(f"/admin/pages/add/blog/blogpage/{blog.pk}/").content, "html.parser"
    )
    assert page.select_one("#id_title")["placeholder"] == "Post title*"


def test_unpublishing_a_post_asks_about_the_post_and_what_readers_will_see(admin_client, demo_site):
    post = BlogPage.objects.live().first()
    confirm = text_of(admin_client.get(f"/admin/pages/{post.pk}/unpublish/"))
    assert "Unpublish this post? Readers will no longer see it" in confirm
    assert "this page" not in confirm
