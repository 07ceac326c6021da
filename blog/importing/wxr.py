"""WordPress's export (WXR 1.0–1.2, Tools › Export), read with defusedxml.

The file is untrusted: a document type declaration, and so any entity (the billion laughs, an
external file), is refused before anything expands. The SAX reader gives each item the line it
starts on, which every message about it names.
"""

import hashlib
import io
import re
from collections import Counter
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import unquote, urlparse
from xml.sax import SAXParseException
from xml.sax.handler import ContentHandler, feature_external_ges, feature_namespaces

from defusedxml import DefusedXmlException
from defusedxml.sax import make_parser
from django.utils.html import escape
from django.utils.text import slugify

from .records import (
    DRAFT,
    LIVE,
    PENDING,
    PRIVATE,
    SCHEDULED,
    Export,
    Person,
    Picture,
    PostRecord,
    TopicRef,
    untitled,
)
from .safety import ExportError, check_size

STATUSES = {
    "publish": LIVE,
    "draft": DRAFT,
    "future": SCHEDULED,
    "private": PRIVATE,
    "pending": PENDING,
}
PREFIXES = [
    ("wordpress.org/export/", "/excerpt/", "excerpt"),
    ("wordpress.org/export/", "", "wp"),
    ("purl.org/rss/1.0/modules/content", "", "content"),
    ("purl.org/dc/elements", "", "dc"),
]


class Node:
    __slots__ = ("name", "attrs", "children", "parts", "line")

    def __init__(self, name, attrs, line):
        self.name, self.attrs, self.line = name, attrs, line
        self.children, self.parts = [], []

    @property
    def text(self):
        return "".join(self.parts).strip()

    def find(self, name):
        return next((child for child in self.children if child.name == name), None)

    def findtext(self, name):
        child = self.find(name)
        return child.text if child is not None else ""

    def findall(self, name):
        return [child for child in self.children if child.name == name]


def short_name(name):
    uri, local = name
    for needle, also, prefix in PREFIXES:
        if uri and needle in uri and also in uri:
            return f"{prefix}:{local}"
    return local


class TreeBuilder(ContentHandler):
    def __init__(self):
        super().__init__()
        self.stack = [Node("document", {}, 1)]
        self.locator = None

    def setDocumentLocator(self, locator):
        # SAX hands every handler the parser's position here before the first element.
        self.locator = locator

    def startElementNS(self, name, qname, attrs):
        node = Node(
            short_name(name),
            {local: value for (_uri, local), value in attrs.items()},
            self.locator.getLineNumber(),
        )
        self.stack[-1].children.append(node)
        self.stack.append(node)

    def endElementNS(self, name, qname):
        self.stack.pop()

    def characters(self, content):
        self.stack[-1].parts.append(content)


def parse_tree(data):
    parser = make_parser()
    parser.setFeature(feature_namespaces, True)
    parser.setFeature(feature_external_ges, False)
    # A WordPress export never declares a document type: refusing any is the surest guard.
    parser.forbid_dtd = True
    builder = TreeBuilder()
    parser.setContentHandler(builder)
    try:
        parser.parse(io.BytesIO(data if isinstance(data, bytes) else data.encode()))
    except DefusedXmlException as error:
        raise ExportError(
            "The export declares a document type or entities, which a WordPress export never "
            f"does; it was refused for safety ({type(error).__name__})."
        ) from error
    except SAXParseException as error:
        raise ExportError(
            f"The export is not well-formed XML at line {error.getLineNumber()}, column "
            f"{error.getColumnNumber()}: {error.getMessage()}."
        ) from error
    return builder.stack[0]


def gmt(value):
    """WordPress writes GMT dates as 'YYYY-MM-DD HH:MM:SS', and zeros for a draft's."""
    if not value or value.startswith("0000"):
        return None
    return datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


def feed_date(value):
    """An RSS pubDate ('Thu, 05 Jan 2012 14:30:46 +0000'), or None."""
    try:
        return parsedate_to_datetime(value).astimezone(UTC) if value else None
    except (TypeError, ValueError):
        return None


def path_of(url):
    parsed = urlparse(url)
    path = parsed.path or "/"
    return f"{path}?{parsed.query}" if parsed.query else path


def parse_wxr(data):
    check_size(len(data), "The export")
    document = parse_tree(data)
    rss = document.find("rss")
    channel = rss.find("channel") if rss is not None else None
    if channel is None:
        raise ExportError("This is XML but not a WordPress export: it has no <rss><channel>.")
    base = channel.findtext("wp:base_site_url") or channel.findtext("link")
    base_blog = channel.findtext("wp:base_blog_url") or base

    people = {}
    for author in channel.findall("wp:author"):
        login = author.findtext("wp:author_login")
        name = author.findtext("wp:author_display_name") or login
        people[login] = Person(slug=slugify(login)[:120] or "author", name=name[:120])
    topics, term_slugs = {}, {}
    parents = {}
    for category in channel.findall("wp:category"):
        slug = category.findtext("wp:category_nicename")
        parents[slug] = category.findtext("wp:category_parent")
        topics[("category", slug)] = topic(slug, category.findtext("wp:cat_name"), "category")
        term_slugs[category.findtext("wp:term_id")] = ("category", slug)
    for (_kind, slug), ref in list(topics.items()):
        # A child category's archive is /category/parent/child/ (WordPress answers both).
        chain, parent = [slug], parents.get(slug)
        while parent and parent not in chain and len(chain) < 10:
            chain.insert(0, parent)
            parent = parents.get(parent)
        if len(chain) > 1:
            ref.old_addresses.append(f"/category/{'/'.join(chain)}/")
    for tag in channel.findall("wp:tag"):
        slug = tag.findtext("wp:tag_slug")
        topics[("post_tag", slug)] = topic(slug, tag.findtext("wp:tag_name"), "tag")
        term_slugs[tag.findtext("wp:term_id")] = ("post_tag", slug)

    items = channel.findall("item")
    attachments = {
        item.findtext("wp:post_id"): attachment(item)
        for item in items
        if item.findtext("wp:post_type") == "attachment"
    }
    children = {}  # a post's id → the pictures attached to it, which a bare [gallery] shows
    for item in items:
        if item.findtext("wp:post_type") == "attachment":
            children.setdefault(item.findtext("wp:post_parent"), []).append(
                item.findtext("wp:post_id")
            )
    posts, skipped, others = [], [], Counter()
    comments = 0
    for item in items:
        kind = item.findtext("wp:post_type") or ""
        if kind == "page":
            skipped.append((item, "it is a WordPress page, not a post: add it by hand if needed"))
            continue
        if kind != "post":
            others[kind] += 1
            continue
        comments += len(item.findall("wp:comment"))
        try:
            record = post_from_item(item, people, topics, term_slugs, attachments, children)
        except (ValueError, KeyError) as error:
            # One item that cannot be read is reported; it never stops the others.
            skipped.append((item, f"it could not be read: {error}"))
            continue
        if record is None:
            status = item.findtext("wp:status")
            skipped.append((item, f"its WordPress status is “{status}”"))
            continue
        posts.append(record)
    return Export(
        source=f"wordpress:{base.rstrip('/')}",
        posts=posts,
        topics=list(topics.values()),
        base_url=base_blog,
        skipped=[
            (
                f"“{item.findtext('title') or untitled(item.findtext('wp:post_id'))}” "
                f"(line {item.line})",
                why,
            )
            for item, why in skipped
        ],
        notes=[not_posts(kind, n) for kind, n in sorted(others.items())],
        comments=comments,
    )


def not_posts(kind, count):
    what = {
        "attachment": (
            "media library entries (attachments): their pictures come in where posts show them"
        ),
        "nav_menu_item": "menu items: menus are not imported",
    }.get(kind)
    if what is None and not kind:
        what = (
            "item without a type, which is not a post"
            if count == 1
            else ("items without a type, which are not posts")
        )
    elif what is None:
        what = (
            f"item of type “{kind}”, which is not a post"
            if count == 1
            else (f"items of type “{kind}”, which are not posts")
        )
    return f"{count} {what}."


def topic(nicename, name, kind):
    # WordPress keeps a non-Latin slug percent-encoded; a topic's address takes Latin letters
    # only (/blog/topic/<slug>/), so one with none gets a stable made-up slug.
    nicename = nicename or ""
    slug = (
        slugify(unquote(nicename))[:80]
        or slugify(name or "")[:80]
        or f"topic-{hashlib.sha256((name or nicename).encode()).hexdigest()[:10]}"
    )
    address = {"category": f"/category/{nicename or slug}/", "tag": f"/tag/{nicename or slug}/"}
    return TopicRef(slug=slug, name=(name or slug)[:80], old_addresses=[address[kind]])


def postmeta(item):
    return {
        meta.findtext("wp:meta_key"): meta.findtext("wp:meta_value")
        for meta in item.findall("wp:postmeta")
    }


def attachment(item):
    meta = postmeta(item)
    return Picture(
        ref=item.findtext("wp:attachment_url") or item.findtext("guid"),
        alt=meta.get("_wp_attachment_image_alt", "").strip(),
        caption=item.findtext("excerpt:encoded"),
    )


def post_from_item(item, people, topics, term_slugs, attachments, children=None):
    status = STATUSES.get(item.findtext("wp:status"))
    if status is None:  # trash, auto-draft, inherit
        return None
    meta = postmeta(item)
    post_id = item.findtext("wp:post_id")
    # WordPress stores a non-Latin slug percent-encoded.
    slug = slugify(unquote(item.findtext("wp:post_name")), allow_unicode=True) or slugify(
        item.findtext("title"), allow_unicode=True
    )
    published = gmt(item.findtext("wp:post_date_gmt"))
    if published is None and status != DRAFT:
        # Exports of blogs moved between hosts may lack the GMT date; the local one is close,
        # and the feed's pubDate is the same moment. A draft's local date is only when it was
        # last saved, not a date it was given.
        published = gmt(item.findtext("wp:post_date")) or feed_date(item.findtext("pubDate"))
    notes = []
    if published is None and status == SCHEDULED:
        status = DRAFT
        notes.append("It was scheduled without a date in the export: it arrives as a draft.")
    elif published is None and status in {LIVE, PRIVATE}:
        # Published on the old blog: kept published, dated when it first arrives here.
        notes.append("It had no date in the export: it is dated the day of the import.")
    chosen = []
    primary = term_slugs.get(meta.get("_yoast_wpseo_primary_category", ""))
    terms = [
        (category.attrs.get("domain"), category.attrs.get("nicename"))
        for category in item.findall("category")
    ]
    ordered = ([primary] if primary else []) + sorted(terms, key=lambda term: term[0] != "category")
    for domain, nicename in ordered:
        found = topics.get((domain, nicename))
        if found is None and domain in {"category", "post_tag"}:
            name = next(
                (c.text for c in item.findall("category") if c.attrs.get("nicename") == nicename),
                nicename,
            )
            found = topics[(domain, nicename)] = topic(
                nicename, name, "category" if domain == "category" else "tag"
            )
        if found is not None and found not in chosen:
            chosen.append(found)
    creator = item.findtext("dc:creator")
    author = people.get(creator) or (
        Person(slug=slugify(creator)[:120], name=creator[:120]) if creator else None
    )
    link = path_of(item.findtext("link"))
    old = [link, f"/?p={post_id}"]
    if published and slug:
        old.append(f"/{published:%Y/%m}/{slug}/")
    # WordPress answers a post's former slugs too; the old address with the slug swapped.
    current = item.findtext("wp:post_name")
    for meta_node in item.findall("wp:postmeta"):
        if meta_node.findtext("wp:meta_key") == "_wp_old_slug" and current:
            former = meta_node.findtext("wp:meta_value")
            if former and f"/{current}/" in link:
                old.append(link.replace(f"/{current}/", f"/{former}/"))
    modified = gmt(item.findtext("wp:post_modified_gmt"))
    return PostRecord(
        source_id=post_id,
        title=item.findtext("title"),
        slug=slug,
        status=status,
        published_at=published,
        modified_at=modified if modified and published and modified > published else None,
        password=item.findtext("wp:post_password"),
        authors=[author] if author else [],
        topics=chosen,
        summary=item.findtext("excerpt:encoded"),
        hero=attachments.get(meta.get("_thumbnail_id")),
        body_html=with_galleries(
            item.findtext("content:encoded"), attachments, (children or {}).get(post_id, [])
        ),
        old_addresses=list(dict.fromkeys(address for address in old if address != "/")),
        featured=item.findtext("wp:is_sticky") == "1",
        line=item.line,
        notes=notes,
    )


GALLERY = re.compile(r"\[gallery([^\]]*)\]")
GALLERY_IDS = re.compile(r"\bids\s*=\s*[\"']?([\d,\s]+)")


def with_galleries(html, attachments, attached):
    """[gallery] shortcodes as the pictures they show: those its ids name, else the ones
    attached to the post, as WordPress does."""

    def pictures(match):
        named = GALLERY_IDS.search(match.group(1))
        ids = [i.strip() for i in named.group(1).split(",")] if named else attached
        shown = [attachments[i] for i in ids if i in attachments]
        images = "".join(
            f'<figure><img src="{escape(p.ref)}" alt="{escape(p.alt)}"/></figure>' for p in shown
        )
        return f"<div>{images}</div>" if images else ""

    return GALLERY.sub(pictures, html or "")
