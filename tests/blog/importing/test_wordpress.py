"""A WordPress export brought in: every status, topics, authors, pictures, summaries."""

import pytest
from django.core.management import CommandError

from blog.models import Author, BlogPage, Topic
from tests.factories import publish_post

from .conftest import FIXTURES

WXR = FIXTURES / "wordpress.xml"


def post(slug):
    return BlogPage.objects.get(slug=slug)


@pytest.fixture
def imported(run_import, media):
    return run_import(WXR, "--media", str(media))


def test_every_status_lands_where_readers_expect(imported):
    assert post("hello-world").live
    assert not post("draft-thoughts").live
    scheduled = post("coming-soon")
    assert not scheduled.live
    assert scheduled.scheduled_revision.approved_go_live_at.year == 2099
    # Private in WordPress: only its editors could read it, so it waits here as a draft.
    private = post("team-only")
    assert not private.live
    assert "It was private in the old blog" in imported
    pending = post("needs-review")
    assert not pending.live
    assert "waiting for review" in imported
    assert not BlogPage.objects.filter(slug="gone").exists()
    assert "its WordPress status is “trash”" in imported
    assert "it is a WordPress page, not a post" in imported


def test_dates_authors_topics_and_featuring(imported):
    hello = post("hello-world")
    assert hello.first_published_at.isoformat() == "2020-01-05T10:00:00+00:00"
    assert [a.name for a in hello.authors] == ["Marie Curie"]
    # Yoast's primary category first, then the other categories, then tags.
    assert [t.name for t in hello.topics] == ["Reliability", "News", "GPU"]
    assert hello.featured
    assert Author.objects.filter(slug="marie").count() == 1
    assert Topic.objects.filter(slug="news").count() == 1


def test_hero_picture_with_its_alt_text_and_summary(imported):
    hello = post("hello-world")
    assert hello.hero_image is not None
    assert hello.hero_alt == "A rack of servers with blue lights"
    assert hello.summary == "A short summary of the first post."
    draft = post("draft-thoughts")
    assert draft.summary == "Classic editor text."
    assert "The summary is the body's opening words" in imported


def test_body_is_sanitised_into_blocks(imported):
    body = post("hello-world").body
    kinds = [block.block_type for block in body]
    assert kinds == ["paragraph", "heading", "code", "image", "paragraph"]
    html = str(body)
    assert "script" not in html and "steal" not in html and "javascript:" not in html
    assert "onclick" not in html and "onerror" not in html and "onmouseover" not in html
    code = body[2].value
    assert code["language"] == "python"
    # Two CDATA sections joined: the text "]]>" survives.
    assert code["code"] == 'if a < b and c > d: print("]]>")'
    image = body[3].value
    assert image["alt_text"] == "A rack of servers" and image["caption"] == "The rack"
    assert "Removed a <script> element" in "\n".join([imported])


def test_classic_editor_paragraphs(imported):
    paragraphs = [block.value.source for block in post("draft-thoughts").body]
    assert len(paragraphs) == 2
    assert "A second paragraph<br/>with a line break." in paragraphs[1]


def test_unicode_and_rtl_titles(imported):
    arabic = BlogPage.objects.get(title="مرحبا بالعالم")
    assert arabic.slug == "مرحبا"
    assert arabic.live


def test_missing_picture_is_reported_and_the_post_still_published(imported):
    lost = post("lost-picture")
    assert lost.live
    assert lost.hero_image is None
    assert "not found: https://old.example/wp-content/uploads/2020/05/nowhere.jpg" in imported
    assert "(needed by “Lost picture”" in imported
    assert "1 post has no hero picture; the content checks in the editor ask for one." in imported


def test_a_taken_address_gets_a_new_one(run_import, media, blog, author, topic):
    publish_post(blog, "Hello world", slug="hello-world", authors=[author], topics=[topic])
    report = run_import(WXR, "--media", str(media))
    assert BlogPage.objects.filter(slug="hello-world-2", title="Hello, world & friends").exists()
    assert "The address “hello-world” was taken" in report


def test_closing_table(imported):
    assert "  created         7" in imported
    assert "  skipped         2" in imported
    assert "  failed          0" in imported


def test_dry_run_writes_nothing(run_import, media):
    report = run_import(WXR, "--media", str(media), "--dry-run")
    assert "Dry run: nothing was written." in report
    assert "  created         7" in report
    assert not BlogPage.objects.exists()
    assert not Topic.objects.exists()


def test_billion_laughs_is_refused(run_import):
    with pytest.raises(CommandError, match="refused for safety"):
        run_import(FIXTURES / "bomb.xml")
    assert not BlogPage.objects.exists()


def test_malformed_export_names_the_line(run_import, tmp_path):
    broken = tmp_path / "broken.xml"
    broken.write_text(WXR.read_text().replace("</item>", "</itm>", 1))
    with pytest.raises(
        CommandError, match=r"not well-formed XML at line 55, column 3: mismatched tag"
    ):
        run_import(broken)


def test_a_published_item_without_a_date_comes_in_and_says_so(run_import, tmp_path):
    broken = tmp_path / "undated.xml"
    text = WXR.read_text().replace("2020-04-01 09:00:00", "0000-00-00 00:00:00", 1)
    broken.write_text(text)
    report = run_import(broken)
    assert "skipped: “مرحبا بالعالم”" not in report
    assert "It had no date in the export: it is dated the day of the import." in report
    arabic = BlogPage.objects.get(title="مرحبا بالعالم")
    assert arabic.live
    assert post("hello-world").live


@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_older_export_versions(run_import, media, tmp_path, version):
    older = tmp_path / f"wxr-{version}.xml"
    older.write_text(
        WXR.read_text().replace("wordpress.org/export/1.2/", f"wordpress.org/export/{version}/")
    )
    run_import(older, "--media", str(media))
    hello = post("hello-world")
    assert hello.live and [t.name for t in hello.topics] == ["Reliability", "News", "GPU"]


def test_a_gallery_shows_the_pictures_it_names_or_the_posts_own(run_import, media, tmp_path):
    text = WXR.read_text()
    attached = (
        "<item><title>rack</title><wp:post_id>555</wp:post_id><wp:post_parent>10</wp:post_parent>"
        "<wp:attachment_url>https://old.example/wp-content/uploads/2020/01/rack.png"
        "</wp:attachment_url><wp:status>inherit</wp:status><wp:post_type>attachment</wp:post_type>"
        "<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key>"
        "<wp:meta_value>The rack again</wp:meta_value></wp:postmeta></item>"
    )
    text = text.replace("<item>", attached + "<item>", 1)
    text = text.replace("<p onmouseover", "[gallery]<p onmouseover", 1)
    text = text.replace("[Classic editor", '[[gallery ids="100"]\n\nClassic editor', 1)
    gallery = tmp_path / "gallery.xml"
    gallery.write_text(text)
    report = run_import(gallery, "--media", str(media))
    # A bare [gallery] shows the pictures attached to its post.
    hello = post("hello-world")
    images = [block.value for block in hello.body if block.block_type == "image"]
    assert [image["alt_text"] for image in images] == ["A rack of servers", "The rack again"]
    # [gallery ids="…"] the ones it names.
    draft = post("draft-thoughts")
    assert [block.block_type for block in draft.body][0] == "image"
    assert "[gallery" not in str(hello.body) and "[gallery" not in str(draft.body)
    assert "3 media library entries (attachments)" in report


def test_unicode_category_slugs_get_an_address_readers_can_open(tmp_path):
    from blog.importing.wxr import topic

    arabic = topic("%d8%a3%d8%ae%d8%a8%d8%a7%d8%b1", "أخبار", "category")
    assert arabic.slug.startswith("topic-") and arabic.slug.isascii()
    assert arabic.old_addresses == ["/category/%d8%a3%d8%ae%d8%a8%d8%a7%d8%b1/"]
    assert topic("caf%c3%a9", "Café", "tag").slug == "cafe"
