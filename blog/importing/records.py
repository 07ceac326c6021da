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


@dataclass
class PostRecord:
    source_id: str
    title: str
    slug: str
    status: str
    published_at: datetime | None = None  # UTC
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
        return f"“{self.title or '(untitled)'}” [{self.source_id}]{where}"

    def content_hash(self):
        """Changes whenever anything the import writes from this record changes."""
        data = asdict(self)
        data.pop("line")
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


@dataclass
class Export:
    source: str  # e.g. "wordpress:https://old.example", which keys its posts across runs
    posts: list[PostRecord]
    topics: list[TopicRef] = field(default_factory=list)
    base_url: str = ""
    # (what, why) for items the export holds but the import leaves out: trash, pages …
    skipped: list[tuple[str, str]] = field(default_factory=list)
