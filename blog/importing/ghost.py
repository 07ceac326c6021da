"""Ghost's JSON export (Settings › Labs › Export, versions 2 to 5)."""

import json
from datetime import UTC, datetime

from bs4 import BeautifulSoup
from django.utils.html import escape
from django.utils.text import slugify

from .ghost_cards import lexical_html, mobiledoc_html
from .records import DRAFT, LIVE, SCHEDULED, Export, Person, Picture, PostRecord, TopicRef
from .safety import ExportError, check_size

STATUSES = {"published": LIVE, "draft": DRAFT, "scheduled": SCHEDULED, "sent": LIVE}
GHOST_URL = "__GHOST_URL__"


def ghost_date(value):
    if not value:
        return None
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
    try:
        db = document["db"][0] if "db" in document else document
        return db["data"]
    except (KeyError, IndexError, TypeError) as error:
        raise ExportError("This is JSON but not a Ghost export: it has no db[0].data.") from error


def parse_ghost(data):
    content = load(data)
    tags = {
        tag["id"]: TopicRef(
            slug=slugify(tag.get("slug") or tag["name"])[:80],
            name=tag["name"][:80],
            old_addresses=[f"/tag/{tag.get('slug') or slugify(tag['name'])}/"],
        )
        for tag in content.get("tags", [])
        # Ghost's internal tags (#hash) organise the site, not its readers' topics.
        if not tag.get("name", "").startswith("#") and tag.get("visibility") != "internal"
    }
    users = {
        user["id"]: Person(
            slug=slugify(user.get("slug") or user["name"])[:120],
            name=user["name"][:120],
            bio=user.get("bio") or "",
        )
        for user in content.get("users", [])
    }
    post_tags = joined(content.get("posts_tags", []), "tag_id")
    post_authors = joined(content.get("posts_authors", []), "author_id")
    metas = {meta["post_id"]: meta for meta in content.get("posts_meta", [])}
    posts, skipped = [], []
    for position, post in enumerate(content.get("posts", []), start=1):
        title = post.get("title") or "(untitled)"
        if post.get("type", "post") != "post":
            skipped.append((f"“{title}”", "a Ghost page, not a post"))
            continue
        try:
            posts.append(post_record(post, tags, users, post_tags, post_authors, metas))
        except (KeyError, ValueError, TypeError) as error:
            raise ExportError(
                f"Post {position} “{title}” (id {post.get('id')}): {type(error).__name__} {error}."
            ) from error
    return Export(source="ghost", posts=posts, topics=list(tags.values()), skipped=skipped)


def joined(rows, other):
    links = {}
    for row in sorted(rows, key=lambda row: row.get("sort_order", 0)):
        links.setdefault(row["post_id"], []).append(row[other])
    return links


def post_record(post, tags, users, post_tags, post_authors, metas):
    status = STATUSES.get(post.get("status"))
    if status is None:
        raise ValueError(f"unknown status “{post.get('status')}”")
    if post.get("visibility", "public") != "public":
        status = "private" if status == LIVE else status
    meta = {**metas.get(post["id"], {}), **post}
    author_ids = post_authors.get(post["id"]) or [post.get("author_id")]
    hero = None
    if post.get("feature_image"):
        hero = Picture(
            ref=post["feature_image"],
            alt=meta.get("feature_image_alt") or "",
            caption=strip_markup(meta.get("feature_image_caption") or ""),
        )
    slug = slugify(post.get("slug") or post["title"])
    notes = []
    return PostRecord(
        source_id=post["id"],
        title=post["title"],
        slug=slug,
        status=status,
        published_at=ghost_date(post.get("published_at")),
        authors=[users[i] for i in author_ids if i in users],
        topics=[tags[i] for i in post_tags.get(post["id"], []) if i in tags],
        summary=post.get("custom_excerpt") or "",
        hero=hero,
        body_html=body_html(post, notes),
        old_addresses=[f"/{post['slug']}/"] if post.get("slug") else [],
        featured=bool(post.get("featured")),
        notes=notes,
    )


def body_html(post, notes):
    """The rendered html; exports without it hold lexical or mobiledoc, written out as the
    HTML Ghost would render from them (ghost_cards.py)."""
    if post.get("html"):
        return post["html"].replace(GHOST_URL, "")
    if post.get("lexical"):
        return lexical_html(json.loads(post["lexical"]), notes).replace(GHOST_URL, "")
    if post.get("mobiledoc"):
        return mobiledoc_html(json.loads(post["mobiledoc"]), notes).replace(GHOST_URL, "")
    return escape(post.get("plaintext") or "")


def strip_markup(html):
    return BeautifulSoup(html, "html.parser").get_text(" ", strip=True)
