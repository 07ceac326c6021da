"""Gzip for the responses Django builds in memory: pages, feeds, sitemaps, JSON."""

from django.middleware.gzip import GZipMiddleware


class RenderedResponseGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware, minus streamed files. Those are documents from storage, mostly
    already compressed (PDF, zip, docx); gzipping them on the fly costs CPU for nothing and
    drops the Content-Length a browser needs to show a download's progress."""

    def process_response(self, request, response):
        if response.streaming:
            return response
        return super().process_response(request, response)
