"""Exports are untrusted: zips, pictures and failures handled without half-written posts."""

import tracemalloc
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError
from wagtail.contrib.redirects.models import Redirect

from blog.editorial.roles import PUBLISHERS
from blog.importing import importer, pictures
from blog.models import BlogPage
from tests.blog.scheduling import make_user

from .conftest import FIXTURES, draw

WXR = FIXTURES / "wordpress.xml"


def test_a_zip_with_the_export_and_its_pictures(run_import, tmp_path):
    picture = draw(tmp_path / "rack.png")
    bundle = tmp_path / "export.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.write(WXR, "wordpress.xml")
        archive.write(picture, "wp-content/uploads/2020/01/rack.png")
    run_import(bundle)
    assert BlogPage.objects.get(slug="hello-world").hero_image is not None


def test_a_zip_that_writes_outside_its_folder_is_refused(run_import, tmp_path):
    bundle = tmp_path / "evil.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("../../escaped.xml", "<rss/>")
    with pytest.raises(CommandError, match="a file outside its folder"):
        run_import(bundle)
    assert not (tmp_path / "escaped.xml").exists()


def test_a_picture_larger_than_uploads_may_be_is_reported(run_import, media, settings):
    settings.WAGTAILIMAGES_MAX_UPLOAD_SIZE = 100
    size = (media / "wp-content/uploads/2020/01/rack.png").stat().st_size
    report = run_import(WXR, "--media", str(media))
    assert f"rack.png is {size} bytes; pictures may be at most 100 bytes" in report
    # Published without it: the picture is the report's business, not the post's.
    hello = BlogPage.objects.get(slug="hello-world")
    assert hello.live and hello.hero_image is None


def test_a_picture_larger_than_uploads_may_be_in_a_zip_is_left_packed(
    run_import, tmp_path, settings
):
    settings.WAGTAILIMAGES_MAX_UPLOAD_SIZE = 2 * 1024
    bundle = tmp_path / "export.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.write(WXR, "wordpress.xml")
        archive.write(draw(tmp_path / "big.png", (900, 900)), "wp-content/uploads/2020/01/rack.png")
    report = run_import(bundle)
    assert (
        "wp-content/uploads/2020/01/rack.png is larger than 2 KB; pictures may be at most 2 KB"
        in report
    )
    assert BlogPage.objects.get(slug="hello-world").hero_image is None


@pytest.fixture(scope="module")
def zip_bomb(tmp_path_factory):
    """A 4.5 MB zip whose export unpacks to 1 GB of zeros, written a megabyte at a time."""
    bundle = tmp_path_factory.mktemp("bomb") / "export.zip"
    with (
        zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open("wordpress.xml", "w", force_zip64=True) as member,
    ):
        zeros = bytes(1024 * 1024)
        for _ in range(1024):
            member.write(zeros)
    return bundle


def peak_memory_while(call):
    """The most memory Python held during `call`, above what it held before, in bytes."""
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start


def test_a_zip_bomb_is_refused_within_bounded_memory(run_import, zip_bomb):
    def refused():
        with pytest.raises(CommandError, match="wordpress.xml in the zip is larger than 200 MB"):
            run_import(zip_bomb)

    assert peak_memory_while(refused) < 100 * 1024 * 1024
    assert not BlogPage.objects.exists()


def test_a_zip_bomb_uploaded_in_the_admin_is_explained(client, blog, zip_bomb):
    client.force_login(make_user("petra", group=PUBLISHERS))
    upload = SimpleUploadedFile("export.zip", zip_bomb.read_bytes())
    response = client.post("/admin/blog/import/", {"export": upload}, follow=True)
    assert response.status_code == 200
    assert "wordpress.xml in the zip is larger than 200 MB" in response.content.decode()


def test_a_zip_over_the_total_unpacked_size_is_refused(run_import, tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "MAX_UNPACKED_BYTES", 2 * 1024 * 1024)
    bundle = tmp_path / "export.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("wordpress.xml", WXR.read_bytes())
        for n in range(3):
            archive.writestr(f"wp-content/uploads/{n}.png", bytes(1024 * 1024))
    with pytest.raises(CommandError, match="The zip unpacks to more than 2 MB; it was refused."):
        run_import(bundle)


def test_a_damaged_zip_is_explained(run_import, tmp_path):
    bundle = tmp_path / "export.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("wordpress.xml", WXR.read_bytes())
    data = bytearray(bundle.read_bytes())
    data[60:80] = bytes(20)  # inside the compressed export
    bundle.write_bytes(bytes(data))
    with pytest.raises(CommandError, match="The zip cannot be read"):
        run_import(bundle)


def test_a_summary_over_the_limit_is_shortened_at_a_word_and_reported(run_import, media, tmp_path):
    long = "Word " * 100
    export = tmp_path / "ghost.json"
    export.write_text((FIXTURES / "ghost-v5.json").read_text().replace("A Ghost summary.", long))
    report = run_import(export, "--media", str(media))
    post = BlogPage.objects.get(slug="ghost-post")
    assert post.live
    assert len(post.summary) <= 300 and post.summary.endswith("Word…")
    assert "Its summary had 499 characters and the limit is 300: shortened" in report


def test_a_failing_post_leaves_nothing_behind_and_is_named(run_import, media, monkeypatch):
    real = importer.set_featured

    def failing(post, user, featured):
        # The post's last step: it was saved, published and its old addresses redirected.
        if post.slug == "hello-world":
            raise ValueError("the featured post could not be saved")
        return real(post, user, featured)

    monkeypatch.setattr(importer, "set_featured", failing)
    report = run_import(WXR, "--media", str(media))
    assert (
        "failed: “Hello, world & friends” [10] (line 20) — the featured post could not be saved"
        in report
    )
    assert not BlogPage.objects.filter(slug="hello-world").exists()
    assert not Redirect.objects.filter(old_path="/2020/01/hello-world").exists()
    assert BlogPage.objects.filter(slug="team-only").exists()
    monkeypatch.setattr(importer, "set_featured", real)
    second = run_import(WXR, "--media", str(media))
    assert "  created         1" in second
    assert BlogPage.objects.get(slug="hello-world").live
