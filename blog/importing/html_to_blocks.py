"""An imported body, sanitised, as the post's blocks (blog/blocks.py).

The HTML is untrusted. Scripts, styles, forms and frames are removed (frames from allowed
embed providers become embed blocks), links other than web, mail and phone links lose their
address and keep their words, and rich text is sanitised by nh3 (the ammonia sanitiser) down to
the elements the paragraph block's features write, with no attribute but a link's address.
Every removal is noted; nothing readers could read is dropped: text in an unknown element
stays as a paragraph.
"""

import json
import re
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlparse

import nh3
from bs4 import BeautifulSoup, Comment, NavigableString, Tag
from django.utils.html import escape
from django.utils.text import slugify
from wagtail.embeds.finders import get_finders

from blog.blocks import CODE_LANGUAGES, RICH_TEXT_FEATURES

from .records import Picture
from .safety import safe_href

REMOVED = {
    "script",
    "style",
    "noscript",
    "object",
    "embed",
    "form",
    "input",
    "button",
    "select",
    "textarea",
    "template",
    "link",
    "meta",
    "base",
    "svg",
    "math",
    "canvas",
}
CONTAINERS = {
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "center",
    "body",
    "html",
    "details",
    "summary",
    "nav",
}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
LANGUAGE_ALIASES = {
    "py": "python",
    "python3": "python",
    "js": "javascript",
    "ts": "typescript",
    "sh": "bash",
    "shell": "bash",
    "console": "bash",
    "zsh": "bash",
    "yml": "yaml",
    "c++": "cpp",
    "golang": "go",
    "rs": "rust",
    "docker": "dockerfile",
    "plain": "text",
    "plaintext": "text",
    "txt": "text",
    "none": "text",
}
LANGUAGES = {code for code, _label in CODE_LANGUAGES}
HEADING_MAX, CAPTION_MAX, ATTRIBUTION_MAX, TABLE_CAPTION_MAX = 200, 300, 200, 200
CODE_CAPTION_MAX = 200
TABLE_FEATURES = ["bold", "italic", "link", "code"]
SHORTCODE_CAPTION = re.compile(r"\[caption[^\]]*\](.*?)\[/caption\]", re.S)
SHORTCODE_EMBED = re.compile(r"\[embed[^\]]*\](.*?)\[/embed\]", re.S)
# WordPress's [audio], [video] and [playlist]: the address in src=, mp3= … or bare.
SHORTCODE_MEDIA = re.compile(r"\[(audio|video|playlist)\b([^\]]*)\](?:.*?\[/\1\])?", re.S)
MEDIA_ADDRESS = re.compile(r"(?:=\s*[\"']?|\s)(https?://[^\s\"'\]]+)")
# Jetpack's embed shortcodes (WordPress.com): [youtube URL], [tweet URL], [wpvideo GUID] …
SHORTCODE_PLAYER = re.compile(
    r"\[(youtube|vimeo|tweet|twitter|dailymotion|soundcloud|spotify|instagram|flickr|"
    r"slideshare|ted|wpvideo|videopress)\b\s*=?\s*([^\]]*)\](?:\s*\[/\1\])?",
    re.I,
)
# Where a player shortcode that names its video by id alone finds it.
PLAYER_ADDRESSES = {
    "wpvideo": "https://videopress.com/v/{}",
    "videopress": "https://videopress.com/v/{}",
    "youtube": "https://www.youtube.com/watch?v={}",
    "vimeo": "https://vimeo.com/{}",
}
# WordPress.com's code shortcodes: [sourcecode language="python"]…[/sourcecode], [code lang=js]…
SHORTCODE_CODE = re.compile(r"\[(sourcecode|code)\b([^\]]*)\](.*?)\[/\1\]", re.S | re.I)
CODE_LANGUAGE = re.compile(r"\b(?:language|lang)\s*=\s*[\"']?([\w+#-]+)")
# A shortcode no plugin here knows, alone on its line (its closing tag too).
SHORTCODE_ALONE = re.compile(
    r"^[ \t]*(?:<p>)?[ \t]*\[(/?)([a-z][\w-]*)(?:[ \t=][^\]\n]*)?\][ \t]*(?:</p>)?[ \t]*$", re.M
)
# An address alone on its line, which WordPress shows as the embedded post or video.
ALONE = re.compile(r"^https?://\S+$")
BLANK_LINE = re.compile(r"\n\s*\n")
# A link as the sanitiser leaves it: the address is its only attribute.
STORED_LINK = re.compile(r'<a href="([^"]*)">')
# The elements Wagtail's editor writes for each rich-text feature, as stored in the database.
FEATURE_ELEMENTS = {
    "bold": {"b"},
    "italic": {"i"},
    "link": {"a"},
    "document-link": set(),  # a document of this site, which no export links to
    "ol": {"ol", "li"},
    "ul": {"ul", "li"},
    "code": {"code"},
    "superscript": {"sup"},
    "subscript": {"sub"},
    "strikethrough": {"s"},
}
# Other spellings the editor reads as the same feature, renamed to the one it writes.
SAME_AS = {"strong": "b", "em": "i"}


class RichTextSanitiser:
    """Keeps paragraphs, line breaks and the elements of these features, spelled as the editor
    writes them; a link keeps its address only, and only a web, mail, phone or relative one."""

    def __init__(self, features):
        self.tags = {"p", "br"}.union(*(FEATURE_ELEMENTS[name] for name in features))
        self.cleaner = nh3.Cleaner(
            tags=self.tags,
            attributes={"a": {"href"}, "*": set()},
            url_schemes={"http", "https", "mailto", "tel"},
            link_rel=None,
        )

    def __call__(self, html):
        soup = BeautifulSoup(html, "html.parser")
        for tag in soup.find_all(True):
            tag.name = SAME_AS.get(tag.name, tag.name)
            # Other elements give way to their words here, where they stand: left to nh3's
            # HTML5 parser, a block in a paragraph (an <address>) would be moved out of it.
            # So do a link whose address was removed as unsafe, and a paragraph in a list item
            # (the editor's list items hold words, not paragraphs).
            unlinked = tag.name == "a" and not tag.get("href")
            if tag.name not in self.tags or unlinked or (tag.name == "p" and tag.find_parent("li")):
                tag.unwrap()
        # nh3 writes HTML5's <br>; Wagtail's editor reads a line break only as <br/> (its
        # parser knows no void elements) and refuses to open the body otherwise.
        return self.cleaner.clean(str(soup)).strip().replace("<br>", "<br/>")


_paragraphs = RichTextSanitiser(RICH_TEXT_FEATURES)
_cells = RichTextSanitiser(TABLE_FEATURES)


@dataclass
class Body:
    blocks: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    missing_alt: int = 0


def rich_text(html, sanitise=_paragraphs):
    """The allowed elements of `html`, as Wagtail's editor stores them; "" if no words are left."""
    stored = sanitise(html)
    return stored if BeautifulSoup(stored, "html.parser").get_text().strip() else ""


def embed_url(src):
    """The page address an embed provider knows, for the player addresses frames use."""
    parsed = urlparse(src if "//" in src[:8] else f"https:{src}" if src.startswith("//") else src)
    host = (parsed.hostname or "").removeprefix("www.")
    if host in {"youtube.com", "youtube-nocookie.com"} and parsed.path.startswith("/embed/"):
        return f"https://www.youtube.com/watch?v={parsed.path.split('/')[2]}"
    if host == "player.vimeo.com" and parsed.path.startswith("/video/"):
        return f"https://vimeo.com/{parsed.path.split('/')[2]}"
    return parsed.geturl()


def embed_allowed(url):
    """Whether one of the site's embed finders takes this address (checked without network)."""
    return url.startswith("https://") and any(finder.accept(url) for finder in get_finders())


def code_language(*tags, hint=""):
    named = hint
    for tag in tags:
        for css in tag.get("class", []) if tag else []:
            for prefix in ("language-", "lang-"):
                if css.startswith(prefix):
                    named = css[len(prefix) :]
        brush = re.search(r"brush:\s*([\w+#-]+)", " ".join(tag.get("class", []))) if tag else None
        named = brush.group(1) if brush else named
        named = (tag.get("data-lang") or tag.get("lang") or named) if tag else named
    named = named.lower().strip()
    return LANGUAGE_ALIASES.get(named, named), named


class BodyConverter:
    def __init__(self, resolve_picture, link_for):
        self.resolve_picture = resolve_picture
        self.link_for = link_for
        self.body = Body()
        self.loose = []
        self.language_hint = ""

    def note(self, text):
        if text not in self.body.notes:
            self.body.notes.append(text)

    def add(self, kind, value):
        self.body.blocks.append({"type": kind, "value": value})

    def convert(self, html):
        html = SHORTCODE_CAPTION.sub(r"<figure>\1</figure>", html)
        html = SHORTCODE_EMBED.sub(r'<figure class="wp-block-embed">\1</figure>', html)
        html = SHORTCODE_MEDIA.sub(media_element, html)
        html = SHORTCODE_PLAYER.sub(self.player, html)
        html = SHORTCODE_CODE.sub(code_element, html)
        soup = BeautifulSoup(html, "html.parser")
        self.simplify_ghost_cards(soup)
        self.clean(soup)
        self.walk(soup)
        self.flush()
        return self.body

    def player(self, match):
        """A player shortcode as the address WordPress embedded, given whole or made from the
        video's id."""
        name, argument = match.group(1).lower(), match.group(2).strip().strip("\"'")
        address = MEDIA_ADDRESS.search(f" {argument}")
        first = argument.split()[0] if argument else ""
        if address:
            url = address.group(1)
        elif name in PLAYER_ADDRESSES and re.fullmatch(r"[\w-]+", first):
            url = PLAYER_ADDRESSES[name].format(first)
        else:
            self.note(f"A WordPress [{name}] shortcode named nothing to show; it was left out.")
            return ""
        return f'<figure class="wp-block-embed">{escape(url)}</figure>'

    def unknown_shortcode(self, match):
        """A line holding only a shortcode no plugin here knows is left out: the old blog's
        plugin drew something there, and its raw brackets never reach readers. Code blocks are
        never read for them, so a [section] line of a config file stays."""
        if not match.group(1):
            self.note(
                f"A WordPress shortcode “[{match.group(2)}]” has no equivalent here; it was "
                "left out."
            )
        return ""

    def simplify_ghost_cards(self, soup):
        """Ghost renders its cards (the html of a Ghost export) with players' controls, icons and
        forms around what they hold: each becomes the few elements a reader needs, before the
        rest is read as any other body."""
        for card in soup.select(".kg-card"):
            if card.decomposed:
                continue
            kinds = set(card.get("class") or [])
            simpler = next((make for kind, make in GHOST_CARDS.items() if kind in kinds), None)
            if simpler is None:
                continue
            html = simpler(card)
            if html is None:
                self.note("A Ghost “signup” card (a newsletter sign-up form) was left out.")
                card.decompose()
            else:
                card.replace_with(BeautifulSoup(html, "html.parser"))

    def clean(self, soup):
        for tag in soup.find_all(REMOVED):
            if tag.decomposed:  # inside one removed before it, and named with it
                continue
            self.note(f"Removed a <{tag.name}> element: scripts, styles and forms are not kept.")
            tag.decompose()
        for tag in soup.find_all(True):
            for name in [name for name in tag.attrs if name.lower().startswith("on")]:
                del tag.attrs[name]
                self.note("Removed event handlers (onclick …) from the body.")
        for link in soup.find_all("a"):
            href = (link.get("href") or "").strip()
            if href and not safe_href(href):
                self.note(f"Removed a link to “{href[:60]}”; its words are kept.")
                del link.attrs["href"]

    def walk(self, parent):
        for node in list(parent.children):
            if isinstance(node, Comment):
                self.read_block_comment(str(node))
            elif isinstance(node, NavigableString):
                self.loose.append(str(node))
            elif node.name == "p":
                self.flush()
                self.paragraph(node)
            elif node.name in HEADINGS:
                self.flush()
                self.heading(node)
            elif node.name in {"ul", "ol"}:
                self.flush()
                self.rich(str(node))
            elif node.name == "dl":
                self.flush()
                for item in node.find_all(["dt", "dd"]):
                    bold = item.name == "dt"
                    self.rich(f"<p>{'<b>' * bold}{item.decode_contents()}{'</b>' * bold}</p>")
            elif node.name == "pre":
                self.flush()
                self.code(node)
            elif node.name == "blockquote":
                self.flush()
                self.quote(node)
            elif node.name == "table":
                self.flush()
                self.table(node)
            elif node.name == "figure":
                self.flush()
                self.figure(node)
            elif node.name == "img":
                self.flush()
                self.image(node)
            elif node.name == "iframe":
                self.flush()
                self.embed(node.get("src") or "")
            elif node.name in {"audio", "video"}:
                self.flush()
                self.media(node)
            elif node.name == "hr":
                self.flush()
            elif node.name in CONTAINERS:
                self.flush()
                self.walk(node)
            else:
                for picture in self.pull_images(node):
                    self.loose.append(node)
                    self.flush()
                    self.image(picture)
                    node = None
                    break
                if node is not None:
                    self.loose.append(node)

    def read_block_comment(self, text):
        """Block-editor comments carry settings, such as a code block's language."""
        match = re.match(r"\s*wp:[\w/-]+\s+(\{.*\})\s*/?\s*$", text, re.S)
        if match:
            try:
                self.language_hint = str(json.loads(match.group(1)).get("language") or "")
            except (ValueError, AttributeError):
                self.language_hint = ""

    def pull_images(self, node):
        """Pictures inside a paragraph or a link, taken out to stand as figures of their own."""
        if not isinstance(node, Tag):
            return []
        pictures = node.find_all("img")
        for picture in pictures:
            picture.extract()
        return pictures

    def flush(self):
        if not self.loose:
            return
        html = SHORTCODE_ALONE.sub(self.unknown_shortcode, "".join(map(str, self.loose)))
        self.loose = []
        # Classic WordPress bodies have no <p>: a blank line starts a paragraph, a newline breaks.
        for chunk in BLANK_LINE.split(html):
            if ALONE.match(chunk.strip()):
                self.embed(unescape(chunk.strip()))
            elif chunk.strip():
                self.rich(f"<p>{chunk.strip().replace(chr(10), '<br/>')}</p>")

    def rich(self, html):
        stored = self.link_pages(rich_text(html))
        if stored:
            self.add("paragraph", stored)

    def link_pages(self, stored):
        """Links to the old blog's posts lead to their new pages. Done on the sanitised text,
        which has no page link of its own: one in the export would name any page of this site."""

        def to_page(match):
            page_id = self.link_for(unescape(match.group(1)))
            return f'<a linktype="page" id="{page_id}">' if page_id else match.group(0)

        return STORED_LINK.sub(to_page, stored)

    def paragraph(self, node):
        words = node.get_text(" ", strip=True)
        shortcode = SHORTCODE_ALONE.fullmatch(words)
        if shortcode:
            self.unknown_shortcode(shortcode)
            return
        links = node.find_all("a")
        alone = not links or (len(links) == 1 and links[0].get("href") == words)
        if ALONE.match(words) and alone and not node.find("img"):
            self.embed(words)
            return
        pictures = self.pull_images(node)
        self.rich(str(node))
        for picture in pictures:
            self.image(picture)

    def heading(self, node):
        text = node.get_text(" ", strip=True)
        if not text:
            return
        if len(text) > HEADING_MAX:
            self.note(
                f"A heading longer than {HEADING_MAX} characters is kept as a bold paragraph."
            )
            self.rich(f"<p><b>{escape(text)}</b></p>")
            return
        anchor = slugify(node.get("id") or "")[:80]
        self.add("heading", {"text": text, "anchor": anchor})

    def code(self, node, caption=""):
        inner = node.find("code")
        language, named = code_language(node, inner, hint=self.language_hint)
        self.language_hint = ""
        if language not in LANGUAGES:
            if named:
                self.note(f"Code in “{named}” is shown as plain text (no colouring for it).")
            language = "text"
        if len(caption) > CODE_CAPTION_MAX:
            self.note(f"A code caption over {CODE_CAPTION_MAX} characters follows as a paragraph.")
            self.rich(f"<p>{escape(caption)}</p>")
            caption = ""
        self.add("code", {"language": language, "code": node.get_text(), "caption": caption})

    def quote(self, node, caption=""):
        cite = node.find(["cite", "footer"])
        attribution = cite.extract().get_text(" ", strip=True) if cite else ""
        attribution = attribution or caption
        parts = [p.get_text(" ", strip=True) for p in node.find_all("p")] or [
            node.get_text(" ", strip=True)
        ]
        text = "\n\n".join(part for part in parts if part)
        if len(attribution) > ATTRIBUTION_MAX:
            text, attribution = f"{text}\n\n— {attribution}", ""
        if text:
            self.add("quote", {"quote": text, "attribution": attribution})

    def figure(self, node):
        caption_tag = node.find("figcaption")
        caption = caption_tag.extract().get_text(" ", strip=True) if caption_tag else ""
        classes = " ".join(node.get("class", []))
        frame = node.find("iframe")
        if frame is not None or "wp-block-embed" in classes:
            src = frame.get("src") if frame is not None else node.get_text(" ", strip=True)
            self.embed(src or "", caption)
        elif node.find("table") is not None:
            self.table(node.find("table"), caption)
        elif node.find("blockquote") is not None:
            self.quote(node.find("blockquote"), caption)
        elif node.find("pre") is not None and node.find("img") is None:
            self.code(node.find("pre"), caption)
        elif node.find("img") is not None:
            images = node.find_all("img")
            for picture in images[:-1]:
                self.image(picture)
            self.image(images[-1], caption)
            for picture in images:
                picture.extract()
            rest = node.get_text(" ", strip=True)
            if rest:  # a [caption] shortcode's words follow its picture, outside any figcaption
                self.rich(f"<p>{escape(rest)}</p>")
        else:
            self.walk(node)
            self.flush()
            if caption:
                self.rich(f"<p>{escape(caption)}</p>")

    def image(self, node, caption=""):
        picture = Picture(ref=node.get("src") or "", alt=(node.get("alt") or "").strip())
        image_id = self.resolve_picture(picture) if picture.ref else None
        if image_id is None:
            self.note(f"Picture not found: {picture.ref or '(no address)'}; left out of the body.")
            if caption:
                self.rich(f"<p>{escape(caption)}</p>")
            return
        if not picture.alt:
            self.body.missing_alt += 1
        long_caption = len(caption) > CAPTION_MAX
        self.add(
            "image",
            {
                "image": image_id,
                "alt_text": picture.alt,
                "decorative": False,
                "caption": "" if long_caption else caption,
            },
        )
        if long_caption:
            self.note(
                f"A caption over {CAPTION_MAX} characters follows its picture as a paragraph."
            )
            self.rich(f"<p>{escape(caption)}</p>")

    def media(self, node):
        """A sound or video file: the files are not imported, so it stays a link."""
        source = node.get("src") or next(
            (tag.get("src") for tag in node.find_all("source") if tag.get("src")), ""
        )
        url = source.strip()
        if url and embed_allowed(embed_url(url)):
            self.embed(url)
            return
        kind = "sound" if node.name == "audio" else "video"
        if url and safe_href(url):
            # Ghost's cards name their sound; other players only have the file's name.
            name = node.get("title") or urlparse(url).path.rsplit("/", 1)[-1] or url
            self.rich(f'<p><a href="{escape(url)}">{escape(name)}</a></p>')
            self.note(
                f"A {kind} file is kept as a link to its old address: the file itself was not "
                "imported."
            )
        else:
            self.note(f"Removed a {kind} player with no usable address.")

    def embed(self, src, caption=""):
        src = src.strip()
        url = embed_url(src) if src else ""
        secure = "https://" + url.removeprefix("http://")
        if url.startswith("http://") and embed_allowed(secure):
            # Older blogs wrote their video addresses with http://; the players answer https.
            url = secure
        if url and embed_allowed(url):
            self.add("embed", {"embed": url, "caption": caption[:200]})
            return
        if url and safe_href(url):
            self.note(f"Embedded content from {urlparse(url).hostname} is kept as a link.")
            self.rich(f'<p><a href="{escape(url)}">{escape(caption or url)}</a></p>')
        else:
            self.note("Removed an embedded frame with no usable address.")

    def table(self, node, caption=""):
        caption_tag = node.find("caption")
        caption = caption or (
            caption_tag.extract().get_text(" ", strip=True) if caption_tag else ""
        )
        rows = [
            [cell.decode_contents() for cell in row.find_all(["th", "td"])]
            for row in node.find_all("tr")
        ]
        rows = [row for row in rows if row]
        if not rows:
            return
        width = max(len(row) for row in rows)
        rows = [row + [""] * (width - len(row)) for row in rows]
        header, *body = rows
        if len(caption) > TABLE_CAPTION_MAX:
            self.rich(f"<p>{escape(caption)}</p>")
            caption = ""
        self.add(
            "table",
            {
                "caption": caption,
                "table": {
                    "columns": [{"type": "rich_text", "heading": text_of(cell)} for cell in header],
                    "rows": [
                        {
                            "values": [
                                self.link_pages(rich_text(f"<p>{cell}</p>", _cells)) for cell in row
                            ]
                        }
                        for row in body
                    ],
                    "caption": "",
                },
            },
        )


def words_of(card, selector):
    found = card.select_one(selector)
    return escape(found.get_text(" ", strip=True)) if found else ""


def inner_html(card, selector):
    found = card.select_one(selector)
    return found.decode_contents() if found else ""


def linked(href, words):
    if not words:
        return ""
    return f'<p><a href="{escape(href)}">{words}</a></p>' if href else f"<p>{words}</p>"


def caption_of(card):
    caption = inner_html(card, "figcaption")
    return (
        caption if caption.lstrip().startswith("<p") else (f"<p>{caption}</p>" if caption else "")
    )


def ghost_bookmark(card):
    container = card.select_one("a.kg-bookmark-container")
    href = container.get("href", "") if container else ""
    return linked(href, words_of(card, ".kg-bookmark-title") or escape(href)) + caption_of(card)


def ghost_media(tag):
    def simpler(card):
        player = card.find(tag)
        if player is None:
            return ""
        title = words_of(card, f".kg-{tag}-title")
        named = f' title="{title}"' if title else ""
        return f'<{tag} src="{escape(player.get("src", ""))}"{named}></{tag}>' + caption_of(card)

    return simpler


def ghost_file(card):
    container = card.select_one("a.kg-file-card-container")
    title = words_of(card, ".kg-file-card-title") or words_of(card, ".kg-file-card-filename")
    caption = words_of(card, ".kg-file-card-caption")
    return linked(container.get("href", "") if container else "", title) + (
        f"<p>{caption}</p>" if caption else ""
    )


def ghost_callout(card):
    emoji, text = words_of(card, ".kg-callout-emoji"), inner_html(card, ".kg-callout-text")
    return f"<p>{emoji} {text}</p>" if emoji else f"<p>{text}</p>"


def ghost_call_to_action(card):
    sponsor = words_of(card, ".kg-cta-sponsor-label")
    button = card.select_one("a.kg-cta-button")
    return (
        (f"<p>{sponsor}</p>" if sponsor else "")
        + inner_html(card, ".kg-cta-text")
        + (
            linked(button.get("href", ""), escape(button.get_text(" ", strip=True)))
            if button
            else ""
        )
    )


# Ghost's cards by their class, and what each becomes; None: left out (a sign-up form's words
# without its form would ask readers to do what they cannot).
GHOST_CARDS = {
    "kg-bookmark-card": ghost_bookmark,
    "kg-audio-card": ghost_media("audio"),
    "kg-video-card": ghost_media("video"),
    "kg-file-card": ghost_file,
    "kg-callout-card": ghost_callout,
    "kg-cta-card": ghost_call_to_action,
    "kg-signup-card": lambda card: None,
}


def media_element(match):
    address = MEDIA_ADDRESS.search(match.group(2))
    tag = "video" if match.group(1) == "video" else "audio"
    return f'<{tag} src="{escape(address.group(1))}"></{tag}>' if address else f"<{tag}></{tag}>"


def code_element(match):
    language = CODE_LANGUAGE.search(match.group(2))
    css = f' class="language-{escape(language.group(1))}"' if language else ""
    return f"<pre><code{css}>{escape(unescape(match.group(3).strip(chr(10))))}</code></pre>"


def text_of(html):
    return BeautifulSoup(html, "html.parser").get_text(" ", strip=True)


def html_to_blocks(html, *, resolve_picture=lambda picture: None, link_for=lambda href: None):
    """The body's blocks, and what the conversion removed or could not keep as it was."""
    return BodyConverter(resolve_picture, link_for).convert(html or "")
