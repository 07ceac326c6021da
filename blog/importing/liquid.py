"""Jekyll's Liquid tags and Hugo's shortcodes in a Markdown body, turned into the Markdown or
HTML they stood for before the body is rendered, so none reaches readers as raw template text.

A link to another post ({% post_url %}, {% link %}, {{< ref >}}) becomes the old site's
address of that post, which the importer then points at the post's new page. Code
({% highlight %}, {{< highlight >}}) becomes a fenced code block; {% raw %} keeps its words
as they are. Figures, YouTube and Vimeo videos, tweets and gists become a picture, an embed or a
link. What has no equivalent here (an {% include %} of the old theme, template logic, a
shortcode of the old theme) is left out, its words kept where it had some, with a note.
A value of the post or the site ({{ page.title }}, {{ site.title }}) becomes its text, as the old
site showed it.
"""

import re
from html import escape

PROTECTED = "\x00{}\x00"
RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)
HIGHLIGHT = re.compile(
    r"\{%-?\s*highlight\s+([\w+#.-]+)?[^%]*?-?%\}\n?(.*?)\n?\{%-?\s*endhighlight\s*-?%\}", re.S
)
COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}", re.S)
TAG = re.compile(r"\{%-?\s*(\w+)(.*?)-?%\}", re.S)
OUTPUT = re.compile(r"\{\{-?(.*?)-?\}\}", re.S)
LOGIC = {
    "assign", "capture", "endcapture", "if", "elsif", "else", "endif", "unless", "endunless",
    "case", "when", "endcase", "for", "endfor", "break", "continue", "cycle", "increment",
    "decrement", "tablerow", "endtablerow", "endhighlight",
}  # fmt: skip
# Hugo: {{</* name */>}} shows a shortcode as text.
ESCAPED_SHORTCODE = re.compile(r"\{\{([<%])/\*(.*?)\*/([>%])\}\}", re.S)
PAIRED_SHORTCODE = re.compile(
    r"\{\{([<%])\s*([\w./-]+)(.*?)\s*[>%]\}\}(.*?)\{\{[<%]\s*/\s*\2\s*[>%]\}\}", re.S
)
SHORTCODE = re.compile(r"\{\{([<%])\s*(/?)\s*([\w./-]+)(.*?)\s*[>%]\}\}", re.S)
ARGUMENT = re.compile(r"""(?:(\w+)=)?("[^"]*"|'[^']*'|`[^`]*`|[^\s"'`]+)""")


class Expander:
    def __init__(self, addresses, notes, values=None):
        self.addresses, self.notes = addresses, notes
        self.values = values or {}
        self.kept = []

    def protect(self, text):
        self.kept.append(text)
        return PROTECTED.format(len(self.kept) - 1)

    def restore(self, text):
        for _ in range(3):  # protected code may hold a protected raw block
            text = re.sub("\x00(\\d+)\x00", lambda m: self.kept[int(m.group(1))], text)
        return text

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)

    def link(self, target, how):
        address = self.addresses.get(target.strip().strip("\"'"))
        if address is None:
            self.note(f"{how} named “{target.strip()}”, which is not in the export; the link "
                      "was left pointing nowhere.")  # fmt: skip
            return ""
        return address

    def code(self, language, source):
        fence = "~~~~" if "```" in source else "```"
        return self.protect(f"\n{fence}{language or ''}\n{source.strip(chr(10))}\n{fence}\n")

    # Liquid ---------------------------------------------------------------------------

    def liquid(self, text):
        text = RAW.sub(lambda m: self.protect(m.group(1)), text)
        text = COMMENT.sub("", text)
        text = HIGHLIGHT.sub(lambda m: self.code(m.group(1), m.group(2)), text)
        text = TAG.sub(self.liquid_tag, text)
        return OUTPUT.sub(self.liquid_output, text)

    def liquid_tag(self, match):
        name, argument = match.group(1), match.group(2).strip()
        if name == "post_url":
            return self.link(argument, "A {% post_url %} link to a post")
        if name == "link":
            return self.link(argument, "A {% link %} to a file")
        if name in {"include", "include_relative"}:
            self.note(
                f"An {{% {name} %}} of the old site's theme ({argument.split()[0] if argument else ''}) was left out."
            )  # noqa: E501
            return ""
        if name in LOGIC:
            self.note(
                "Liquid template logic ({% if %}, {% for %} …) was left out; its words are kept."
            )  # noqa: E501
            return ""
        self.note(f"A Liquid tag {{% {name} %}} has no equivalent here; it was left out.")
        return ""

    def liquid_output(self, match):
        expression = match.group(1).strip()
        value, *filters = [part.strip() for part in expression.split("|")]
        if value in {"site.url", "site.baseurl", "site.github.url"}:
            return ""  # links become addresses on this site
        quoted = re.fullmatch(r"""(["'])(.*)\1""", value)
        if quoted and all(f in {"relative_url", "absolute_url"} for f in filters):
            return quoted.group(2)  # "/docs/x/" | relative_url: an address on the old site
        if value in self.values and not filters:
            return escape(self.values[value], quote=False)
        self.note(f"A Liquid value {{{{ {expression[:40]} }}}} was left out.")
        return ""

    # Hugo -----------------------------------------------------------------------------

    def shortcodes(self, text):
        text = ESCAPED_SHORTCODE.sub(
            lambda m: self.protect(f"{{{{{m.group(1)}{m.group(2)}{m.group(3)}}}}}"), text
        )
        for _ in range(5):  # nested pairs, outermost last
            text, count = PAIRED_SHORTCODE.subn(self.paired, text)
            if not count:
                break
        return SHORTCODE.sub(self.single, text)

    def paired(self, match):
        name, arguments, inner = match.group(2), arguments_of(match.group(3)), match.group(4)
        positional, named = arguments
        if name == "highlight":
            return self.code(positional[0] if positional else "", inner)
        if name == "details":
            summary = named.get("summary", "")
            return f"\n\n**{summary}**\n\n{inner}\n\n" if summary else inner
        if name == "figure":
            return self.figure(named, inner)
        self.note(f"A Hugo shortcode “{name}” has no equivalent here; its words are kept.")
        return inner

    def single(self, match):
        if match.group(2):  # a closing shortcode left alone
            return ""
        name = match.group(3)
        positional, named = arguments_of(match.group(4))
        first = named.get("id") or (positional[0] if positional else "")
        if name == "figure":
            return self.figure(named, "")
        if name == "youtube" and first:
            return embed(f"https://www.youtube.com/watch?v={first}")
        if name == "vimeo" and first:
            return embed(f"https://vimeo.com/{first}")
        if name in {"tweet", "x", "twitter"}:
            user = named.get("user") or (positional[0] if len(positional) > 1 else "x")
            status = named.get("id") or (positional[-1] if positional else "")
            return f"<https://x.com/{user}/status/{status}>" if status else ""
        if name == "gist" and len(positional) >= 2:
            return f"<https://gist.github.com/{positional[0]}/{positional[1]}>"
        if name == "instagram" and first:
            return f"<https://www.instagram.com/p/{first}/>"
        if name in {"ref", "relref"} and first:
            return self.link(first, f"A Hugo {name}")
        self.note(f"A Hugo shortcode “{name}” has no equivalent here; it was left out.")
        return ""

    def figure(self, named, inner):
        src = named.get("src") or named.get("link")
        if not src:
            return inner
        caption = named.get("caption") or named.get("title") or ""
        figcaption = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
        html = (
            f'<figure><img src="{escape(src)}" alt="{escape(named.get("alt", ""))}">'
            f"{figcaption}</figure>"
        )
        return f"\n\n{html}\n\n{inner}"


def embed(url):
    return f'\n\n<figure class="wp-block-embed">{escape(url)}</figure>\n\n'


def arguments_of(text):
    positional, named = [], {}
    for key, value in ARGUMENT.findall(text or ""):
        value = value[1:-1] if value[:1] in {'"', "'", "`"} else value
        if key:
            named[key.lower()] = value
        else:
            positional.append(value)
    return positional, named


def expand_templates(body, addresses, notes, tool, values=None):
    """The body with the old tool's template syntax turned into Markdown and HTML. `values`
    are the texts of {{ page.… }} and {{ site.… }} by name ("page.title": "Hello")."""
    expander = Expander(addresses, notes, values)
    if tool != "hugo":
        body = expander.liquid(body)
    if tool != "jekyll":
        body = expander.shortcodes(body)
    return expander.restore(body)
