"""Search result excerpts with the matched words marked.

Text is escaped piece by piece and only the spans between matches are wrapped in <mark>, so
markup in a post (even a literal "<script>") is shown as text and never marked inside.
The index stems words; here a crude suffix strip stands in, good enough to find and mark
"restart" for "restarts". Excerpts are computed for the ten posts shown, from each post's
summary and text as remembered for every search (search/rows.py).
"""

import re

from django.utils.html import escape
from django.utils.safestring import mark_safe

from .query import fold

EXCERPT_LENGTH = 240
SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "s", "ly")


def stem(term):
    for suffix in SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            return term[: -len(suffix)]
    return term


def match_pattern(terms):
    """A regex over folded text that finds the words of a query and their inflections."""
    alternatives = set()
    for term in terms:
        folded = fold(term)
        root = stem(folded)
        # Short words only match whole, or "a" would mark every word starting with a.
        alternatives.add(re.escape(root) + r"\w*" if len(root) >= 3 else re.escape(folded) + r"\b")
    if not alternatives:
        return None
    return re.compile(r"\b(?:" + "|".join(sorted(alternatives, key=len, reverse=True)) + ")")


def highlight(text, pattern):
    if pattern is None:
        return escape(text)
    pieces, position = [], 0
    for match in pattern.finditer(fold(text)):
        pieces.append(escape(text[position : match.start()]))
        pieces.append(f"<mark>{escape(text[match.start() : match.end()])}</mark>")
        position = match.end()
    pieces.append(escape(text[position:]))
    return mark_safe("".join(pieces))  # noqa: S308 - every piece of text above is escaped


def window(text, start, length=EXCERPT_LENGTH):
    """About `length` characters around `start`, cut at spaces, with ellipses where cut."""
    begin = max(0, start - length // 3)
    if begin:
        space = text.find(" ", begin)
        begin = space + 1 if 0 <= space < start else begin
    end = min(len(text), begin + length)
    if end < len(text):
        space = text.rfind(" ", begin, end)
        end = space if space > start else end
    prefix = "… " if begin else ""
    suffix = " …" if end < len(text) else ""
    return prefix, text[begin:end], suffix


def shows_summary(summary, pattern):
    """Whether a post's excerpt is its summary: it holds a match, or nothing is searched."""
    return pattern is None or pattern.search(fold(summary)) is not None


def excerpt(summary, text, pattern):
    """The summary if it holds a match, else the post's text (entities unescaped) around the
    first match, else the summary. `text` is needed only where shows_summary() is false."""
    if shows_summary(summary, pattern):
        return highlight(summary, pattern)
    match = pattern.search(fold(text))
    if match is None:
        return highlight(summary, pattern)
    prefix, text, suffix = window(text, match.start())
    return mark_safe(prefix + highlight(text, pattern) + suffix)  # noqa: S308 - highlight escapes
