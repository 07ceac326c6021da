"""The blocks an editor builds a post body from. Each block renders with its own template
in templates/blocks/."""

import html
import re

from django.core.exceptions import ValidationError
from django.utils.functional import cached_property
from django.utils.html import strip_tags
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from wagtail import blocks
from wagtail.contrib.typed_table_block.blocks import TypedTableBlock
from wagtail.embeds.blocks import EmbedBlock
from wagtail.images.blocks import ImageChooserBlock

RICH_TEXT_FEATURES = [
    "bold",
    "italic",
    "link",
    "document-link",
    "ol",
    "ul",
    "code",
    "superscript",
    "subscript",
    "strikethrough",
]
# What a post's text holds: everything Wagtail's rich text can, written as in one document
# (Markdown shortcuts and the "/" menu included). What needs fields of its own, such as code
# with a language, tables, callouts and captioned pictures, stays a block.
TEXT_FEATURES = ["h2", "h3", "h4", *RICH_TEXT_FEATURES, "blockquote", "hr", "image", "embed"]

CODE_LANGUAGES = [
    ("bash", "Shell"),
    ("python", "Python"),
    ("go", "Go"),
    ("rust", "Rust"),
    ("c", "C"),
    ("cpp", "C++"),
    ("javascript", "JavaScript"),
    ("typescript", "TypeScript"),
    ("json", "JSON"),
    ("yaml", "YAML"),
    ("toml", "TOML"),
    ("sql", "SQL"),
    ("dockerfile", "Dockerfile"),
    ("text", "Plain text"),
]


def heading_anchor(words):
    """The id readers link a heading by: "Set up the cluster" is #set-up-the-cluster."""
    return slugify(words)[:80]


class HeadingBlock(blocks.StructBlock):
    text = blocks.CharBlock(max_length=200, help_text="The section heading readers see.")
    anchor = blocks.CharBlock(
        required=False,
        max_length=80,
        help_text="Optional link target, e.g. 'setup' lets readers link to #setup. "
        "Leave empty to make one from the heading.",
    )

    def get_context(self, value, parent_context=None):
        context = super().get_context(value, parent_context)
        context["anchor_id"] = heading_anchor(value.get("anchor") or value.get("text") or "")
        return context

    class Meta:
        icon = "title"
        template = "blocks/heading_block.html"


# A heading written in the text, as Wagtail renders rich text (headings hold only inline markup).
TEXT_HEADING = re.compile(r"<(h[2-4])([^>]*)>(.*?)</\1>", re.S)


def with_heading_anchors(rendered):
    """Rendered rich text whose headings readers can link to, as they link to a heading block's:
    an id made from the words and a "#" link beside them."""

    def anchored(match):
        tag, attributes, words = match.groups()
        anchor = heading_anchor(html.unescape(strip_tags(words)))
        if not anchor:
            return match.group(0)
        return (
            f'<{tag} id="{anchor}" class="prose__heading"{attributes}>{words} <a class="anchor-link" '
            f'href="#{anchor}" aria-label="Link to this section">#</a></{tag}>'
        )

    # Wagtail rendered the rich text; a slug adds only letters, digits, "-" and "_".
    return mark_safe(TEXT_HEADING.sub(anchored, str(rendered)))  # noqa: S308


class ParagraphBlock(blocks.RichTextBlock):
    """A post's text, where an editor writes headings, lists, quotes, pictures and embeds."""

    def __init__(self, **kwargs):
        super().__init__(features=TEXT_FEATURES, **kwargs)

    def get_context(self, value, parent_context=None):
        context = super().get_context(value, parent_context)
        context["text"] = with_heading_anchors(value)
        return context

    class Meta:
        icon = "pilcrow"
        label = "Text"
        template = "blocks/paragraph_block.html"


class FigureValue(blocks.StructValue):
    @property
    def alt(self):
        """What a screen reader says: nothing for a decorative picture; otherwise the alt text,
        or the image's description from the library for figures saved before it was copied."""
        if self.get("decorative"):
            return ""
        image = self.get("image")
        return self.get("alt_text") or (image.description if image else "")


class FigureBlock(blocks.StructBlock):
    image = ImageChooserBlock(help_text="Choose or upload the picture.")
    alt_text = blocks.TextBlock(
        required=False,
        max_length=1000,
        help_text="Describe what the picture shows for readers who cannot see it. Left empty, "
        "the description given to the image in the library is used when you save.",
    )
    decorative = blocks.BooleanBlock(
        required=False,
        default=False,
        label="Decorative picture",
        help_text="Tick only if the picture adds nothing a reader would miss, such as an "
        "ornament; screen readers then skip it and it needs no alt text.",
    )
    caption = blocks.CharBlock(
        required=False, max_length=300, help_text="Optional line shown under the picture."
    )

    def clean(self, value):
        image = value.get("image")
        if image and not (value.get("alt_text") or "").strip() and not value.get("decorative"):
            # The description typed at upload says what the picture shows: the editor should
            # not have to type it twice.
            value["alt_text"] = image.description
        value = super().clean(value)
        missing_alt = not (value.get("alt_text") or "").strip() and not value.get("decorative")
        # A draft may wait, as Wagtail's required fields do; publishing may not.
        if value.get("image") and missing_alt and not self.is_deferred_validation:
            raise blocks.StructBlockValidationError(
                block_errors={
                    "alt_text": ValidationError(
                        "Describe the picture for readers who cannot see it, or tick "
                        "“Decorative picture” if it adds nothing they would miss."
                    )
                }
            )
        return value

    class Meta:
        icon = "image"
        # Named apart from the text's own inline "Image", which the "/" menu lists too.
        label = "Picture with caption"
        template = "blocks/figure_block.html"
        value_class = FigureValue


class QuoteBlock(blocks.StructBlock):
    quote = blocks.TextBlock(help_text="The words being quoted, without quotation marks.")
    attribution = blocks.CharBlock(
        required=False, max_length=200, help_text="Who said or wrote it (optional)."
    )

    class Meta:
        icon = "openquote"
        template = "blocks/quote_block.html"


class CodeValue(blocks.StructValue):
    @cached_property
    def highlighted(self):
        """The code as HTML, coloured on the server so readers need no script."""
        try:
            lexer = get_lexer_by_name(self.get("language") or "text")
        except ClassNotFound:
            lexer = get_lexer_by_name("text")
        formatter = HtmlFormatter(nowrap=True)
        # Pygments escapes the source itself; the output is safe markup.
        return mark_safe(highlight(self.get("code") or "", lexer, formatter))  # noqa: S308

    def language_label(self):
        return dict(CODE_LANGUAGES).get(self.get("language"), "")


class CodeBlock(blocks.StructBlock):
    language = blocks.ChoiceBlock(
        choices=CODE_LANGUAGES, default="bash", help_text="Used to colour the code."
    )
    code = blocks.TextBlock(help_text="Paste the code exactly as it should appear.")
    caption = blocks.CharBlock(
        required=False, max_length=200, help_text="Optional file name or note."
    )

    class Meta:
        icon = "code"
        template = "blocks/code_block.html"
        value_class = CodeValue


class CalloutBlock(blocks.StructBlock):
    kind = blocks.ChoiceBlock(
        choices=[("note", "Note"), ("tip", "Tip"), ("warning", "Warning")],
        default="note",
        help_text="Sets the colour and label of the box.",
    )
    title = blocks.CharBlock(required=False, max_length=120, help_text="Optional short heading.")
    body = blocks.RichTextBlock(
        features=RICH_TEXT_FEATURES, help_text="What the reader should note."
    )

    class Meta:
        icon = "warning"
        template = "blocks/callout_block.html"


TABLE_CELL_FEATURES = ["bold", "italic", "link", "code"]
# A cell that reads as a number: "1,024", "-3.5", "99.9 %", "€12". Such columns align right.
NUMBER = re.compile(r"[+\-\u2212]?[$€£]?\s?\d[\d\s,.\u202f]*\s?%?")


class TableBlock(blocks.StructBlock):
    caption = blocks.CharBlock(
        required=False, max_length=200, help_text="Say what the table shows (helps screen readers)."
    )
    # One kind of cell: static/js/table-editor.js takes the column-type menu's only choice, and
    # static/css/table-editor.css hides Wagtail's second caption box (both from editor_hooks).
    table = TypedTableBlock(
        [("rich_text", blocks.RichTextBlock(label="Text", features=TABLE_CELL_FEATURES))],
        help_text=(
            "Add a column with “Add column”, then rows with “Add row”. The column headings "
            "are the table’s header; a column of numbers lines up on the right."
        ),
    )

    def get_context(self, value, parent_context=None):
        context = super().get_context(value, parent_context)
        context["number_columns"] = number_columns(value["table"])
        return context

    class Meta:
        icon = "table"
        template = "blocks/table_block.html"


def number_columns(table):
    """The positions of the columns whose every filled cell reads as a number."""
    texts = [[_cell_text(value) for value in row["values"]] for row in table.row_data]
    return {
        index
        for index in range(len(table.columns))
        if any(row[index] for row in texts)
        and all(NUMBER.fullmatch(row[index]) for row in texts if row[index])
    }


def _cell_text(value):
    return html.unescape(strip_tags(str(getattr(value, "source", value) or ""))).strip()


class VideoEmbedBlock(blocks.StructBlock):
    embed = EmbedBlock(help_text="Paste a link to a video or post (YouTube, Vimeo, …).")
    caption = blocks.CharBlock(required=False, max_length=200, help_text="Optional line under it.")

    class Meta:
        icon = "media"
        # Named apart from the text's own inline "Embed", which the "/" menu lists too.
        label = "Video or post with caption"
        template = "blocks/embed_block.html"


class BodyBlock(blocks.StreamBlock):
    heading = HeadingBlock()
    paragraph = ParagraphBlock()
    image = FigureBlock()
    quote = QuoteBlock()
    code = CodeBlock()
    callout = CalloutBlock()
    table = TableBlock()
    embed = VideoEmbedBlock()
