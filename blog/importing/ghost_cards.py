"""Ghost's own document formats, for exports whose posts have no `html`: lexical (Ghost 5) and
mobiledoc (Ghost 1–4), written out as the HTML Ghost would render, which html_to_blocks then
sanitises like any other body.

Cards become what the post's blocks can hold: an image with its alt text and caption, code
with its language, Markdown and HTML cards rendered, a bookmark or an embed as a link (an embed
from a provider the site allows becomes an embed block), a button, a product or a call to
action as its words and link, sound, video and files as links to them. What only the
newsletter's e-mail or a sign-up form showed is left out and noted. A card of another kind
keeps its words as a paragraph; one with no words is noted in the report, never dropped
silently.
"""

import re

from django.utils.html import escape

from .markdown import markdown_html

# Lexical's text format bits, and the element each one is written as.
TEXT_FORMATS = [(1, "strong"), (2, "em"), (4, "s"), (16, "code")]
LIST_TAGS = {"bullet": "ul", "number": "ol", "check": "ul"}
# Where cards of other kinds keep their words (Ghost's field names).
WORDY_FIELDS = (
    "heading",
    "header",
    "subheader",
    "calloutText",
    "content",
    "text",
    "buttonText",
    "productTitle",
    "productDescription",
    "caption",
)


def caption_html(value):
    """Ghost stores captions as HTML; the figcaption keeps their words."""
    return f"<figcaption>{value}</figcaption>" if value else ""


def image_html(src, alt="", caption=""):
    if not src:
        return ""
    return (
        f'<figure><img src="{escape(src)}" alt="{escape(alt or "")}">'
        f"{caption_html(caption)}</figure>"
    )


def code_html(code, language="", caption=""):
    css = f' class="language-{escape(language)}"' if language else ""
    pre = f"<pre><code{css}>{escape(code or '')}</code></pre>"
    return f"<figure>{pre}{caption_html(caption)}</figure>" if caption else pre


def bookmark_html(url, title="", caption=""):
    """A link under the bookmarked page's title, its caption after it."""
    words = escape(title or url or "")
    link = f'<a href="{escape(url)}">{words}</a>' if url else words
    return (f"<p>{link}</p>" if words else "") + (as_blocks(caption) if caption else "")


def embed_html(url, caption=""):
    """An embed block when the site allows the provider, else a link (html_to_blocks)."""
    if not url:
        return as_blocks(caption) if caption else ""
    return f'<figure class="wp-block-embed">{escape(url)}{caption_html(caption)}</figure>'


def as_blocks(value):
    """Ghost keeps a card's words as HTML, sometimes already in paragraphs: wrapping those in
    another paragraph left empty ones around them."""
    value = str(value)
    return value if value.lstrip().startswith("<p") else f"<p>{value}</p>"


def link_html(url, words):
    words = words or escape(url or "")
    return (
        f'<p><a href="{escape(url)}">{words}</a></p>'
        if url
        else (f"<p>{words}</p>" if words else "")
    )


def media_html(payload):
    """Sound, video and files are kept as links to them (their files are not imported), as
    WordPress's are, their captions after them."""
    words = escape(
        payload.get("title") or payload.get("fileTitle") or payload.get("fileName") or ""
    )
    caption = payload.get("caption") or payload.get("fileCaption")
    return link_html(payload.get("src"), words) + (as_blocks(caption) if caption else "")


def call_to_action_html(payload):
    html = []
    if payload.get("hasSponsorLabel") and payload.get("sponsorLabel"):
        html.append(as_blocks(payload["sponsorLabel"]))
    if payload.get("textValue"):
        html.append(as_blocks(payload["textValue"]))
    if payload.get("showButton", True) and payload.get("buttonText"):
        html.append(link_html(payload.get("buttonUrl"), escape(payload["buttonText"])))
    return "".join(html)


# What a card of these kinds showed was for the newsletter's e-mail or a Ghost member's
# sign-up, neither of which this blog has: left out, and the report says why.
LEFT_OUT_CARDS = {
    "email": "shown only in the newsletter e-mail",
    "email-cta": "shown only in the newsletter e-mail",
    "signup": "a newsletter sign-up form",
}


def card_html(name, payload, notes):
    """One card, from lexical (its node) or mobiledoc (its payload): the fields are shared."""
    metadata = payload.get("metadata") or {}
    if name == "image":
        return image_html(payload.get("src"), payload.get("alt"), payload.get("caption"))
    if name == "gallery":
        return "".join(
            image_html(image.get("src"), image.get("alt"), image.get("caption"))
            for image in payload.get("images") or []
        ) + (as_blocks(payload["caption"]) if payload.get("caption") else "")
    if name in {"code", "codeblock"}:
        return code_html(payload.get("code"), payload.get("language"), payload.get("caption"))
    if name in {"markdown", "card-markdown"}:
        return markdown_html(payload.get("markdown") or "")
    if name == "html":
        return payload.get("html") or ""
    if name == "bookmark":
        return bookmark_html(payload.get("url"), metadata.get("title"), payload.get("caption"))
    if name == "embed":
        return embed_html(payload.get("url"), payload.get("caption"))
    if name in {"hr", "horizontalrule"}:
        return "<hr>"
    if name in {"audio", "video", "file"}:
        return media_html(payload)
    if name == "button":
        return link_html(payload.get("buttonUrl"), escape(payload.get("buttonText") or ""))
    if name == "product":
        title = payload.get("productTitle") or ""
        return link_html(payload.get("productUrl"), title) + (
            as_blocks(payload["productDescription"]) if payload.get("productDescription") else ""
        )
    if name == "callout":
        emoji = escape(payload.get("calloutEmoji") or "")
        text = payload.get("calloutText") or ""
        if not text:
            return as_blocks(emoji) if emoji else ""
        # The emoji opens the callout's first paragraph, as Ghost shows it.
        opening = re.match(r"\s*<p\b[^>]*>", text)
        if emoji and opening:
            return f"{opening.group()}{emoji} {text[opening.end() :]}"
        return as_blocks(f"{emoji} {text}".strip())
    if name == "call-to-action":
        return call_to_action_html(payload)
    if name in LEFT_OUT_CARDS:
        notes.append(f"A Ghost “{name}” card ({LEFT_OUT_CARDS[name]}) was left out.")
        return ""
    if name == "paywall":
        notes.append(
            "Ghost's paywall marker was left out: here a post is public or behind sign-in "
            "as a whole."
        )
        return ""
    words = [as_blocks(payload[key]) for key in WORDY_FIELDS if payload.get(key)]
    if words:
        return "".join(words)
    notes.append(f"A Ghost “{name}” card had no words to keep; it was left out.")
    return ""


# Lexical ------------------------------------------------------------------------------------

LEXICAL_CARDS = {
    "image",
    "gallery",
    "codeblock",
    "markdown",
    "html",
    "bookmark",
    "embed",
    "horizontalrule",
}
LEXICAL_TEXT_BLOCKS = {
    "paragraph": "p",
    "quote": "blockquote",
    "extended-quote": "blockquote",
    "aside": "blockquote",
}


def lexical_inline(nodes):
    html = []
    for node in nodes or []:
        kind = node.get("type")
        if kind in {"text", "extended-text"}:
            text = escape(node.get("text", ""))
            for bit, tag in TEXT_FORMATS:
                if int(node.get("format") or 0) & bit:
                    text = f"<{tag}>{text}</{tag}>"
            html.append(text)
        elif kind == "linebreak":
            html.append("<br>")
        elif kind in {"link", "autolink"}:
            html.append(
                f'<a href="{escape(node.get("url", ""))}">{lexical_inline(node.get("children"))}</a>'
            )
        elif node.get("children"):
            html.append(lexical_inline(node["children"]))
    return "".join(html)


def lexical_node(node, notes):
    kind = node.get("type")
    if kind in {"text", "extended-text", "link", "autolink", "linebreak"}:
        return f"<p>{lexical_inline([node])}</p>"
    if kind in LEXICAL_TEXT_BLOCKS:
        tag = LEXICAL_TEXT_BLOCKS[kind]
        inner = lexical_inline(node.get("children"))
        return f"<{tag}><p>{inner}</p></{tag}>" if tag == "blockquote" else f"<p>{inner}</p>"
    if kind in {"heading", "extended-heading"}:
        tag = node.get("tag") if node.get("tag") in {"h1", "h2", "h3", "h4", "h5", "h6"} else "h2"
        return f"<{tag}>{lexical_inline(node.get('children'))}</{tag}>"
    if kind == "list":
        tag = LIST_TAGS.get(node.get("listType"), "ul")
        items = "".join(lexical_list_item(item, notes) for item in node.get("children") or [])
        return f"<{tag}>{items}</{tag}>"
    if kind in LEXICAL_CARDS or node.get("children") is None:
        return card_html(kind, node, notes)
    return "".join(lexical_node(child, notes) for child in node["children"])


def lexical_list_item(item, notes):
    nested = [child for child in item.get("children") or [] if child.get("type") == "list"]
    words = [child for child in item.get("children") or [] if child.get("type") != "list"]
    return (
        f"<li>{lexical_inline(words)}"
        + "".join(lexical_node(child, notes) for child in nested)
        + "</li>"
    )


def lexical_html(document, notes):
    root = document.get("root") or {}
    return "".join(lexical_node(node, notes) for node in root.get("children") or [])


# Mobiledoc ----------------------------------------------------------------------------------

MARKUP_SECTION, IMAGE_SECTION, LIST_SECTION, CARD_SECTION = 1, 2, 3, 10
MARKUP_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "aside", "pull-quote"}
SAFE_MARKUPS = {"a", "b", "strong", "i", "em", "code", "s", "u", "sub", "sup"}


def mobiledoc_markers(markers, markups, atoms):
    """A section's text: each marker opens markups (by index) and closes the last few."""
    html, open_tags = [], []
    for marker in markers:
        kind, opens, closes, value = marker[:4]
        for index in opens:
            tag, attributes = (markups[index] + [[]])[:2]
            tag = tag.lower() if tag.lower() in SAFE_MARKUPS else "span"
            pairs = dict(zip(attributes[::2], attributes[1::2], strict=False))
            href = f' href="{escape(pairs["href"])}"' if tag == "a" and "href" in pairs else ""
            html.append(f"<{tag}{href}>")
            open_tags.append(tag)
        if kind == 0:
            html.append(escape(value))
        elif kind == 1 and isinstance(value, int) and value < len(atoms):
            html.append(escape(str(atoms[value][1])))  # an atom: [name, text, payload]
        for _ in range(min(closes, len(open_tags))):
            html.append(f"</{open_tags.pop()}>")
    html += [f"</{tag}>" for tag in reversed(open_tags)]
    return "".join(html)


def mobiledoc_html(document, notes):
    markups = document.get("markups") or []
    atoms = document.get("atoms") or []
    cards = document.get("cards") or []
    html = []
    for section in document.get("sections") or []:
        kind = section[0]
        if kind == MARKUP_SECTION:
            tag = str(section[1]).lower()
            inner = mobiledoc_markers(section[2], markups, atoms)
            if tag in {"blockquote", "aside", "pull-quote"}:
                html.append(f"<blockquote><p>{inner}</p></blockquote>")
            elif tag in MARKUP_TAGS and tag != "p":
                html.append(f"<{tag}>{inner}</{tag}>")
            else:
                html.append(f"<p>{inner}</p>")
        elif kind == IMAGE_SECTION:
            html.append(image_html(section[1]))
        elif kind == LIST_SECTION:
            tag = "ol" if section[1] == "ol" else "ul"
            items = "".join(
                f"<li>{mobiledoc_markers(item, markups, atoms)}</li>" for item in section[2]
            )
            html.append(f"<{tag}>{items}</{tag}>")
        elif kind == CARD_SECTION and section[1] < len(cards):
            name, payload = (cards[section[1]] + [{}])[:2]
            html.append(card_html(name, payload or {}, notes))
    return "".join(html)
