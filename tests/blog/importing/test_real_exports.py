"""Real, public exports (fixtures/real/README.md), imported whole as an operator would: nothing
fails, every published item is live at its new address with its old addresses answering 301, a
second run changes nothing, and the reader pages, feeds, search and sitemap show nothing that
is not public."""

import io
import re
import zipfile

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile
from wagtail.contrib.redirects.models import Redirect

from blog.editorial.roles import PUBLISHERS
from blog.importing.ghost import parse_ghost
from blog.importing.markdown import parse_markdown_folder
from blog.importing.records import LIVE
from blog.models import BlogPage
from tests.blog.scheduling import make_user

from .conftest import FIXTURES

# Whole real exports, imported again by each test: PostgreSQL's pass runs them (slow).
pytestmark = pytest.mark.slow

REAL = FIXTURES / "real"
EXPORTS = {
    "ghost-4.1": REAL / "ghost-4.1" / "export.json",
    "ghost-5-migrate": REAL / "ghost-5-migrate" / "export.json",
    "jekyll-docs": REAL / "jekyll-docs",
    "jekyll-migrate": REAL / "jekyll-migrate",
    "hugo-docs": REAL / "hugo-docs",
}


def parsed(path):
    return parse_ghost(path.read_bytes()) if path.suffix == ".json" else parse_markdown_folder(path)


def count(report, result):
    return int(re.search(rf"^  {result}\s+(\d+)$", report, re.M).group(1))


@pytest.mark.parametrize("name", EXPORTS)
def test_a_real_export_imports_whole_and_a_second_run_changes_nothing(run_import, name):
    export = parsed(EXPORTS[name])
    first = run_import(EXPORTS[name])
    assert count(first, "failed") == 0, first
    assert count(first, "created") == len(export.posts)
    # Everything the export holds but the import leaves out is named with its reason.
    for what, why in export.skipped:
        assert f"skipped: {what} — {why}" in first
    second = run_import(EXPORTS[name])
    assert count(second, "unchanged") == len(export.posts), second
    assert count(second, "created") == count(second, "updated") == count(second, "failed") == 0


@pytest.mark.parametrize("name", EXPORTS)
def test_every_published_item_of_a_real_export_is_live_at_its_old_addresses(
    run_import, client, name
):
    export = parsed(EXPORTS[name])
    run_import(EXPORTS[name])
    published = [record for record in export.posts if record.status == LIVE]
    assert published
    for record in published:
        post = BlogPage.objects.get(title=record.title[:255])
        assert post.live, record.label
        assert client.get(post.url).status_code == 200
        for old in record.old_addresses:
            response = client.get(old)
            assert response.status_code == 301, old
            assert response["Location"] == post.url


@pytest.mark.parametrize("name", EXPORTS)
def test_reader_surfaces_after_a_real_import_show_only_public_posts(run_import, client, name):
    run_import(EXPORTS[name])
    hidden = [post for post in BlogPage.objects.all() if not post.live]
    surfaces = ["/blog/", "/blog/feed/", "/blog/atom/", "/sitemap.xml", "/search/?q=release"]
    surfaces += [f"/blog/{post.slug}/" for post in BlogPage.objects.all()]
    for address in surfaces:
        response = client.get(address)
        assert response.status_code < 500, address
        if address.startswith(("/blog/feed", "/blog/atom", "/sitemap", "/search", "/blog/?")) or (
            address == "/blog/"
        ):
            text = response.content.decode()
            for post in hidden:
                assert f"/blog/{post.slug}/" not in text, (address, post.slug)
    for post in hidden:
        assert client.get(f"/blog/{post.slug}/").status_code == 404
        # A post readers cannot see has no old address leading to it.
        assert not Redirect.objects.filter(redirect_page=post).exists()


def body_text(post):
    return " ".join(str(block.render_as_block()) for block in post.body)


def test_jekylls_own_site_keeps_its_dates_addresses_and_liquid_meaning(run_import):
    report = run_import(EXPORTS["jekyll-docs"])
    by_slug = {record.slug: record for record in parsed(EXPORTS["jekyll-docs"]).posts}
    # date: 2014-05-06 00:00:00 with no zone: in the site's time zone, America/Los_Angeles.
    assert by_slug["jekyll-turns-2-0-0"].published_at.isoformat() == "2014-05-06T07:00:00+00:00"
    # The posts' permalink is under collections: /news/:year/:month/:day/:title/, the date as
    # the site's time zone reads it (2013-05-05 20:12:52 -0400 is the 5th there).
    assert by_slug["jekyll-1-0-0-released"].old_addresses == [
        "/news/2013/05/05/jekyll-1-0-0-released/"
    ]
    turns_two = BlogPage.objects.get(slug="jekyll-turns-2-0-0")
    text = body_text(turns_two)
    # {% post_url 2013-05-06-jekyll-1-0-0-released %}: a link to that post's new page.
    assert '<a href="/blog/jekyll-1-0-0-released/">we released Jekyll 1.0.0</a>' in text
    for raw in ("{%", "%}", "{{"):
        assert raw not in text
    # {% raw %} shows its Liquid as words, here in a code block, as Jekyll showed it.
    three_nine = BlogPage.objects.get(slug="jekyll-3-9-1-released")
    code = [block.value for block in three_nine.body if block.block_type == "code"]
    assert [value["code"].strip() for value in code] == ["{% include my-logo@2x.svg %}"]
    assert count(report, "skipped") == 0
    highlighted = BlogPage.objects.get(slug="jekyll-1-5-1-released")
    assert "code" in [block.block_type for block in highlighted.body]


def test_jekyll_posts_without_a_date_in_the_front_matter_take_the_file_names(run_import):
    run_import(EXPORTS["jekyll-migrate"])
    export = parsed(EXPORTS["jekyll-migrate"])
    by_slug = {record.slug: record for record in export.posts}
    unpadded = by_slug["alt-date-format"]  # 2021-9-1-alt-date-format.md
    assert unpadded.published_at.isoformat() == "2021-09-01T00:00:00+00:00"
    assert unpadded.old_addresses == ["/2021/09/01/alt-date-format.html"]
    words = by_slug["front-matter-tags-cats"]
    # category: News; categories: Posts Articles; tags: dolor Simet-Amet (Jekyll splits on
    # spaces).
    assert [t.name for t in words.topics] == ["News", "Posts", "Articles", "dolor", "Simet-Amet"]
    assert not BlogPage.objects.get(slug="published-false").live


def test_hugos_own_site_keeps_its_addresses_and_leaves_no_shortcode_raw(run_import):
    report = run_import(EXPORTS["hugo-docs"])
    export = parsed(EXPORTS["hugo-docs"])
    sixteen = next(r for r in export.posts if r.source_id.endswith("0.16-relnotes/index.md"))
    # The page bundle's address (Hugo's default, the folder's name) and its aliases.
    assert sixteen.old_addresses == ["/news/0.16-relnotes/", "/0-16/"]
    # date: 2019-07-25 in the site's timeZone, Europe/Oslo.
    fifty_six = next(r for r in export.posts if "0.56.0" in r.source_id)
    assert fifty_six.published_at.isoformat() == "2019-07-24T22:00:00+00:00"
    for post in BlogPage.objects.all():
        text = body_text(post)
        assert "{{<" not in text and "{{%" not in text, post.slug
    assert "A Hugo shortcode “gh” has no equivalent here; it was left out." in report


def test_a_real_ghost_export_reports_its_pages_and_keeps_no_script(run_import):
    report = run_import(EXPORTS["ghost-4.1"])
    assert "skipped: “About this site” [605ac141a2d5a6aa9e101ecb] — a Ghost page, not a post" in (
        report
    )
    integrations = BlogPage.objects.get(slug="integrations")
    assert "<script" not in body_text(integrations)
    assert [a.name for a in integrations.authors] == ["Ghost"]
    assert [t.name for t in integrations.topics] == ["Getting Started"]
    assert integrations.summary.startswith("Work with all your favorite apps")


def upload_of(path):
    """The export as a Publisher uploads it: a Ghost .json as it is, a site as a .zip of its
    folder."""
    if path.is_file():
        return SimpleUploadedFile(path.name, path.read_bytes())
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for file in sorted(path.rglob("*")):
            if file.is_file():
                archive.write(file, f"{path.name}/{file.relative_to(path).as_posix()}")
    return SimpleUploadedFile(f"{path.name}.zip", data.getvalue())


@pytest.mark.parametrize("name", EXPORTS)
def test_a_real_export_through_the_admin_screen(client, blog, name):
    client.force_login(make_user("petra", group=PUBLISHERS))
    export = parsed(EXPORTS[name])
    checked = client.post("/admin/blog/import/", {"export": upload_of(EXPORTS[name])})
    assert checked.status_code == 200
    text = BeautifulSoup(checked.content, "html.parser").get_text(" ", strip=True)
    assert f"Would be created {len(export.posts)}" in text
    assert "Would fail 0" in text
    done = client.post("/admin/blog/import/", {"confirm": "1"}, follow=True)
    assert done.status_code == 200
    assert BlogPage.objects.count() == len(export.posts)
