"""The rules every import follows, whatever the source: dates survive, nothing a post lacks
holds it back, and a re-run picks up what changed (pictures added, a password changed)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from wagtail.models import PageViewRestriction

from blog.editorial.scheduling import run_pass
from blog.importing.importer import shortened
from blog.models import SUMMARY_MAX_LENGTH, BlogIndexPage, BlogPage
from tests.factories import make_author

from .exports import draw

OLD = "https://old.example"


def item(
    post_id,
    title,
    *,
    status="publish",
    date="2025-06-01 09:00:00",
    body="<p>Words.</p>",
    excerpt="A summary.",
    creator="marie",
    password="",
    thumbnail=None,
    extra="",
):
    meta = (
        f"<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key>"
        f"<wp:meta_value>{thumbnail}</wp:meta_value></wp:postmeta>"
        if thumbnail
        else ""
    )
    return (
        f"<item><title>{title}</title><link>{OLD}/p/{post_id}/</link>"
        f"<dc:creator>{creator}</dc:creator>"
        f"<content:encoded><![CDATA[{body}]]></content:encoded>"
        f"<excerpt:encoded><![CDATA[{excerpt}]]></excerpt:encoded>"
        f"<wp:post_id>{post_id}</wp:post_id><wp:post_date_gmt>{date}</wp:post_date_gmt>"
        f"<wp:post_name>post-{post_id}</wp:post_name><wp:status>{status}</wp:status>"
        f"<wp:post_type>post</wp:post_type><wp:post_password>{password}</wp:post_password>"
        f'<category domain="category" nicename="news">News</category>{meta}{extra}</item>'
    )


def attachment(post_id, path, alt):
    return (
        f"<item><title>a</title><wp:post_id>{post_id}</wp:post_id>"
        f"<wp:attachment_url>{OLD}/wp-content/uploads/{path}</wp:attachment_url>"
        "<wp:status>inherit</wp:status><wp:post_type>attachment</wp:post_type>"
        "<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key>"
        f"<wp:meta_value>{alt}</wp:meta_value></wp:postmeta></item>"
    )


def export(folder, *items, name="export.xml"):
    path = folder / name
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
        'xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" '
        'xmlns:content="http://purl.org/rss/1.0/modules/content/" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">'
        f"<channel><title>Old</title><link>{OLD}</link><wp:base_site_url>{OLD}</wp:base_site_url>"
        "<wp:author><wp:author_login>marie</wp:author_login>"
        "<wp:author_display_name>Marie Curie</wp:author_display_name></wp:author>"
        f"{''.join(items)}</channel></rss>",
        encoding="utf-8",
    )
    return path


def test_an_imported_draft_published_later_keeps_its_date(client, run_import, tmp_path):
    """A draft dated 10 March 2025, published by an editor after the import, sits at its date
    in the listing and the feed, not at the top."""
    run_import(
        export(
            tmp_path,
            item(1, "Newer post", date="2025-06-01 09:00:00"),
            item(2, "Dated draft", status="draft", date="2025-03-10 09:00:00"),
            item(3, "Older post", date="2024-01-01 09:00:00"),
        )
    )
    draft = BlogPage.objects.get(title="Dated draft")
    assert not draft.live
    draft.save_revision().publish()
    draft.refresh_from_db()
    assert draft.first_published_at == datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
    listing = client.get("/blog/").content.decode()
    assert listing.index("Newer post") < listing.index("Dated draft") < listing.index("Older post")
    feed = client.get("/blog/feed/").content.decode()
    assert feed.index("Newer post") < feed.index("Dated draft") < feed.index("Older post")


def test_published_posts_keep_their_publication_and_modification_dates(run_import, tmp_path):
    modified = "<wp:post_modified_gmt>2025-07-02 10:00:00</wp:post_modified_gmt>"
    run_import(export(tmp_path, item(1, "Edited later", extra=modified)))
    post = BlogPage.objects.get(title="Edited later")
    assert post.first_published_at == datetime(2025, 6, 1, 9, 0, tzinfo=UTC)
    assert post.last_published_at == datetime(2025, 7, 2, 10, 0, tzinfo=UTC)


def test_the_report_leads_with_one_post_in_the_singular(run_import, tmp_path):
    report = run_import(export(tmp_path, item(1, "Alone")))
    assert report.startswith("1 post is live, 0 scheduled, 0 drafts.")


def test_a_long_summary_is_shortened_at_a_sentence_and_reported(run_import, tmp_path):
    long = "The first sentence says what happened. " * 12
    report = run_import(export(tmp_path, item(1, "Wordy", excerpt=long)))
    post = BlogPage.objects.get(title="Wordy")
    assert post.live
    assert len(post.summary) <= SUMMARY_MAX_LENGTH
    assert post.summary.endswith("happened.")
    assert "shortened to end at a sentence or a word" in report


def test_shortening_without_a_sentence_ends_at_a_word():
    text = "word " * 100
    short = shortened(text.strip(), 50)
    assert len(short) <= 50 and short.endswith("word…")
    assert shortened("x" * 80, 50) == "x" * 49 + "…"


def test_a_post_without_an_author_gets_the_blogs_default_byline(run_import, tmp_path, blog):
    BlogIndexPage.objects.filter(pk=blog.pk).update(default_author=make_author("Cedana Editorial"))
    report = run_import(export(tmp_path, item(1, "Anonymous", creator="")))
    post = BlogPage.objects.get(title="Anonymous")
    assert post.live
    assert [a.name for a in post.authors] == ["Cedana Editorial"]
    assert "the blog's default byline, Cedana Editorial" in report


def test_a_missing_pictures_alt_text_is_reported_and_picked_up_once_the_file_is_added(
    run_import, tmp_path
):
    media = tmp_path / "media"
    media.mkdir()
    source = export(
        tmp_path,
        attachment(50, "2020/01/rack.png", "A rack of servers"),
        item(1, "With hero", thumbnail=50),
    )
    report = run_import(source, "--media", str(media))
    post = BlogPage.objects.get(title="With hero")
    assert post.live
    assert post.hero_image is None and post.hero_alt == ""
    assert "its alt text: “A rack of servers”" in report
    draw(media / "wp-content" / "uploads" / "2020" / "01" / "rack.png")
    again = run_import(source, "--media", str(media))
    assert "  updated         1" in again
    post.refresh_from_db()
    assert post.hero_image is not None and post.hero_alt == "A rack of servers"
    assert "  unchanged       1" in run_import(source, "--media", str(media))


def test_a_re_run_still_lists_the_pictures_that_are_still_missing(run_import, tmp_path):
    """A Publisher re-running the import (after adding some pictures, or none) reads which are
    still missing: the post is unchanged, its pictures are still not there."""
    media = tmp_path / "media"
    media.mkdir()
    source = export(
        tmp_path,
        attachment(50, "2020/01/rack.png", "A rack of servers"),
        item(1, "With hero", thumbnail=50),
    )
    first = run_import(source, "--media", str(media))
    assert "1 picture was not in the export" in first.splitlines()[0]
    again = run_import(source, "--media", str(media))
    assert "  unchanged       1" in again
    assert "1 picture was not in the export" in again.splitlines()[0]
    assert "rack.png" in again.split("Pictures not imported")[1]


def test_a_hero_picture_without_alt_text_is_published_and_reported(run_import, tmp_path, media):
    source = export(
        tmp_path, attachment(50, "2020/01/rack.png", ""), item(1, "No alt", thumbnail=50)
    )
    report = run_import(source, "--media", str(media))
    post = BlogPage.objects.get(title="No alt")
    assert post.live and post.hero_image is not None
    assert "Its hero picture has no alt text" in report


def test_a_changed_source_password_applies_on_a_re_run(run_import, tmp_path):
    run_import(export(tmp_path, item(1, "Secret", password="enter")))
    post = BlogPage.objects.get(title="Secret")
    assert post.live
    assert PageViewRestriction.objects.get(page=post).password == "enter"
    report = run_import(export(tmp_path, item(1, "Secret", password="changed"), name="2.xml"))
    assert PageViewRestriction.objects.get(page=post).password == "changed"
    assert "Its password changed in the old blog" in report


def test_a_post_unpublished_in_the_source_is_unpublished_on_a_re_run(run_import, tmp_path):
    run_import(export(tmp_path, item(1, "Withdrawn")))
    assert BlogPage.objects.get(title="Withdrawn").live
    report = run_import(export(tmp_path, item(1, "Withdrawn", status="draft"), name="2.xml"))
    assert not BlogPage.objects.get(title="Withdrawn").live
    assert "no longer published in the export: unpublished" in report


def test_a_post_deleted_in_the_admin_is_not_brought_back(run_import, tmp_path):
    source = export(tmp_path, item(1, "Deleted here"))
    run_import(source)
    BlogPage.objects.get(title="Deleted here").delete()
    changed = export(tmp_path, item(1, "Deleted here", body="<p>New words.</p>"), name="2.xml")
    report = run_import(changed)
    assert not BlogPage.objects.filter(title="Deleted here").exists()
    assert "the post was deleted in the admin" in report


def test_a_scheduled_time_already_passed_publishes_at_once(run_import, tmp_path):
    report = run_import(
        export(tmp_path, item(1, "Was scheduled", status="future", date="2020-02-02 09:00:00"))
    )
    post = BlogPage.objects.get(title="Was scheduled")
    assert post.live
    assert post.first_published_at == datetime(2020, 2, 2, 9, 0, tzinfo=UTC)
    assert "Its scheduled time has passed" in report


@pytest.mark.parametrize("status", ["draft", "pending", "private"])
def test_only_what_the_source_did_not_publish_arrives_unpublished(run_import, tmp_path, status):
    run_import(export(tmp_path, item(1, "Not public", status=status)))
    assert not BlogPage.objects.get(title="Not public").live


def test_a_body_picture_without_alt_text_is_published_and_reported(run_import, tmp_path, media):
    body = f'<p>Words.</p><img src="{OLD}/wp-content/uploads/2020/01/rack.png" alt="">'
    report = run_import(export(tmp_path, item(1, "Body picture", body=body)), "--media", str(media))
    post = BlogPage.objects.get(title="Body picture")
    assert post.live
    assert [block.block_type for block in post.body] == ["paragraph", "image"]
    assert "1 picture in the body has no alt text" in report


def test_one_bad_part_of_a_body_never_fails_the_post(run_import, tmp_path):
    body = (
        '<p>Kept.</p><figure class="wp-block-embed">https://www.youtube.com/watch?v=abc'
        f"<figcaption>{'long caption ' * 30}</figcaption></figure>"
        "<h2></h2><table><tr></tr></table><audio></audio><p>Also kept.</p>"
    )
    report = run_import(export(tmp_path, item(1, "Odd body", body=body)))
    post = BlogPage.objects.get(title="Odd body")
    assert post.live
    assert "failed:" not in report


def test_an_imported_draft_the_editor_schedules_goes_out_dated_as_scheduled(run_import, tmp_path):
    run_import(export(tmp_path, item(2, "Dated draft", status="draft", date="2025-03-10 09:00:00")))
    draft = BlogPage.objects.get(title="Dated draft")
    go_live = datetime(2099, 5, 1, 9, 0, tzinfo=UTC)
    draft.go_live_at = go_live
    draft.save_revision().publish()
    with time_machine.travel(go_live + timedelta(minutes=1), tick=False):
        assert run_pass(interval=30).published == 1
    draft.refresh_from_db()
    assert draft.live
    assert draft.first_published_at == go_live


def test_a_published_post_without_a_date_arrives_live_and_stays_unchanged(run_import, tmp_path):
    # WordPress's own importer tests carry such items (WordPress/wordpress-importer,
    # phpunit/data/backslashes.xml): no wp:post_date_gmt, no wp:post_date, no pubDate.
    undated = item(1, "Undated", date="").replace("<wp:post_date_gmt></wp:post_date_gmt>", "")
    from_feed = item(2, "Feed dated", date="").replace(
        "<wp:post_date_gmt></wp:post_date_gmt>",
        "<pubDate>Thu, 05 Jan 2012 14:30:46 +0000</pubDate>",
    )
    path = export(tmp_path, undated, from_feed)
    report = run_import(path)
    assert report.startswith("2 posts are live")
    assert "It had no date in the export: it is dated the day of the import." in report
    assert BlogPage.objects.get(title="Undated").live
    assert BlogPage.objects.get(title="Feed dated").first_published_at == datetime(
        2012, 1, 5, 14, 30, 46, tzinfo=UTC
    )
    again = run_import(path)
    assert "unchanged       2" in again


def test_items_without_a_type_are_counted_in_words_and_never_stop_the_import(run_import, tmp_path):
    # WordPress's accessibility test export (WordPress/wordpress-importer,
    # phpunit/data/a11y-unit-test-data.xml) has an item with an empty wp:post_type.
    empty = "<item><title>Odd</title><wp:post_id>7</wp:post_id><wp:post_type></wp:post_type></item>"
    missing = "<item><title>Odder</title><wp:post_id>8</wp:post_id></item>"
    menu = "<item><title>Menu</title><wp:post_type>nav_menu_item</wp:post_type></item>"
    report = run_import(export(tmp_path, item(1, "Kept"), empty, missing, menu))
    assert report.startswith("1 post is live")
    assert "2 items without a type, which are not posts." in report
    assert "1 menu items" in report or "1 menu item" in report
    assert "“”" not in report
