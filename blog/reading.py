"""How long a post takes to read: the reader's "N min read", and the editor's count as they
write (BlogPage.word_count, shown by static/js/word-count.js)."""

import math

WORDS_PER_MINUTE = 230


def reading_minutes(word_count):
    return max(1, math.ceil(word_count / WORDS_PER_MINUTE))
