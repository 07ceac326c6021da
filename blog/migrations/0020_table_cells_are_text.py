"""A post's table has one kind of cell, a line of rich text, and one caption (issue #33, point 7).

Plain text and number cells become a rich-text paragraph, which reads the same: a table cell's
paragraph has no margin (static/css/site.css). A caption typed into Wagtail's own table
caption, which readers never saw and the editor no longer shows, moves to the block's caption
when that is empty. Every revision is converted, not only the latest: History compares and
reverts to old ones."""

import datetime
from decimal import Decimal, InvalidOperation
from html import escape

import wagtail.fields
from django.db import migrations
from wagtail.blocks.migrations.migrate_operation import MigrateStreamData
from wagtail.blocks.migrations.operations import BaseBlockOperation


def cell_to_rich_text(cell_type, value):
    if cell_type == "rich_text":
        return value
    if value is None or value == "":
        return ""
    if cell_type == "number":
        try:
            value = Decimal(str(value))
        except InvalidOperation:
            pass
    return f"<p>{escape(str(value))}</p>"


class OneKindOfTableCell(BaseBlockOperation):
    """Applied to each raw TableBlock value: {"caption": …, "table": {columns, rows, caption}}."""

    def apply(self, block_value):
        table = dict(block_value.get("table") or {})
        columns = table.get("columns") or []
        types = [column.get("type", "rich_text") for column in columns]
        table["columns"] = [{**column, "type": "rich_text"} for column in columns]
        table["rows"] = [
            {
                **row,
                "values": [
                    cell_to_rich_text(cell_type, value)
                    for cell_type, value in zip(types, row.get("values", []), strict=False)
                ],
            }
            for row in table.get("rows") or []
        ]
        caption = block_value.get("caption") or table.get("caption") or ""
        table["caption"] = ""
        return {**block_value, "caption": caption, "table": table}

    @property
    def operation_name_fragment(self):
        return "one_kind_of_table_cell"


class Migration(migrations.Migration):
    dependencies = [
        ("blog", "0019_text_block_is_full_rich_text"),
        ("wagtailcore", "0098_apitoken"),
    ]

    operations = [
        migrations.AlterField(
            model_name="blogpage",
            name="body",
            field=wagtail.fields.StreamField([('heading', 2), ('paragraph', 3), ('image', 8), ('quote', 11), ('code', 15), ('callout', 19), ('table', 23), ('embed', 26)], block_lookup={0: ('wagtail.blocks.CharBlock', (), {'help_text': 'The section heading readers see.', 'max_length': 200}), 1: ('wagtail.blocks.CharBlock', (), {'help_text': "Optional link target, e.g. 'setup' lets readers link to #setup. Leave empty to make one from the heading.", 'max_length': 80, 'required': False}), 2: ('wagtail.blocks.StructBlock', [[('text', 0), ('anchor', 1)]], {}), 3: ('blog.blocks.ParagraphBlock', (), {}), 4: ('wagtail.images.blocks.ImageChooserBlock', (), {'help_text': 'Choose or upload the picture.'}), 5: ('wagtail.blocks.TextBlock', (), {'help_text': 'Describe what the picture shows for readers who cannot see it. Left empty, the description given to the image in the library is used when you save.', 'max_length': 1000, 'required': False}), 6: ('wagtail.blocks.BooleanBlock', (), {'default': False, 'help_text': 'Tick only if the picture adds nothing a reader would miss, such as an ornament; screen readers then skip it and it needs no alt text.', 'label': 'Decorative picture', 'required': False}), 7: ('wagtail.blocks.CharBlock', (), {'help_text': 'Optional line shown under the picture.', 'max_length': 300, 'required': False}), 8: ('wagtail.blocks.StructBlock', [[('image', 4), ('alt_text', 5), ('decorative', 6), ('caption', 7)]], {}), 9: ('wagtail.blocks.TextBlock', (), {'help_text': 'The words being quoted, without quotation marks.'}), 10: ('wagtail.blocks.CharBlock', (), {'help_text': 'Who said or wrote it (optional).', 'max_length': 200, 'required': False}), 11: ('wagtail.blocks.StructBlock', [[('quote', 9), ('attribution', 10)]], {}), 12: ('wagtail.blocks.ChoiceBlock', [], {'choices': [('bash', 'Shell'), ('python', 'Python'), ('go', 'Go'), ('rust', 'Rust'), ('c', 'C'), ('cpp', 'C++'), ('javascript', 'JavaScript'), ('typescript', 'TypeScript'), ('json', 'JSON'), ('yaml', 'YAML'), ('toml', 'TOML'), ('sql', 'SQL'), ('dockerfile', 'Dockerfile'), ('text', 'Plain text')], 'help_text': 'Used to colour the code.'}), 13: ('wagtail.blocks.TextBlock', (), {'help_text': 'Paste the code exactly as it should appear.'}), 14: ('wagtail.blocks.CharBlock', (), {'help_text': 'Optional file name or note.', 'max_length': 200, 'required': False}), 15: ('wagtail.blocks.StructBlock', [[('language', 12), ('code', 13), ('caption', 14)]], {}), 16: ('wagtail.blocks.ChoiceBlock', [], {'choices': [('note', 'Note'), ('tip', 'Tip'), ('warning', 'Warning')], 'help_text': 'Sets the colour and label of the box.'}), 17: ('wagtail.blocks.CharBlock', (), {'help_text': 'Optional short heading.', 'max_length': 120, 'required': False}), 18: ('wagtail.blocks.RichTextBlock', (), {'features': ['bold', 'italic', 'link', 'document-link', 'ol', 'ul', 'code', 'superscript', 'subscript', 'strikethrough'], 'help_text': 'What the reader should note.'}), 19: ('wagtail.blocks.StructBlock', [[('kind', 16), ('title', 17), ('body', 18)]], {}), 20: ('wagtail.blocks.CharBlock', (), {'help_text': 'Say what the table shows (helps screen readers).', 'max_length': 200, 'required': False}), 21: ('wagtail.blocks.RichTextBlock', (), {'features': ['bold', 'italic', 'link', 'code'], 'label': 'Text'}), 22: ('wagtail.contrib.typed_table_block.blocks.TypedTableBlock', [[('rich_text', 21)]], {'help_text': 'Add a column with “Add column”, then rows with “Add row”. The column headings are the table’s header; a column of numbers lines up on the right.'}), 23: ('wagtail.blocks.StructBlock', [[('caption', 20), ('table', 22)]], {}), 24: ('wagtail.embeds.blocks.EmbedBlock', (), {'help_text': 'Paste a link to a video or post (YouTube, Vimeo, …).'}), 25: ('wagtail.blocks.CharBlock', (), {'help_text': 'Optional line under it.', 'max_length': 200, 'required': False}), 26: ('wagtail.blocks.StructBlock', [[('embed', 24), ('caption', 25)]], {})}, help_text='The post itself. Write in a Text block as in any editor: “## ” starts a heading, “- ” a list, “> ” a quote, and “/” opens a menu of everything you can add. Code, tables, callouts and pictures with a caption are blocks of their own.'),
        ),
        MigrateStreamData(
            app_name="blog",
            model_name="BlogPage",
            field_name="body",
            operations_and_block_paths=[(OneKindOfTableCell(), "table")],
            revisions_from=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC),
        ),
    ]
