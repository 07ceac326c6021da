"""Ghost's JSON export (Settings › Labs › Export, versions 2 to 5)."""

import json
from datetime import UTC, datetime

from bs4 import BeautifulSoup
from django.utils.html import escape
from django.utils.text import slugify

from .ghost_cards import lexical_html, mobiledoc_html
from .records import DRAFT, LIVE, SCHEDULED, Export, Person, Picture, PostRecord, TopicRef
from .safety import ExportError, check_size

STATUSES = {"published": LIVE, "draft": DRAFT, "scheduled": SCHEDULED}
GHOST_URL = "__GHOST_URL__"
# What a post's exception can be when a hand-edited or damaged export has the wrong shapes.
SHAPE_ERRORS = (KeyError, ValueError, TypeError, AttributeError, IndexError, RecursionError)


def ghost_date(value):
    if value in (None, ""):
        return None
    if isinstance(value, int | float):  # Ghost 0.x and 1.x: milliseconds since 1970
        return datetime.fromtimestamp(value / 1000, tz=UTC)
    parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)


def load(data):
    check_size(len(data), "The export")
    try:
        document = json.loads(data)
    except json.JSONDecodeError as error:
        raise ExportError(
            f"The export is not valid JSON at line {error.lineno}, column {error.colno}: "
            f"{error.msg}."
        ) from error
    except UnicodeDecodeError as error:
        raise ExportError("The export is not UTF-8 text.") from error
    except RecursionError as error:
        raise ExportError("The export's JSON is nested too deeply to be a Ghost export.") from error
    try:
        db = document["db"][0] if "db" in document else document
        content = db["data"]
    except (KeyError, IndexError, TypeError) as error:
        raise ExportError("This is JSON but not a Ghost export: it has no db[0].data.") from error
    if not isinstance(content, dict):
        raise ExportError("This is JSON but not a Ghost export: its db[0].data is not an object.")
    return content


def table(content, name, skipped):
    """The export's rows of one table; a table that is not a list of objects is refused, a row
    that is not an object is left out and reported."""
    rows = content.get(name)
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise ExportError(f"The export's “{name}” is not a list.")
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            skipped.append((f"{name} row {number}", f"not a Ghost {name} row ({str(row)[:40]})"))
    return [row for row in rows if isinstance(row, dict)]


def text(value, limit):
    return str(value).strip()[:limit] if value not in (None, "") else ""


def topic_of(tag):
    """A public tag as a topic; None for Ghost's internal tags (#name), which organise the old
    site's theme, not its readers' topics."""
    name = text(tag.get("name"), 80) or text(tag.get("slug"), 80)
    if name.startswith("#") or tag.get("visibility") == "internal":
        return None
    slug = slugify(text(tag.get("slug"), 200) or name)[:80]
    if not slug:
        raise ValueError("a tag with neither a name nor a slug")
    return TopicRef(slug=slug, name=name, old_addresses=[f"/tag/{slug}/"])


def person_of(user):
    name = text(user.get("name"), 120) or text(user.get("slug"), 120)
    slug = slugify(text(user.get("slug"), 200) or name)[:120]
    if not slug:
        raise ValueError("an author with neither a name nor a slug")
    return Person(slug=slug, name=name, bio=text(user.get("bio"), 2000))


def keyed(rows, make, what, skipped):
    """id → what `make` builds from the row, rows it cannot read reported and left out."""
    made = {}
    for number, row in enumerate(rows, start=1):
        try:
            value = make(row)
        except SHAPE_ERRORS as error:
            skipped.append((f"Ghost {what} {row.get('id') or number}", f"left out: {error}"))
            continue
        if value is not None:
            made[str(row.get("id"))] = value
    return made


def parse_ghost(data):
    content = load(data)
    skipped = []
    tags = keyed(table(content, "tags", skipped), topic_of, "tag", skipped)
    users = keyed(table(content, "users", skipped), person_of, "author", skipped)
    post_tags = joined(table(content, "posts_tags", skipped), "tag_id")
    post_authors = joined(table(content, "posts_authors", skipped), "author_id")
    metas = {str(meta.get("post_id")): meta for meta in table(content, "posts_meta", skipped)}
    posts = []
    for position, post in enumerate(table(content, "posts", skipped), start=1):
        title = text(post.get("title"), 255) or "(untitled)"
        label = f"“{title}” [{post.get('id')}]"
        if post.get("type") == "page" or post.get("page") in (True, 1):
            skipped.append((label, "a Ghost page, not a post"))
            continue
        try:
            posts.append(post_record(post, tags, users, post_tags, post_authors, metas))
        except SHAPE_ERRORS as error:
            skipped.append(
                (
                    f"Post {position} {label}",
                    f"it could not be read: {type(error).__name__} {error}",
                )
            )
    for row in table(content, "settings", skipped):
        if row.get("key") in {"codeinjection_head", "codeinjection_foot"} and row.get("value"):
            skipped.append(
                (
                    f"The site's code injection ({row['key'].removeprefix('codeinjection_')})",
                    "not imported: scripts and styles from the old site are never carried over",
                )
            )
    return Export(source="ghost", posts=posts, topics=list(tags.values()), skipped=skipped)


def joined(rows, other):
    links = {}
    for row in sorted(rows, key=lambda row: str(row.get("sort_order") or 0).zfill(9)):
        if row.get("post_id") is not None and row.get(other) is not None:
            links.setdefault(str(row["post_id"]), []).append(str(row[other]))
    return links


def post_record(post, tags, users, post_tags, post_authors, metas):
    post_id = str(post["id"])
    notes = []
    status = STATUSES.get(post.get("status"))
    if post.get("status") == "sent":
        # Ghost 5's email-only posts went to subscribers' inboxes, never onto the site.
        notes.append("It was sent by email only, never published on the old site: a draft here.")
        status = DRAFT
    if status is None:
        raise ValueError(f"unknown status “{post.get('status')}”")
    visibility = post.get("visibility") or "public"
    members_only = visibility != "public" and status != DRAFT
    if members_only:
        # Ghost's members have no accounts here: what only they could read stays off the open
        # web, published behind sign-in for the team, until an editor opens it to everyone.
        notes.append(
            f"Only Ghost members could read it (visibility “{visibility}”): published behind "
            "sign-in, not public."
        )
    meta = {**metas.get(post_id, {}), **post}
    if meta.get("codeinjection_head") or meta.get("codeinjection_foot"):
        notes.append("Its code injection was not imported: scripts and styles are never carried.")
    author_ids = post_authors.get(post_id) or [str(post.get("author_id"))]
    hero = None
    if post.get("feature_image"):
        hero = Picture(
            ref=str(post["feature_image"]),
            alt=text(meta.get("feature_image_alt"), 255),
            caption=strip_markup(str(meta.get("feature_image_caption") or "")),
        )
    title = text(post.get("title"), 255)
    old_slug = text(post.get("slug"), 255)
    return PostRecord(
        source_id=post_id,
        title=title,
        slug=slugify(old_slug or title),
        status=status,
        published_at=ghost_date(post.get("published_at")),
        authors=list({users[i].slug: users[i] for i in author_ids if i in users}.values()),
        topics=list(
            {tags[i].slug: tags[i] for i in post_tags.get(post_id, []) if i in tags}.values()
        ),
        summary=text(post.get("custom_excerpt"), 5000),
        hero=hero,
        body_html=body_html(post, notes),
        old_addresses=[f"/{old_slug}/"] if old_slug else [],
        featured=post.get("featured") in (True, 1, "1", "true"),
        members_only=members_only,
        notes=notes,
    )


def body_html(post, notes):
    """The rendered html; exports without it hold lexical or mobiledoc, written out as the
    HTML Ghost would render from them (ghost_cards.py)."""
    if post.get("html"):
        return str(post["html"]).replace(GHOST_URL, "")
    if post.get("lexical"):
        return lexical_html(json.loads(post["lexical"]), notes).replace(GHOST_URL, "")
    if post.get("mobiledoc"):
        return mobiledoc_html(json.loads(post["mobiledoc"]), notes).replace(GHOST_URL, "")
    return escape(str(post.get("plaintext") or ""))


def strip_markup(html):
    return BeautifulSoup(html, "html.parser").get_text(" ", strip=True)
