"""The table block (issue #33, point 7): one kind of cell and one caption, and the posts and
drafts written with the old per-column types still render and open after migration 0020."""

import importlib
import json

import pytest
from bs4 import BeautifulSoup
from django.apps import apps
from django.urls import reverse

from blog.models import BlogPage
from tests.factories import draft_post, publish_post

pytestmark = pytest.mark.django_db

migration = importlib.import_module("blog.migrations.0020_table_cells_are_text")

OLD_TABLE = {
    "caption": "",
    "table": {
        "caption": "Restart costs",
        "columns": [
            {"type": "text", "heading": "Path"},
            {"type": "number", "heading": "Minutes"},
            {"type": "rich_text", "heading": "Notes"},
        ],
        "rows": [
            {"values": ["Warm <standby>", "12.50", "<p><b>Fast</b>, if cached</p>"]},
            {"values": ["Cold & slow", "95", "<p>Reload the weights</p>"]},
        ],
    },
}
OLD_BODY = [
    {"type": "paragraph", "value": "<p>Before the table.</p>", "id": "p1"},
    {"type": "table", "value": OLD_TABLE, "id": "t1"},
]


def test_old_cells_become_rich_text_and_the_caption_moves_to_the_block():
    new = migration.OneKindOfTableCell().apply(OLD_TABLE)

    assert new["caption"] == "Restart costs"
    assert new["table"]["caption"] == ""
    assert [column["type"] for column in new["table"]["columns"]] == ["rich_text"] * 3
    assert [column["heading"] for column in new["table"]["columns"]] == ["Path", "Minutes", "Notes"]
    assert [row["values"] for row in new["table"]["rows"]] == [
        ["<p>Warm &lt;standby&gt;</p>", "<p>12.50</p>", "<p><b>Fast</b>, if cached</p>"],
        ["<p>Cold &amp; slow</p>", "<p>95</p>", "<p>Reload the weights</p>"],
    ]


def test_the_block_caption_wins_over_the_table_caption_and_migrating_twice_changes_nothing():
    once = migration.OneKindOfTableCell().apply({**OLD_TABLE, "caption": "Ours"})
    assert once["caption"] == "Ours"
    assert migration.OneKindOfTableCell().apply(once) == once


def write_old_body(post):
    """Stores the body as the previous block definition wrote it, in the post and its revision."""
    BlogPage.objects.filter(pk=post.pk).update(body=OLD_BODY)
    revision = post.get_latest_revision()
    revision.content["body"] = json.dumps(OLD_BODY)
    revision.save(update_fields=["content"])


def migrate_tables():
    migration.Migration.operations[-1].code(apps, None)


def test_a_post_with_an_old_table_renders_the_same_table_after_migrating(client, blog):
    post = publish_post(blog, "Restarts")
    write_old_body(post)

    migrate_tables()

    page = BeautifulSoup(client.get(post.url).content, "html.parser")
    table = page.select_one(".post__body table")
    assert table.caption.get_text() == "Restart costs"
    assert [th.get_text() for th in table.select("thead th")] == ["Path", "Minutes", "Notes"]
    cells = [[td.decode_contents() for td in tr.select("td")] for tr in table.select("tbody tr")]
    # What the old text and number cells showed, now as a paragraph (no margin in a cell).
    assert cells == [
        ["<p>Warm &lt;standby&gt;</p>", "<p>12.50</p>", "<p><b>Fast</b>, if cached</p>"],
        ["<p>Cold &amp; slow</p>", "<p>95</p>", "<p>Reload the weights</p>"],
    ]
    # The numbers still line up on the right, as a reader expects of a column of figures.
    assert [td.get("class") for td in table.select("tbody tr:first-child td")] == [
        None,
        ["num"],
        None,
    ]


def test_a_draft_written_with_the_old_table_opens_in_the_editor_after_migrating(admin_client, blog):
    post = draft_post(blog, "Restarts draft")
    write_old_body(post)

    migrate_tables()

    response = admin_client.get(reverse("wagtailadmin_pages:edit", args=[post.pk]))
    assert response.status_code == 200
    assert "Reload the weights" in response.content.decode()
