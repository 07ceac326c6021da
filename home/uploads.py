"""The picture and document forms: a file that only starts like a picture is a form error, not
a 500, and a file that live content uses is replaced only by someone who may publish it."""

from django.core.exceptions import ValidationError
from wagtail.documents.forms import BaseDocumentForm
from wagtail.images.fields import WagtailImageField
from wagtail.images.forms import BaseImageForm

from .live_media import LiveFileGuard


class ReadableImageField(WagtailImageField):
    """Willow names a file's format from its first bytes alone, so "GIF89a<script>" passes as
    a GIF until Pillow reads its size and raises. A file Pillow cannot read is no picture."""

    def check_image_pixel_size(self, f):
        try:
            super().check_image_pixel_size(f)
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            # UnidentifiedImageError and truncated files are OSErrors.
            raise ValidationError(
                self.error_messages["invalid_image"], code="invalid_image"
            ) from error


class ImageForm(LiveFileGuard, BaseImageForm):
    """Wagtail's image form (WAGTAILIMAGES_IMAGE_FORM_BASE) with the file read through."""

    file = ReadableImageField(label="File", widget=BaseImageForm.Meta.widgets["file"])


class DocumentForm(LiveFileGuard, BaseDocumentForm):
    """Wagtail's document form (WAGTAILDOCS_DOCUMENT_FORM_BASE)."""
