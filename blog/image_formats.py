"""The picture formats of rich text, which Wagtail looks for in this module: one, full width
(blog/rich_text.py), instead of Wagtail's full width, left and right, whose floats leave a few
words beside a picture on a phone."""

from wagtail.images.formats import register_image_format, unregister_image_format

from .rich_text import TextPicture

for name in ("fullwidth", "left", "right"):
    unregister_image_format(name)
# The name Wagtail's own full-width format has, so text stored with it keeps its picture; the
# size is only the editor's preview.
register_image_format(TextPicture("fullwidth", "Full width", "", "width-800"))
