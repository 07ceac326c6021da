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
from wagtail.models import PageViewRestriction

from blog.editorial.roles import PUBLISHERS
from blog.importing.ghost import parse_ghost
from blog.importing.markdown import parse_markdown_folder
from blog.importing.models import ImportedItem, ImportRun
from blog.importing.records import LIVE
from blog.importing.wxr import parse_wxr
from blog.models import BlogPage
from tests.blog.scheduling import make_user

from .conftest import FIXTURES
from .exports import draw

# Whole real exports, imported again by each test: PostgreSQL's pass runs them (slow).
pytestmark = pytest.mark.slow

REAL = FIXTURES / "real"
EXPORTS = {
    "ghost-4.1": REAL / "ghost-4.1" / "export.json",
    "ghost-5-migrate": REAL / "ghost-5-migrate" / "export.json",
    "jekyll-docs": REAL / "jekyll-docs",
    "jekyll-migrate": REAL / "jekyll-migrate",
    "hugo-docs": REAL / "hugo-docs",
    "wptest": REAL / "wptest" / "wptest.xml",
    "ghost-4.47-sample": REAL / "ghost-4.47-sample" / "ghost_exported_file.json",
    "brew-sh": REAL / "brew-sh",
    "hugo-stack": REAL / "hugo-stack",
}


def parsed(path):
    if path.suffix == ".xml":
        return parse_wxr(path.read_bytes())
    return parse_ghost(path.read_bytes()) if path.suffix == ".json" else parse_markdown_folder(path)


def imported_post(export, record):
    item = ImportedItem.objects.get(source=export.source, key=f"post:{record.source_id}")
    return BlogPage.objects.get(pk=item.page_id)


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
        post = imported_post(export, record)
        assert post.live, record.label
        # A post behind a password or sign-in asks for it; every other one is read at once.
        assert client.get(post.url).status_code == (302 if record.members_only else 200)
        for old in record.old_addresses:
            response = client.get(old)
            if old.rstrip("/") == post.url.rstrip("/"):
                # The old blog's address is the new one: the post answers there itself.
                assert response.status_code == 200, old
                continue
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


def confirm_the_dry_run(client, **kwargs):
    """The latest dry run's “Import these posts” button."""
    dry_run = ImportRun.objects.filter(dry_run=True).latest("pk")
    return client.post("/admin/blog/import/", {"confirm": str(dry_run.pk)}, **kwargs)


@pytest.mark.parametrize("name", EXPORTS)
def test_a_real_export_through_the_admin_screen(client, blog, name):
    client.force_login(make_user("petra", group=PUBLISHERS))
    export = parsed(EXPORTS[name])
    checked = client.post("/admin/blog/import/", {"export": upload_of(EXPORTS[name])}, follow=True)
    assert checked.status_code == 200
    text = BeautifulSoup(checked.content, "html.parser").get_text(" ", strip=True)
    assert f"Would be created {len(export.posts)}" in text
    assert "Would fail 0" in text
    done = confirm_the_dry_run(client, follow=True)
    assert done.status_code == 200
    assert BlogPage.objects.count() == len(export.posts)
    # The same export again, unpacked into another folder: nothing to change.
    again = client.post("/admin/blog/import/", {"export": upload_of(EXPORTS[name])}, follow=True)
    text = BeautifulSoup(again.content, "html.parser").get_text(" ", strip=True)
    assert f"Would stay unchanged {len(export.posts)}" in text


WPTEST = EXPORTS["wptest"]


def test_wp_tests_shortcodes_and_old_youtube_addresses_never_reach_readers_raw(run_import):
    report = run_import(WPTEST)
    videopress = BlogPage.objects.get(slug="post-format-video-videopress")
    text = body_text(videopress)
    assert "[wpvideo" not in text
    # Jetpack's [wpvideo tFnqC9XQ w=680]: the video's VideoPress page, as a link.
    assert 'href="https://videopress.com/v/tFnqC9XQ"' in text
    assert "Embedded content from videopress.com is kept as a link." in report
    # http://www.youtube.com/watch?v=… alone on its line, as WordPress 3.5 embedded it.
    video = BlogPage.objects.get(slug="post-format-video")
    embeds = [block.value["embed"].url for block in video.body if block.block_type == "embed"]
    assert embeds == ["https://www.youtube.com/watch?v=nwe-H6l4beM"]


def test_wp_tests_missing_featured_pictures_arrive_on_a_re_run_with_them(run_import):
    first = run_import(WPTEST)
    assert "its alt text: “Horizontal Featured Image”" in first
    horizontal = BlogPage.objects.get(slug="featured-image-horizontal")
    assert horizontal.live and horizontal.hero_image is None
    again = run_import(WPTEST, "--media", str(WPTEST.parent / "uploads"))
    assert "  updated         2" in again
    assert "Pictures added since the last run are in the post now." in again
    horizontal.refresh_from_db()
    assert horizontal.hero_image is not None
    assert horizontal.hero_alt == "Horizontal Featured Image"
    vertical = BlogPage.objects.get(slug="featured-image-vertical")
    assert vertical.hero_alt == "Vertical Featured Image"
    assert "  unchanged      11" in run_import(WPTEST, "--media", str(WPTEST.parent / "uploads"))


def test_a_publisher_adds_the_missing_pictures_and_imports_again_on_the_screen(client, blog):
    """The export alone first; then a zip of the export with its uploads folder."""
    client.force_login(make_user("petra", group=PUBLISHERS))
    client.post("/admin/blog/import/", {"export": upload_of(WPTEST)})
    confirm_the_dry_run(client)
    assert BlogPage.objects.get(slug="featured-image-vertical").hero_image is None
    checked = client.post("/admin/blog/import/", {"export": upload_of(WPTEST.parent)}, follow=True)
    text = BeautifulSoup(checked.content, "html.parser").get_text(" ", strip=True)
    assert "Would be updated 2" in text
    done = confirm_the_dry_run(client, follow=True)
    assert "Updated 2" in BeautifulSoup(done.content, "html.parser").get_text(" ", strip=True)
    vertical = BlogPage.objects.get(slug="featured-image-vertical")
    assert vertical.live and vertical.hero_image is not None


def test_homebrews_dotted_post_names_keep_their_numbers_and_old_addresses(run_import, client):
    run_import(EXPORTS["brew-sh"])
    one = BlogPage.objects.get(title="1.0.0")
    # homebrew-1.0.0.md: not “homebrew-100”, which 1.0.0 and 10.0 would share.
    assert one.slug == "homebrew-1-0-0"
    assert BlogPage.objects.get(title="1.1.0").slug == "homebrew-1-1-0"
    # The posts' permalink under defaults, and the last of two redirect_from lines.
    for old in ("/2016/09/21/homebrew-1.0.0/", "/blog/1.0.0/"):
        response = client.get(old)
        assert response.status_code == 301 and response["Location"] == one.url
    # Two posts named security-incident-disclosure: each keeps its own old address.
    first, second = BlogPage.objects.filter(slug__startswith="security-incident").order_by(
        "first_published_at"
    )
    assert client.get("/2018/08/05/security-incident-disclosure/")["Location"] == first.url
    assert client.get("/2021/04/21/security-incident-disclosure/")["Location"] == second.url


def test_a_ghost_post_only_members_could_read_is_live_behind_sign_in(run_import, client):
    report = run_import(EXPORTS["ghost-4.47-sample"])
    assert report.startswith("2 posts are live (1 behind sign-in), 0 scheduled, 0 drafts")
    members = BlogPage.objects.get(slug="sample-slug")
    assert members.live
    restriction = PageViewRestriction.objects.get(page=members)
    assert restriction.restriction_type == PageViewRestriction.LOGIN
    assert "published behind sign-in, not public" in report
    assert "imported as a draft" not in report
    # Readers who are not signed in neither read it nor find it listed.
    assert client.get(members.url).status_code == 302
    assert client.get("/sample-slug/")["Location"] == members.url
    for address in ("/blog/", "/blog/feed/", "/sitemap.xml"):
        assert "sample-slug" not in client.get(address).content.decode()
    # Ghost's MySQL dates without a zone are UTC.
    assert members.first_published_at.isoformat() == "2023-01-14T04:28:17+00:00"


def test_the_hugo_theme_stacks_toml_bundles_come_in_with_their_pictures(run_import, client):
    report = run_import(EXPORTS["hugo-stack"])
    placeholder = BlogPage.objects.get(slug="placeholder-text")
    # The bundle's own picture, named in TOML front matter, is the hero.
    assert placeholder.hero_image is not None
    assert [a.name for a in placeholder.authors] == ["Hugo Authors"]
    # permalinks: post: /p/:slug/, the slug taken from the title as Hugo does.
    response = client.get("/p/placeholder-text/")
    assert response.status_code == 301 and response["Location"] == placeholder.url
    # The Arabic translation and a bundle with translations only are not posts here.
    assert "content/post/placeholder-text/index.ar.md — a translation or a resource" in report
    assert "content/post/chinese-test/index.ja.md — a translation or a resource" in report
    rich = BlogPage.objects.get(slug="rich-content")
    assert "embed" in [block.block_type for block in rich.body]


def zip_of_its_files(folder, tmp_path):
    """A site zipped from inside its folder (`zip -r site.zip .`, or a file manager's Compress on
    the selected files): its files at the zip's root, beside its pictures' folder (as
    mojombo.github.io's images/), no folder naming the site."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(folder).as_posix())
        archive.write(draw(tmp_path / "logo.png"), "images/logo.png")
    return data.getvalue()


def test_a_site_zipped_without_its_folder_uploaded_again_changes_nothing(client, blog, tmp_path):
    # A Jekyll site with no _config.yml `url`: only the upload's name says which site it is.
    site = EXPORTS["jekyll-migrate"]
    posts = len(parsed(site).posts)
    client.force_login(make_user("petra", group=PUBLISHERS))
    upload = zip_of_its_files(site, tmp_path)
    client.post("/admin/blog/import/", {"export": SimpleUploadedFile("site.zip", upload)})
    confirm_the_dry_run(client)
    assert BlogPage.objects.count() == posts
    again = client.post(
        "/admin/blog/import/", {"export": SimpleUploadedFile("site.zip", upload)}, follow=True
    )
    text = BeautifulSoup(again.content, "html.parser").get_text(" ", strip=True)
    assert f"Would stay unchanged {posts}" in text
    assert "Would be created 0" in text
    confirm_the_dry_run(client)
    assert BlogPage.objects.count() == posts


def test_a_site_zipped_without_its_folder_imported_again_by_the_command_changes_nothing(
    run_import, tmp_path
):
    site = EXPORTS["jekyll-migrate"]
    posts = len(parsed(site).posts)
    archive = tmp_path / "site.zip"
    archive.write_bytes(zip_of_its_files(site, tmp_path))
    run_import(archive)
    second = run_import(archive)
    assert count(second, "created") == 0
    assert count(second, "unchanged") == posts
    assert BlogPage.objects.count() == posts
