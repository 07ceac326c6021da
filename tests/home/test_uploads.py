"""What an editor may upload, and how uploaded documents reach readers."""

import io
import os
import struct
import zipfile
import zlib

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from PIL import Image as PILImage
from wagtail.documents.models import Document
from wagtail.images.models import Image

from tests.blog.importing.conftest import FIXTURES
from tests.blog.scheduling import make_user

WPTEST = FIXTURES / "real" / "wptest" / "wptest.xml"


def png_declaring(width, height):
    """A few hundred bytes whose header claims a picture of width × height pixels."""

    def chunk(kind, data):
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def upload_image(client, name, content, content_type="image/png"):
    return client.post(
        "/admin/images/add/",
        {"title": name, "file": SimpleUploadedFile(name, content, content_type=content_type)},
    )


@pytest.mark.django_db
def test_a_pixel_flood_png_is_refused_with_a_form_error(admin_client):
    flood = png_declaring(60000, 60000)
    assert len(flood) < 1000
    response = upload_image(admin_client, "flood.png", flood)
    assert response.status_code == 200
    assert "too many pixels" in response.content.decode()
    assert not Image.objects.exists()


@pytest.mark.django_db
def test_an_svg_cannot_be_uploaded_as_an_image(admin_client):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'
    response = upload_image(admin_client, "logo.svg", svg, "image/svg+xml")
    assert response.status_code == 200
    assert "Not a supported image format" in response.content.decode()
    assert not Image.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("trick.gif", b"GIF89a<script>alert(1)</script>"),
        ("trick.gif", b"GIF89a<script>"),
        ("trick.png", b"\x89PNG\r\n\x1a\n<script>"),
        ("trick.jpg", b"\xff\xd8\xff<script>"),
        ("trick.webp", b"RIFF\x00\x00\x00\x00WEBP<script>"),
    ],
)
def test_a_file_that_only_starts_like_a_picture_is_a_form_error(admin_client, name, content):
    response = upload_image(admin_client, name, content, "image/gif")
    assert response.status_code == 200
    assert "Upload a valid image" in response.content.decode()
    # The multiple upload (drag and drop) uses the same form.
    response = admin_client.post(
        "/admin/images/multiple/add/",
        {"files[]": SimpleUploadedFile(name, content, content_type="image/gif")},
    )
    assert response.status_code == 200
    assert response.json()["success"] is False
    assert not Image.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notes.html", b"<script>alert(document.cookie)</script>"),
        ("diagram.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ],
)
def test_documents_that_a_browser_could_run_are_downloaded_never_shown(client, name, content):
    # Such files could predate the extension allow-list, or come in through an import.
    document = Document.objects.create(title=name, file=ContentFile(content, name=name))
    response = client.get(document.url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_every_allowed_document_type_downloads_even_a_pdf(client, settings):
    for extension in settings.WAGTAILDOCS_EXTENSIONS:
        name = f"report.{extension}"
        document = Document.objects.create(title=name, file=ContentFile(b"%PDF-1.4\n", name=name))
        response = client.get(document.url)
        assert response.status_code == 200
        disposition = response["Content-Disposition"]
        assert disposition.startswith("attachment; filename="), (extension, disposition)
        assert document.filename in disposition
    assert "pdf" in settings.WAGTAILDOCS_EXTENSIONS


@pytest.mark.django_db
def test_html_is_not_an_allowed_document_type(admin_client):
    response = admin_client.post(
        "/admin/documents/add/",
        {"title": "page", "file": SimpleUploadedFile("page.html", b"<p>hi</p>")},
    )
    assert response.status_code == 200
    assert not Document.objects.exists()


MB = 1024 * 1024


def noise_png(megabytes):
    """A PNG of random pixels, which do not compress: about `megabytes` MB on disk."""
    side = int((megabytes * MB / 3) ** 0.5)
    buffer = io.BytesIO()
    PILImage.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(buffer, "PNG")
    return buffer.getvalue()


def post_form(client, path, fields):
    """A browser's multipart POST; returns the response and the body stream the server got."""
    payload = encode_multipart(BOUNDARY, fields)
    body = io.BytesIO(payload)
    response = client.generic("POST", path, payload, MULTIPART_CONTENT, **{"wsgi.input": body})
    return response, body


@pytest.fixture
def editor_client(client, db):
    editor = User.objects.create_user("editor", "editor@example.com", "x")
    editor.groups.add(Group.objects.get(name="Editors"))
    client.force_login(editor)
    return client


@pytest.mark.django_db
def test_thirty_megabytes_posted_to_the_sign_in_form_are_refused_unread(client):
    fields = {"username": "x", "password": "y", "file": SimpleUploadedFile("big", bytes(30 * MB))}
    response, body = post_form(client, "/admin/login/", fields)
    assert response.status_code == 413
    assert "too large" in response.content.decode()
    # Not a byte read, so nothing was spooled to a temporary file.
    assert body.tell() == 0


@pytest.mark.django_db
def test_an_editor_uploads_a_five_megabyte_image(editor_client, settings):
    png = noise_png(5)
    assert len(png) > settings.MAX_REQUEST_BODY
    response = upload_image(editor_client, "noise.png", png)
    assert response.status_code == 302
    assert Image.objects.get().file.size == len(png)


@pytest.mark.django_db
def test_a_signed_in_reader_gets_only_the_small_cap(client):
    client.force_login(User.objects.create_user("reader", "reader@example.com", "x"))
    file = SimpleUploadedFile("noise.png", noise_png(3))
    response, body = post_form(client, "/admin/images/add/", {"title": "big", "file": file})
    assert response.status_code == 413
    assert body.tell() == 0


@pytest.mark.django_db
def test_an_editor_is_held_to_the_editor_cap(editor_client, settings):
    settings.MAX_EDITOR_REQUEST_BODY = 3 * MB
    file = SimpleUploadedFile("noise.png", noise_png(4))
    response, _ = post_form(editor_client, "/admin/images/add/", {"title": "big", "file": file})
    assert response.status_code == 413
    assert not Image.objects.exists()


def export_with_pictures(megabytes):
    """A real WordPress export zipped with a picture of `megabytes` MB, as a Publisher sends
    a blog with its uploads."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.write(WPTEST, "blog/wptest.xml")
        archive.writestr("blog/uploads/2013/03/noise.png", noise_png(megabytes))
    return SimpleUploadedFile("blog.zip", data.getvalue())


@pytest.mark.django_db
def test_a_publisher_sends_an_export_with_its_pictures_over_the_editor_cap(client, blog, settings):
    settings.MAX_EDITOR_REQUEST_BODY = 3 * MB
    client.force_login(make_user("petra", group="Publishers"))
    response, _ = post_form(client, "/admin/blog/import/", {"export": export_with_pictures(4)})
    assert response.status_code == 302
    assert "Would be created" in client.get(response["Location"]).content.decode()
    # Only the export upload takes that much; an image is held to the editor cap.
    file = SimpleUploadedFile("noise.png", noise_png(4))
    response, body = post_form(client, "/admin/images/add/", {"title": "big", "file": file})
    assert response.status_code == 413 and body.tell() == 0


@pytest.mark.django_db
def test_an_editor_sending_an_export_is_held_to_the_editor_cap(editor_client, blog, settings):
    settings.MAX_EDITOR_REQUEST_BODY = 3 * MB
    fields = {"export": export_with_pictures(4)}
    response, body = post_form(editor_client, "/admin/blog/import/", fields)
    assert response.status_code == 413 and body.tell() == 0
