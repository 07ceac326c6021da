"""A team moves a blog of a few hundred posts in: the blog, its feeds, search and the old
links all work afterwards."""

import pytest

from blog.models import BlogPage

from .exports import ghost_export, wordpress_export

pytestmark = pytest.mark.slow

POSTS = 300


def follows_to(client, old, new):
    response = client.get(old)
    assert response.status_code == 301, old
    assert response["Location"] == new, old
    return client.get(new)


def every_post_imported_and_read(report, client, title):
    """Every post came in live, and the blog, its feeds and search show them."""
    assert f"  created    {POSTS:>6}" in report
    assert "  failed          0" in report
    assert BlogPage.objects.live().count() == POSTS
    reader_pages_work(client, title)


def reader_pages_work(client, title):
    """The blog, its second page, its feeds and search show the imported posts."""
    index = client.get("/blog/")
    assert index.status_code == 200
    assert title in index.content.decode()
    assert client.get("/blog/?page=2").status_code == 200
    for feed in ("/blog/feed/", "/blog/atom/"):
        response = client.get(feed)
        assert response.status_code == 200
        assert title in response.content.decode()
    found = client.get("/search/", {"q": f"{title} 123"})
    assert found.status_code == 200
    assert f"{title} 123" in found.content.decode()


def test_a_wordpress_blog_of_a_few_hundred_posts(client, run_import, tmp_path):
    report = run_import(wordpress_export(tmp_path, POSTS), "--media", str(tmp_path))
    every_post_imported_and_read(report, client, "Migrated post")
    for n in (1, 150, POSTS):
        post = follows_to(client, f"/2024/01/post-{n}/", f"/blog/post-{n}/")
        assert post.status_code == 200
        assert f"Migrated post {n}" in post.content.decode()
    assert follows_to(client, "/?p=150", "/blog/post-150/").status_code == 200
    # A link to the post before it, in the old blog's address, leads to the new page.
    assert 'href="/blog/post-149/"' in client.get("/blog/post-150/").content.decode()
    assert follows_to(client, "/category/area-1/", "/blog/topic/area-1/").status_code == 200
    assert follows_to(client, "/tag/tag-3/", "/blog/topic/tag-3/").status_code == 200
    assert client.get("/blog/topic/area-1/feed/").status_code == 200


def test_a_ghost_blog_of_a_few_hundred_posts(client, run_import, tmp_path):
    report = run_import(ghost_export(tmp_path, POSTS), "--media", str(tmp_path))
    every_post_imported_and_read(report, client, "Ghostly post")
    for n in (1, 150, POSTS):
        post = follows_to(client, f"/ghostly-{n}/", f"/blog/ghostly-{n}/")
        assert post.status_code == 200
    assert 'href="/blog/ghostly-149/"' in client.get("/blog/ghostly-150/").content.decode()
    assert follows_to(client, "/tag/theme-1/", "/blog/topic/theme-1/").status_code == 200
    assert client.get("/blog/topic/everything/feed/").status_code == 200
