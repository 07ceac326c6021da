"""What a results page shows of each post, apart from the query: built once per post for every
process (blog/caching/fragments.py) and reused by every search that finds it.

A remembered search knows its posts only by id (search/views.py). The parts of a row that do
not depend on the query (its address, title, summary, topic and byline, and the post's text
for excerpts) come from the shared cache, so such a search fetches no posts at all; only the
marked title and excerpt are computed per request (search/excerpts.py). The posts whose rows
are not in the cache are fetched together, once, the first time one of them is needed.
"""

import html

from django.template.loader import get_template

from blog.caching.fragments import PostFragment, render_fragments
from blog.models import byline_prefetch, topic_prefetch


class PostsToShow:
    """The readable posts a results page may show, fetched with their bylines and topics on
    the first row that is not in the cache, in one go for the whole page."""

    def __init__(self, readable, ids):
        self.readable, self.ids, self.fetched = readable, ids, None

    def in_bulk(self, ids):
        """render_fragments' `load`: these posts by id, leaving out any no longer readable."""
        if self.fetched is None:
            self.fetched = self.readable.prefetch_related(
                byline_prefetch(), topic_prefetch()
            ).in_bulk(self.ids)
        return {pk: self.fetched[pk] for pk in ids if pk in self.fetched}


def build_row(request, post):
    topic = post.primary_topic
    return {
        "url": post.get_url(request),
        "title": post.title,
        "summary": post.summary,
        "topic": topic.name if topic else "",
        "byline": get_template("components/byline.html").render({"post": post}),
    }


def build_text(request, post):
    # body_text() strips tags but leaves entities ("&lt;script&gt;" typed by an editor).
    return html.unescape(post.body_text())


SEARCH_ROW = PostFragment("search-row", build_row)
# Apart from the row: only rows whose summary holds no match need it, and it is the largest part.
SEARCH_TEXT = PostFragment("search-text", build_text)


def rows_by_id(request, posts):
    """Each post's row by id, for the ids of `posts`; posts no longer readable are left out."""
    rows = render_fragments(request, [(pk, SEARCH_ROW) for pk in posts.ids], load=posts.in_bulk)
    # A post no longer readable since the page was ranked has no row: it is shown no more.
    return {pk: row for pk, row in zip(posts.ids, rows, strict=True) if row}


def texts_by_id(request, posts, ids):
    if not ids:  # every excerpt is a summary
        return {}
    texts = render_fragments(request, [(pk, SEARCH_TEXT) for pk in ids], load=posts.in_bulk)
    return dict(zip(ids, texts, strict=True))
