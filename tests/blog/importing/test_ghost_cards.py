"""Ghost posts kept only as lexical (Ghost 5) or mobiledoc (Ghost 1–4): their cards become
the post's blocks, not bare text."""

import json

import pytest

from blog.models import BlogPage

PICTURE = "__GHOST_URL__/content/images/2023/01/rack.png"
YOUTUBE = "https://www.youtube.com/watch?v=abc123"


def text(words, format_bits=0):
    return {"type": "text", "text": words, "format": format_bits}


LEXICAL = {
    "root": {
        "type": "root",
        "children": [
            {"type": "heading", "tag": "h2", "children": [text("The setup")]},
            {
                "type": "paragraph",
                "children": [
                    text("Read "),
                    {
                        "type": "link",
                        "url": "https://example.org/notes",
                        "children": [text("the notes", 1)],
                    },
                    text(" first."),
                ],
            },
            {
                "type": "image",
                "src": PICTURE,
                "alt": "A rack of servers",
                "caption": "<span>The rack, <b>before</b></span>",
            },
            {
                "type": "codeblock",
                "code": "print('<restore>')",
                "language": "python",
                "caption": "restore.py",
            },
            {"type": "markdown", "markdown": "Some **marked** words.\n\n- one\n- two"},
            {"type": "html", "html": "<p>Raw <em>HTML</em></p><script>steal()</script>"},
            {
                "type": "bookmark",
                "url": "https://example.org/paper",
                "metadata": {"title": "The paper", "description": "About it."},
                "caption": "Worth a read",
            },
            {"type": "embed", "url": YOUTUBE, "embedType": "video", "caption": "The talk"},
            {"type": "embed", "url": "https://unknown.example/widget/1", "caption": ""},
            {"type": "paywall"},
        ],
    }
}

MOBILEDOC = {
    "version": "0.3.1",
    "atoms": [],
    "markups": [["a", ["href", "https://example.org/notes"]], ["strong"]],
    "cards": [
        ["image", {"src": PICTURE, "alt": "A rack of servers", "caption": "The rack"}],
        ["code", {"code": "SELECT 1;", "language": "sql"}],
        ["markdown", {"markdown": "## Marked heading\n\nMarked words."}],
        ["html", {"html": "<table><tr><th>A</th></tr><tr><td>1</td></tr></table>"}],
        ["bookmark", {"url": "https://example.org/paper", "metadata": {"title": "The paper"}}],
        ["embed", {"url": YOUTUBE, "html": "<iframe src='https://evil.example'></iframe>"}],
    ],
    "sections": [
        [1, "h2", [[0, [], 0, "Old setup"]]],
        [1, "p", [[0, [], 0, "Read "], [0, [0, 1], 2, "the notes"], [0, [], 0, " first."]]],
        [10, 0],
        [10, 1],
        [10, 2],
        [10, 3],
        [3, "ul", [[[0, [], 0, "one"]], [[0, [], 0, "two"]]]],
        [10, 4],
        [10, 5],
    ],
}


@pytest.fixture
def ghost_export(tmp_path):
    def post(post_id, field, document):
        return {
            "id": post_id,
            "title": f"Cards in {field}",
            "slug": f"cards-{field}",
            "status": "draft",
            field: json.dumps(document),
        }

    export = tmp_path / "ghost.json"
    posts = [post("lex", "lexical", LEXICAL), post("mob", "mobiledoc", MOBILEDOC)]
    export.write_text(json.dumps({"db": [{"data": {"posts": posts}}]}))
    return export


def blocks(slug):
    return [(block.block_type, block.value) for block in BlogPage.objects.get(slug=slug).body]


def test_lexical_cards_become_blocks(run_import, media, ghost_export):
    report = run_import(ghost_export, "--media", str(media))
    body = blocks("cards-lexical")
    kinds = [kind for kind, _value in body]
    assert kinds == [
        "heading",
        "paragraph",
        "image",
        "code",
        "paragraph",
        "paragraph",
        "paragraph",
        "paragraph",
        "paragraph",
        "embed",
        "paragraph",
    ]
    heading, link, image, code, marked, listed, raw, bookmark, caption, embed, other = [
        value for _kind, value in body
    ]
    assert heading["text"] == "The setup"
    assert '<a href="https://example.org/notes"><b>the notes</b></a>' in link.source
    assert image["alt_text"] == "A rack of servers"
    assert image["caption"] == "The rack, before"
    assert (code["language"], code["code"], code["caption"]) == (
        "python",
        "print('<restore>')",
        "restore.py",
    )
    assert "<b>marked</b>" in marked.source
    assert ">one</li>" in listed.source and ">two</li>" in listed.source
    assert "<i>HTML</i>" in raw.source and "steal" not in raw.source
    assert '<a href="https://example.org/paper">The paper</a>' in bookmark.source
    assert "Worth a read" in caption.source
    assert embed["embed"].url == YOUTUBE and embed["caption"] == "The talk"
    assert '<a href="https://unknown.example/widget/1">' in other.source
    assert "A Ghost “paywall” card had no words to keep" in report


def test_mobiledoc_cards_become_blocks(run_import, media, ghost_export):
    run_import(ghost_export, "--media", str(media))
    body = blocks("cards-mobiledoc")
    kinds = [kind for kind, _value in body]
    assert kinds == [
        "heading",
        "paragraph",
        "image",
        "code",
        "heading",
        "paragraph",
        "table",
        "paragraph",
        "paragraph",
        "embed",
    ]
    heading, link, image, code, marked_heading, _marked, table, listed, bookmark, embed = [
        value for _kind, value in body
    ]
    assert heading["text"] == "Old setup"
    assert '<a href="https://example.org/notes"><b>the notes</b></a> first.' in link.source
    assert (image["alt_text"], image["caption"]) == ("A rack of servers", "The rack")
    assert (code["language"], code["code"]) == ("sql", "SELECT 1;")
    assert marked_heading["text"] == "Marked heading"
    assert [column["heading"] for column in table["table"].columns] == ["A"]
    assert ">one</li>" in listed.source and ">two</li>" in listed.source
    assert '<a href="https://example.org/paper">The paper</a>' in bookmark.source
    # The embed card's own frame is not used: the block is made from its address.
    assert embed["embed"].url == YOUTUBE
