"""Ghost posts kept only as lexical (Ghost 5) or mobiledoc (Ghost 1–4): their cards become
the post's blocks, not bare text."""

import json

import pytest

from blog.models import BlogPage

from .conftest import FIXTURES

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
    assert "Ghost's paywall marker was left out" in report


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


# Ghost's "golden post": a lexical document holding every card Ghost's editor makes, as Ghost
# wrote it (tests/blog/importing/fixtures/real/README.md).
GOLDEN_POST = FIXTURES / "real" / "ghost-5-golden-post" / "golden-post.json"


@pytest.fixture
def golden_export(tmp_path):
    """The golden post as the body of a published Ghost 5 post kept only as lexical."""
    post = {
        "id": "6571f0c2a8d3e40001a1b2c3",
        "title": "Every card",
        "slug": "every-card",
        "type": "post",
        "status": "published",
        "visibility": "public",
        "published_at": "2023-12-07T16:00:00.000Z",
        "lexical": GOLDEN_POST.read_text(encoding="utf-8"),
        "html": None,
        "mobiledoc": None,
    }
    export = tmp_path / "ghost.json"
    meta = {"exported_on": 1701964800000, "version": "5.75.0"}
    export.write_text(json.dumps({"db": [{"meta": meta, "data": {"posts": [post]}}]}))
    return export


def body_text(body):
    return " ".join(
        value.source if hasattr(value, "source") else str(value) for _kind, value in body
    )


def test_every_card_of_ghosts_editor_reads_sensibly(run_import, golden_export):
    report = run_import(golden_export)
    assert "  failed          0" in report
    post = BlogPage.objects.get(slug="every-card")
    assert post.live
    body = blocks("every-card")
    text = body_text(body)
    # Ghost's quotes are quotes, not plain paragraphs.
    quotes = [value["quote"] for kind, value in body if kind == "quote"]
    assert quotes == [
        "This is block quote",
        "This is a...different block quote",
        "A blockquote",
    ]
    # Captions and callouts Ghost stores as paragraphs leave no empty paragraphs around them.
    assert not [value for kind, value in body if kind == "paragraph" and "<p></p>" in value.source]
    assert "<p>My favorite website.</p>" in text
    # A button, a product and a call to action keep where they lead.
    assert '<a href="https://ghost.org">Click me, I\'m a button!</a>' in text
    assert '<a href="https://ghost.org">Make a blog!</a>' in text
    assert "Here’s a basic CTA card" in text
    assert '<a href="https://koenig.ghost.org/">Learn more</a>' in text
    # A sponsored card says so here too.
    assert "SPONSORED test card" in text
    assert "💡 I had an idea..." in text
    # Sound, video and files are kept as links to them, as WordPress's are.
    assert '<a href="https://main.ghost.org/content/media/2023/12/sample.mp3">Sample</a>' in text
    assert 'href="https://main.ghost.org/content/media/2023/12/sample_640x360.mp4"' in text
    assert "A lovely video of a woman on the beach doing nothing." in text
    assert '<a href="https://main.ghost.org/content/files/2023/11/test.txt">test</a>' in text
    assert "A tiny text file." in text
    # What only the newsletter's e-mail or a sign-up form showed stays out, and the report
    # says why, never that a card "had no words".
    assert "fellow users of electronic mail" not in text
    assert "first_name" not in text
    assert "Sign up for This Is The Main" not in text and "Subscribe" not in text
    assert "had no words to keep" not in report
    assert "A Ghost “email” card (shown only in the newsletter e-mail) was left out." in report
    assert "A Ghost “signup” card (a newsletter sign-up form) was left out" in report
    assert "Ghost's paywall marker was left out" in report


@pytest.fixture
def golden_export_with_html(tmp_path):
    """The golden post as a Ghost 5 export holds it: its lexical and the html Ghost rendered
    from it, which the import reads."""
    post = {
        "id": "6571f0c2a8d3e40001a1b2c4",
        "title": "Every card, rendered",
        "slug": "every-card-rendered",
        "type": "post",
        "status": "published",
        "visibility": "public",
        "published_at": "2023-12-07T16:00:00.000Z",
        "lexical": GOLDEN_POST.read_text(encoding="utf-8"),
        "html": GOLDEN_POST.with_suffix(".html").read_text(encoding="utf-8"),
        "mobiledoc": None,
    }
    export = tmp_path / "ghost.json"
    meta = {"exported_on": 1701964800000, "version": "5.75.0"}
    export.write_text(json.dumps({"db": [{"meta": meta, "data": {"posts": [post]}}]}))
    return export


def test_ghosts_rendered_cards_lose_their_player_controls_and_forms(
    run_import, golden_export_with_html
):
    report = run_import(golden_export_with_html)
    assert "  failed          0" in report
    text = body_text(blocks("every-card-rendered"))
    # The players' clocks and durations were paragraphs of their own.
    for control in ("0:00", "/105.822041", "/0:13", "1×"):
        assert control not in text
    # A bookmark is a link to what it bookmarks, its caption after it; its site's icon and
    # thumbnail are decoration, never reported as missing pictures.
    assert (
        '<a href="https://ghost.org">Ghost: Independent technology for modern publishing</a>'
        in text
    )
    assert "<p>My favorite website.</p>" in text
    assert "favicon.ico" not in report and "images/meta/ghost.png" not in report
    # Sound keeps its title; a file card reads as its title and caption, not run together.
    assert '<a href="https://main.ghost.org/content/media/2023/12/sample.mp3">Sample</a>' in text
    assert "(no address)" not in report
    assert '<a href="https://main.ghost.org/content/files/2023/11/test.txt">test</a>' in text
    assert "<p>A tiny text file.</p>" in text and "16 Bytes" not in text
    assert "💡 I had an idea..." in text
    assert '<a href="https://koenig.ghost.org/">Learn more</a>' in text
    # A sign-up form's words without its form are left out, and the report says so.
    assert "Sign up for This Is The Main" not in text
    assert "No spam. Unsubscribe anytime." not in text
    assert "A Ghost “signup” card (a newsletter sign-up form) was left out." in report
