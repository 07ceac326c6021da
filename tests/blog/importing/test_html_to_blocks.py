"""Untrusted bodies become the post's blocks: nothing unsafe kept, nothing readable dropped."""

import pytest

from blog.importing.html_to_blocks import html_to_blocks
from tests.factories import draft_post


def kinds(body):
    return [block["type"] for block in body.blocks]


@pytest.mark.parametrize(
    "html",
    [
        '<p><a href="javascript:alert(1)">x</a></p>',
        '<p><a href=" JaVa\nScRiPt:alert(1)">x</a></p>',
        '<p><a href="data:text/html;base64,PHNjcmlwdD4=">x</a></p>',
        '<p><img src="x" onerror="alert(1)">x</p>',
        '<svg onload="alert(1)"><p>x</p></svg><p>x</p>',
        "<style>p{}</style><p>x</p>",
        '<form action="https://evil.example"><input name="a"></form><p>x</p>',
    ],
)
def test_nothing_executable_survives(html):
    stored = str(html_to_blocks(html).blocks).lower()
    for unsafe in ("javascript", "data:", "onerror", "onload", "<script", "<style", "<form", "svg"):
        assert unsafe not in stored


def test_a_removed_element_inside_another_is_named_once_not_as_an_empty_tag():
    """Ghost's file card draws its icon as an <svg> holding a <style>: the report named the svg,
    then an element with no name ("Removed a <> element")."""
    body = html_to_blocks(
        '<p>Get it</p><svg viewBox="0 0 24 24"><defs><style>.a{fill:none;}</style></defs>'
        '<polyline class="a" points="8 14 12 18"></polyline></svg>'
    )
    assert body.notes == ["Removed a <svg> element: scripts, styles and forms are not kept."]


def test_the_words_of_an_unsafe_link_are_kept():
    body = html_to_blocks('<p>Read <a href="javascript:go()">this</a>.</p>')
    assert "Read this." in body.blocks[0]["value"]
    assert any("javascript:go()" in note for note in body.notes)


def test_lists_tables_and_quotes():
    body = html_to_blocks(
        "<ol><li>one</li><li>two</li></ol>"
        "<table><caption>Prices</caption><thead><tr><th>Item</th><th>Cost</th></tr></thead>"
        "<tbody><tr><td>GPU</td><td><b>9</b></td></tr><tr><td>Rack</td></tr></tbody></table>"
        "<blockquote><p>Simple is better.</p><footer>Tim Peters</footer></blockquote>"
    )
    assert kinds(body) == ["paragraph", "table", "quote"]
    assert "<ol>" in body.blocks[0]["value"]
    table = body.blocks[1]["value"]
    assert table["caption"] == "Prices"
    assert [c["heading"] for c in table["table"]["columns"]] == ["Item", "Cost"]
    assert len(table["table"]["rows"]) == 2
    assert table["table"]["rows"][1]["values"][1] == ""  # a short row is padded, not dropped
    assert body.blocks[2]["value"] == {"quote": "Simple is better.", "attribution": "Tim Peters"}


def test_unknown_elements_keep_their_words():
    body = html_to_blocks(
        "<div class='x'><section><span>Inside a span</span></section></div>"
        "<dl><dt>Term</dt><dd>Meaning</dd></dl><marquee>Moving</marquee>"
    )
    text = " ".join(block["value"] for block in body.blocks)
    for words in ("Inside a span", "<b>Term</b>", "Meaning", "Moving"):
        assert words in text


def test_a_heading_too_long_for_the_heading_block_is_kept_whole():
    long = "Very long heading " * 20
    body = html_to_blocks(f"<h3>{long}</h3>")
    assert kinds(body) == ["paragraph"]
    assert long.strip() in body.blocks[0]["value"]


def test_code_languages():
    body = html_to_blocks(
        '<pre><code class="language-js">a()</code></pre>'
        '<pre class="brush: sh; gutter: false">ls</pre>'
        '<pre><code class="language-cobol">MOVE A TO B</code></pre>'
    )
    assert [b["value"]["language"] for b in body.blocks] == ["javascript", "bash", "text"]
    assert any("“cobol” is shown as plain text" in note for note in body.notes)


def test_frames_from_sites_the_embeds_do_not_know_become_links():
    body = html_to_blocks(
        '<iframe src="https://player.vimeo.com/video/42"></iframe>'
        '<iframe src="https://tracker.example/widget"></iframe>'
        '<iframe src="javascript:alert(1)"></iframe>'
    )
    assert body.blocks[0] == {
        "type": "embed",
        "value": {"embed": "https://vimeo.com/42", "caption": ""},
    }
    assert 'href="https://tracker.example/widget"' in body.blocks[1]["value"]
    assert len(body.blocks) == 2
    assert "Removed an embedded frame with no usable address." in body.notes


def test_pictures_in_a_paragraph_become_figures_and_missing_alt_is_counted():
    body = html_to_blocks(
        '<p>Before <a href="/big.png"><img src="/small.png"></a> after</p>',
        resolve_picture=lambda picture: 5,
    )
    assert kinds(body) == ["paragraph", "image"]
    assert body.missing_alt == 1


def test_a_long_caption_follows_its_picture():
    caption = "word " * 80
    body = html_to_blocks(
        f'<figure><img src="a.png" alt="A"><figcaption>{caption}</figcaption></figure>',
        resolve_picture=lambda picture: 5,
    )
    assert kinds(body) == ["image", "paragraph"]
    assert body.blocks[0]["value"]["caption"] == ""
    assert caption.strip() in body.blocks[1]["value"]


def test_sound_and_video_files_stay_as_links_never_raw_shortcodes():
    body = html_to_blocks(
        '<p>Listen:</p>[audio mp3="https://old.example/files/song.mp3"][/audio]\n\n'
        "[audio https://old.example/files/jazz.mp3]\n\n"
        '<figure class="wp-block-video"><video controls>'
        '<source src="https://old.example/files/clip.mov"></video></figure>'
        "[video]"
    )
    stored = str(body.blocks)
    assert "[audio" not in stored and "[video" not in stored
    for name in ("song.mp3", "jazz.mp3", "clip.mov"):
        assert f'<a href="https://old.example/files/{name}">{name}</a>' in stored
    assert any("A sound file is kept as a link" in note for note in body.notes)
    assert any("A video file is kept as a link" in note for note in body.notes)
    assert any("video player with no usable address" in note for note in body.notes)


def test_an_address_alone_on_its_line_is_embedded_as_wordpress_does():
    body = html_to_blocks(
        "Watch this:\n\nhttps://www.youtube.com/watch?v=ex8fMxXJDJw\n\n"
        '<p><a href="https://vimeo.com/76979871">https://vimeo.com/76979871</a></p>'
        "<p>See https://www.youtube.com/watch?v=abc in the text.</p>"
    )
    assert kinds(body) == ["paragraph", "embed", "embed", "paragraph"]
    assert body.blocks[1]["value"]["embed"] == "https://www.youtube.com/watch?v=ex8fMxXJDJw"


@pytest.mark.django_db
def test_an_imported_body_opens_in_the_editor_with_its_formatting(admin_client, blog):
    """Wagtail's editor reads stored rich text with a parser of its own, stricter than a
    browser (an HTML5 <br> without its slash fails the whole page)."""
    body = html_to_blocks(
        "<p>First line<br>second, <strong>bold</strong>, <em>italic</em>, "
        '<a href="https://example.com/?a=1&amp;b=2" title="t" target="_blank">a link</a>.</p>'
        "<ul><li><p>An item</p></li></ul>"
    )
    assert [block["value"] for block in body.blocks] == [
        "<p>First line<br/>second, <b>bold</b>, <i>italic</i>, "
        '<a href="https://example.com/?a=1&amp;b=2">a link</a>.</p>',
        "<ul><li>An item</li></ul>",
    ]
    post = draft_post(blog, "Imported", body=body.blocks, hero=False)
    editor = admin_client.get(f"/admin/pages/{post.pk}/edit/")
    assert editor.status_code == 200
    assert "second, " in editor.content.decode()


def test_a_page_link_in_an_export_names_no_page_of_this_site():
    body = html_to_blocks('<p>See <a linktype="page" id="1" href="/old/">the old post</a>.</p>')
    assert body.blocks[0]["value"] == '<p>See <a href="/old/">the old post</a>.</p>'


def test_jetpack_player_shortcodes_become_embeds_or_links_never_raw():
    body = html_to_blocks(
        "[youtube=http://www.youtube.com/watch?v=ex8fMxXJDJw]\n\n"
        "[vimeo 76979871]\n\n"
        "[wpvideo tFnqC9XQ w=680]\n\n"
        "[tweet]"
    )
    assert [block["value"]["embed"] for block in body.blocks if block["type"] == "embed"] == [
        "https://www.youtube.com/watch?v=ex8fMxXJDJw",
        "https://vimeo.com/76979871",
    ]
    # VideoPress is not a site the embed block knows: its video's page, as a link.
    assert 'href="https://videopress.com/v/tFnqC9XQ"' in str(body.blocks)
    assert len(body.blocks) == 3  # and nothing of the [tweet] that named no tweet
    assert "A WordPress [tweet] shortcode named nothing to show; it was left out." in body.notes


def test_wordpress_code_shortcodes_become_code_blocks():
    body = html_to_blocks(
        '[sourcecode language="python"]\nif a &lt; b:\n    print("less")\n[/sourcecode]'
        "<p>Then:</p>[code]make test[/code]"
    )
    assert kinds(body) == ["code", "paragraph", "code"]
    assert body.blocks[0]["value"]["language"] == "python"
    assert body.blocks[0]["value"]["code"] == 'if a < b:\n    print("less")'
    assert body.blocks[2]["value"] == {"language": "text", "code": "make test", "caption": ""}


def test_a_shortcode_no_plugin_here_knows_is_left_out_but_code_keeps_its_brackets():
    body = html_to_blocks(
        '<p>Write to us:</p>\n[contact-form-7 id="12" title="Contact"]\n\n'
        "<p>[googlemaps https://maps.example/x]</p>"
        "<p>A word [sic] in brackets stays.</p>"
        "<pre><code>[core]\n    editor = vim\n</code></pre>"
    )
    text = str(body.blocks)
    assert "contact-form-7" not in text and "googlemaps" not in text
    assert "A word [sic] in brackets stays." in text
    assert "[core]" in body.blocks[-1]["value"]["code"]
    assert (
        "A WordPress shortcode “[contact-form-7]” has no equivalent here; it was left out."
        in body.notes
    )
    assert (
        "A WordPress shortcode “[googlemaps]” has no equivalent here; it was left out."
        in body.notes
    )


def test_an_old_http_video_address_is_embedded_over_https():
    body = html_to_blocks("http://www.youtube.com/watch?v=nwe-H6l4beM\n\nWatch it.")
    assert body.blocks[0] == {
        "type": "embed",
        "value": {"embed": "https://www.youtube.com/watch?v=nwe-H6l4beM", "caption": ""},
    }
