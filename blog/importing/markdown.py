"""A folder of Markdown files with front matter (Jekyll, Hugo, Eleventy).

Front matter between `---` lines is YAML, read with PyYAML's safe loader (aliases refused);
between `+++` lines TOML. Front matter that cannot be read is refused with the file and line.
"""

import re
import tomllib
from datetime import UTC, date, datetime
from pathlib import Path

import yaml
from django.utils.text import slugify
from markdown_it import MarkdownIt

from .records import DRAFT, LIVE, Export, Person, Picture, PostRecord, TopicRef
from .safety import ExportError, check_size

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown"}
# Jekyll's file names carry the date: 2021-04-01-hello-world.md
DATED_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")

_renderer = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")


class FrontMatterLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases: an alias is a reference, and a few nested ones
    expand to billions of items once the value is read (YAML's billion laughs)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not accepted", self.peek_event().start_mark
            )
        return super().compose_node(parent, index)


def read_yaml(lines, name, first_line):
    try:
        data = yaml.load("\n".join(lines), Loader=FrontMatterLoader)  # noqa: S506 - safe loader
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{name}, line {first_line + mark.line}" if mark else name
        problem = getattr(error, "problem", None) or "invalid YAML"
        raise ExportError(f"{where}: the front matter cannot be read ({problem}).") from error
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ExportError(f"{name}, line {first_line}: the front matter is not a list of keys.")
    return {str(key).lower(): value for key, value in data.items()}


def split_front_matter(text, name):
    lines = text.splitlines()
    if not lines or lines[0].strip() not in {"---", "+++"}:
        return {}, text
    fence = lines[0].strip()
    try:
        end = next(i for i, line in enumerate(lines[1:], start=1) if line.strip() == fence)
    except StopIteration:
        raise ExportError(f"{name}: the front matter opened on line 1 is never closed.") from None
    body = "\n".join(lines[end + 1 :])
    if fence == "+++":
        try:
            return tomllib.loads("\n".join(lines[1:end])), body
        except tomllib.TOMLDecodeError as error:
            raise ExportError(f"{name}: the TOML front matter is invalid: {error}.") from error
    return read_yaml(lines[1:end], name, 2), body


def as_datetime(value, where):
    if isinstance(value, datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    text = str(value).strip().replace(" ", "T", 1)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as error:
        raise ExportError(f"{where}: “{value}” is not a date.") from error
    return as_datetime(parsed, where)


def as_list(value):
    if value in (None, ""):
        return []
    return value if isinstance(value, list) else [part.strip() for part in str(value).split(",")]


def parse_markdown_folder(folder):
    folder = Path(folder)
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in MARKDOWN_SUFFIXES)
    posts = [parse_markdown_file(path, folder) for path in files]
    return Export(source=f"markdown:{folder.name}", posts=posts)


def parse_markdown_file(path, root):
    name = str(path.relative_to(root))
    check_size(path.stat().st_size, name)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ExportError(f"{name}: not UTF-8 text.") from error
    meta, body = split_front_matter(text, name)
    dated = DATED_NAME.match(path.stem)
    stem_slug = dated.group(4) if dated else path.stem
    title = str(meta.get("title") or stem_slug.replace("-", " ").capitalize())
    when = meta.get("date") or (dated and "-".join(dated.groups()[:3]))
    published = as_datetime(when, name) if when else None
    draft = meta.get("draft") is True or meta.get("published") is False
    topics = []
    for value in as_list(meta.get("categories")) + as_list(meta.get("tags")):
        topic = TopicRef(slug=slugify(str(value))[:80], name=str(value)[:80])
        if topic.slug and topic.slug not in {t.slug for t in topics}:
            topics.append(topic)
    authors = [
        Person(slug=slugify(str(a))[:120], name=str(a)[:120])
        for a in as_list(meta.get("author") or meta.get("authors"))
        if slugify(str(a))
    ]
    image = meta.get("image") or meta.get("cover") or meta.get("featured_image")
    if isinstance(image, dict):  # Hugo's cover: {image: …, alt: …}
        image = image.get("image")
    slug = slugify(str(meta.get("slug") or stem_slug))
    old = [str(address) for address in as_list(meta.get("aliases") or meta.get("redirect_from"))]
    if meta.get("permalink"):
        old.append(str(meta["permalink"]))
    return PostRecord(
        source_id=name,
        title=title,
        slug=slug,
        status=DRAFT if draft or published is None else LIVE,
        published_at=published,
        authors=authors,
        topics=topics,
        summary=str(meta.get("summary") or meta.get("description") or meta.get("excerpt") or ""),
        hero=Picture(ref=str(image), alt=str(meta.get("image_alt") or meta.get("alt") or ""))
        if image
        else None,
        body_html=markdown_html(body),
        old_addresses=old,
        featured=meta.get("featured") is True,
        base_dir=str(path.parent),
    )


def markdown_html(text):
    """Markdown as HTML, raw HTML kept: html_to_blocks sanitises whatever the body holds."""
    return _renderer.render(text)
