"""Limits and errors for untrusted exports."""

from django.conf import settings

# An export is text: a blog of several thousand posts is a few tens of megabytes.
MAX_EXPORT_BYTES = 200 * 1024 * 1024
# A zip's pictures and texts together, unpacked: a zip bomb stops here. Counted as the members
# are read, never taken from the zip's own headers, which a hostile zip writes as it likes.
MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024
SAFE_LINK_SCHEMES = ("http://", "https://", "mailto:", "tel:", "/", "#", "?")


class ExportError(Exception):
    """An export that cannot be read; the message names the item and line where it can."""


def max_picture_bytes():
    return settings.WAGTAILIMAGES_MAX_UPLOAD_SIZE


def readable_size(size):
    """A size as people read it: 912 bytes, 34 KB, 2.5 MB, 10 MB."""
    if size < 1024:
        return f"{size} bytes"
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024 or unit == "GB":
            return f"{size:.1f} {unit}".replace(".0 ", " ")
    return None  # unreachable: GB ends the loop


def check_size(size, what):
    if size > MAX_EXPORT_BYTES:
        raise ExportError(
            f"{what} is {readable_size(size)}; the largest export accepted is "
            f"{readable_size(MAX_EXPORT_BYTES)}."
        )


def safe_href(href):
    """Whether a link may stay: web, mail and phone links and addresses on this site. Anything
    else (javascript:, data:, vbscript: …) is removed, keeping the link's words."""
    value = "".join(href.split()).lower()  # "java\nscript:" is still javascript:
    return value.startswith(SAFE_LINK_SCHEMES)
