"""Limits and errors for untrusted exports."""

from django.conf import settings

# An export is text: a blog of several thousand posts is a few tens of megabytes.
MAX_EXPORT_BYTES = 200 * 1024 * 1024
# A zip's pictures and texts together, unpacked: a zip bomb stops here.
MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024
SAFE_LINK_SCHEMES = ("http://", "https://", "mailto:", "tel:", "/", "#", "?")


class ExportError(Exception):
    """An export that cannot be read; the message names the item and line where it can."""


def max_picture_bytes():
    return settings.WAGTAILIMAGES_MAX_UPLOAD_SIZE


def check_size(size, what):
    if size > MAX_EXPORT_BYTES:
        raise ExportError(
            f"{what} is {size // (1024 * 1024)} MB; the largest export accepted is "
            f"{MAX_EXPORT_BYTES // (1024 * 1024)} MB."
        )


def safe_href(href):
    """Whether a link may stay: web, mail and phone links and addresses on this site. Anything
    else (javascript:, data:, vbscript: …) is removed, keeping the link's words."""
    value = "".join(href.split()).lower()  # "java\nscript:" is still javascript:
    return value.startswith(SAFE_LINK_SCHEMES)
