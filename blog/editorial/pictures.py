"""The picture library's upload and edit form (WAGTAILIMAGES_IMAGE_FORM_BASE)."""

from home.uploads import ImageForm


class PictureForm(ImageForm):
    """The project's image form (a file read through, live pictures guarded: home/uploads.py)
    with the editor's wording."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "description" in self.fields:
            # Copied into a post's "Hero image alt text" or a picture block's "Alt text" when
            # those are left empty (BlogPage.clean, FigureBlock.clean).
            self.fields["description"].help_text = (
                "Becomes the picture's alt text: describe what it shows for readers who cannot "
                "see it. A post can still give its own alt text where it uses the picture."
            )
