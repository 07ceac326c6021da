"""What a reader typed, reduced to words the search backends cannot choke on.

The backends build tsquery (PostgreSQL) and FTS5 MATCH (SQLite) strings from the query; a stray
backslash, quote, `-`, `:*` or NUL byte there is a syntax error or a crash. Only word characters
ever reach them: quoted phrases become phrase searches, every other sign is dropped.
"""

import re
import unicodedata
from dataclasses import dataclass

from modelsearch.query import And, Phrase, PlainText

# The header and search inputs say maxlength=200; longer queries come from hand-made URLs.
MAX_QUERY_LENGTH = 200
# Words in one query; more than this adds nothing but cost (everything is ANDed).
MAX_WORDS = 12

WORD = re.compile(r"\w+(?:[.]\w+)*")
QUOTED = re.compile(r'"([^"]*)"')
# Control characters (NUL among them) cannot be stored or shown; emoji and other symbols are
# kept for display and simply yield no words.
UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class QueryTooLong(ValueError):
    pass


@dataclass(frozen=True)
class ReaderQuery:
    text: str
    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()

    @classmethod
    def parse(cls, raw):
        text = " ".join(UNPRINTABLE.sub(" ", raw or "").split())
        if len(text) > MAX_QUERY_LENGTH:
            raise QueryTooLong(text)
        phrases = []
        for quoted in QUOTED.findall(text):
            phrase_words = WORD.findall(quoted)
            if len(phrase_words) > 1:
                phrases.append(" ".join(phrase_words))
        loose = QUOTED.sub(
            lambda match: match.group(0) if len(WORD.findall(match.group(1))) < 2 else " ", text
        )
        words = list(dict.fromkeys(WORD.findall(loose)))
        budget = max(0, MAX_WORDS - sum(len(p.split()) for p in phrases))
        return cls(text=text, words=tuple(words[:budget]), phrases=tuple(phrases[:MAX_WORDS]))

    def __bool__(self):
        return bool(self.words or self.phrases)

    def as_search_query(self):
        """A modelsearch query: every word and every phrase must match."""
        parts = [Phrase(phrase) for phrase in self.phrases]
        if self.words:
            parts.insert(0, PlainText(" ".join(self.words), operator="and"))
        return parts[0] if len(parts) == 1 else And(parts)

    @property
    def terms(self):
        """Every searched word, for highlighting."""
        return [*self.words, *(word for phrase in self.phrases for word in phrase.split())]


def fold_char(char):
    """One character without accents and case, still one character, so offsets line up."""
    base = unicodedata.normalize("NFD", char)[0].lower()
    return base if len(base) == 1 else char


def fold(text):
    """The text without accents and case, as long as it was. ASCII, nearly every post, needs
    only lowering (twice as fast as folding each character, for a post's ~5,000)."""
    if text.isascii():
        return text.lower()
    return "".join(fold_char(char) for char in text)
