"""What an editor may upload, and how uploaded documents reach readers."""

import struct
import zlib

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from wagtail.documents.models import Document
from wagtail.images.models import Image


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
def test_html_is_not_an_allowed_document_type(admin_client):
    response = admin_client.post(
        "/admin/documents/add/",
        {"title": "page", "file": SimpleUploadedFile("page.html", b"<p>hi</p>")},
    )
    assert response.status_code == 200
    assert not Document.objects.exists()
