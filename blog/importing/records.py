"""What every parser produces: one shape for a post, whatever blog it came from."""

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import datetime

LIVE, DRAFT, SCHEDULED, PRIVATE, PENDING = "live", "draft", "scheduled", "private", "pending"


@dataclass
class Picture:
    """A picture as the export names it: a URL or a path, resolved against the media later."""

    ref: str
    alt: str = ""
    caption: str = ""


@dataclass
class Person:
    slug: str
    name: str
    bio: str = ""


@dataclass
class TopicRef:
    slug: str
    name: str
    # Where the old blog listed its posts: /category/x/, /tag/x/ …
    old_addresses: list[str] = field(default_factory=list)


LATER_FIELDS = ("modified_at", "password", "members_only")


@dataclass
class PostRecord:
    source_id: str
    title: str
    slug: str
    status: str
    published_at: datetime | None = None  # UTC
    # When the source last changed it (UTC); None: as published_at.
    modified_at: datetime | None = None
    # A post the source showed only to readers with this password (WordPress).
    password: str = ""
    # A post only the old site's signed-in members could read (Ghost's visibility).
    members_only: bool = False
    authors: list[Person] = field(default_factory=list)
    topics: list[TopicRef] = field(default_factory=list)  # the primary one first
    summary: str = ""
    hero: Picture | None = None
    body_html: str = ""
    old_addresses: list[str] = field(default_factory=list)
    featured: bool = False
    line: int | None = None  # where the item starts in the export, for messages
    # Pictures in the body are resolved relative to this folder (Markdown files).
    base_dir: str | None = None
    # What the parser could not keep, for the report (a Ghost card with no words …).
    notes: list[str] = field(default_factory=list)

    @property
    def label(self):
        where = f" (line {self.line})" if self.line else ""
        return f"“{self.title or untitled(self.source_id)}” [{self.source_id}]{where}"

    def content_hash(self):
        """Changes whenever anything the import writes from this record changes."""
        data = asdict(self)
        data.pop("line")
        # Where the files were read from, not what they say: an uploaded zip is unpacked into a
        # new folder each time.
        data.pop("base_dir")
        # Fields added later count only when set: a re-run of an older import stays unchanged.
        for name in LATER_FIELDS:
            if not data[name]:
                data.pop(name)
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def untitled(source_id):
    """The title an untitled post gets, which the editor can search for."""
    return f"Untitled post {source_id}"


@dataclass
class Export:
    source: str  # e.g. "wordpress:https://old.example", which keys its posts across runs
    posts: list[PostRecord]
    topics: list[TopicRef] = field(default_factory=list)
    base_url: str = ""
    # (what, why) for items the export holds but the import leaves out: trash, pages …
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # What the export holds that is not a post, told once each: "37 attachments …".
    notes: list[str] = field(default_factory=list)
    comments: int = 0  # comments on its posts: this blog has none, so they are counted
