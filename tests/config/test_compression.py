"""Reader pages travel gzip-compressed to browsers that ask for it, and plain to those that don't,
whether the page comes from the view or from the page cache."""

import gzip
import io

import pytest
from django.core.files.base import ContentFile
from django.http import FileResponse
from wagtail.documents.models import Document

from config.compression import RenderedResponseGZipMiddleware
from tests.factories import publish_post

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


@pytest.fixture
def post(blog, author, topic):
    return publish_post(blog, "Checkpointing a cluster", authors=[author], topics=[topic])


def vary(response):
    return {part.strip().lower() for part in response.get("Vary", "").split(",")}


def test_the_blog_index_comes_compressed_to_a_browser_that_accepts_gzip(client, post):
    plain = client.get("/blog/")
    packed = client.get("/blog/", **GZIP)
    assert packed["Content-Encoding"] == "gzip"
    assert "accept-encoding" in vary(packed)
    html = gzip.decompress(packed.content).decode()
    assert "Checkpointing a cluster" in html
    assert len(packed.content) < len(plain.content) / 2
    assert int(packed["Content-Length"]) == len(packed.content)


def test_a_client_without_gzip_gets_plain_html_that_says_it_varies(client, post):
    response = client.get("/blog/")
    assert not response.has_header("Content-Encoding")
    assert "accept-encoding" in vary(response)
    assert "Checkpointing a cluster" in response.content.decode()


def test_the_page_cache_stores_plain_html_and_compresses_once_per_request(client, post, page_cache):
    """A page first fetched by a gzip browser must still be readable HTML for the next reader
    whose client does not take gzip, and never compressed twice."""
    first = client.get(post.url, **GZIP)
    assert first["X-Cache"] == "MISS"
    plain_hit = client.get(post.url)
    assert plain_hit["X-Cache"] == "HIT"
    assert not plain_hit.has_header("Content-Encoding")
    assert plain_hit.content.decode().lstrip().lower().startswith("<!doctype html>")
    assert "accept-encoding" in vary(plain_hit)
    packed_hit = client.get(post.url, **GZIP)
    assert packed_hit["X-Cache"] == "HIT"
    assert packed_hit["Content-Encoding"] == "gzip"
    # One layer only: what comes out of one decompression is the page itself.
    assert gzip.decompress(packed_hit.content) == plain_hit.content
    assert gzip.decompress(first.content) == plain_hit.content


def test_a_document_download_keeps_its_size_and_is_not_gzipped(client):
    content = b"%PDF-1.7\n" + bytes(range(256)) * 64
    document = Document.objects.create(title="Report", file=ContentFile(content, name="report.pdf"))
    response = client.get(document.url, **GZIP)
    assert response.status_code == 200
    assert response.get("Content-Encoding") != "gzip"
    assert int(response["Content-Length"]) == len(content)
    assert b"".join(response.streaming_content) == content


def test_streamed_files_are_never_gzipped_on_the_fly(rf):
    """Streamed files are documents, mostly already compressed (PDF, zip, docx): gzipping them
    costs CPU for nothing and drops the size a browser shows for a download. (Wagtail's own
    document view happens to dodge gzip today by sending "Content-Encoding: None".)"""
    content = b"%PDF-1.7\n" + bytes(range(256)) * 64
    middleware = RenderedResponseGZipMiddleware(
        lambda request: FileResponse(io.BytesIO(content), filename="report.pdf")
    )
    response = middleware(rf.get("/documents/1/report.pdf", **GZIP))
    assert not response.has_header("Content-Encoding")
    assert int(response["Content-Length"]) == len(content)
    assert b"".join(response.streaming_content) == content
