"""Pictures and embeds placed in a post's text look as the picture and embed blocks do, without
a caption: the same responsive renditions, alt text and content-check marker
(templates/blocks/figure_block.html), the same frame and fallback link
(templates/blocks/embed_block.html). Wagtail's own rich-text picture is one 800 px wide file.
"""

from django.template.loader import render_to_string
from wagtail.embeds.rich_text import MediaEmbedHandler
from wagtail.images.formats import Format

FIGURE_TEMPLATE = "blocks/figure_block.html"
EMBED_TEMPLATE = "blocks/embed_block.html"


class TextPicture(Format):
    """The one way a picture sits in the text: the text's full width."""

    def image_to_editor_html(self, image, alt_text):
        # What the chooser answers with, which Draftail does not show: Wagtail's one file, not
        # the renditions readers get.
        return super().image_to_html(image, alt_text, self.editor_attributes(image, alt_text))

    def image_to_html(self, image, alt_text, extra_attributes=None):
        # Wagtail's insertion form asks for alt text unless "Image is decorative" is ticked,
        # which saves it empty.
        figure = {"image": image, "alt": alt_text, "decorative": not alt_text, "caption": ""}
        return render_to_string(FIGURE_TEMPLATE, {"value": figure})


class TextEmbedHandler(MediaEmbedHandler):
    @staticmethod
    def expand_db_attributes(attrs):
        return render_to_string(EMBED_TEMPLATE, {"value": {"embed": {"url": attrs["url"]}}})
