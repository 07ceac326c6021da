"""A folder of Markdown files with front matter: a Jekyll or Hugo site, or any folder of posts.

The folder is read as the tool that built the old site read it:
- Jekyll (a `_config.yml` or a `_posts` folder): the posts are `_posts/**` (dated by their file
  name, `2016-1-29-slug.md`, unless the front matter says otherwise) and `_drafts/**` (drafts);
  the old addresses follow the site's `permalink` (top level, `collections.posts` or
  `defaults`), else Jekyll's default `/:categories/:year/:month/:day/:title.html`.
- Hugo (a `hugo.toml`, `config.toml` … or a `content` folder): the posts are the pages of the
  site's main sections (`mainSections`, else the section with the most pages, as Hugo chooses),
  a page bundle's `index.md` included; the old addresses follow `permalinks`, else Hugo's
  default `/section/slug/`.
- Any other folder: every Markdown file is a post.
Other Markdown files of a site are its pages, reported and not imported.

Dates are read as these tools read them: unpadded months and days, with or without a time and
a zone; a date without a zone is in the site's `timezone` (Jekyll) or `timeZone` (Hugo). A post
dated in the future is scheduled unless the site published future posts (`future`,
`buildFuture`). Front matter between `---` lines is YAML, read with PyYAML's safe loader
(aliases refused); between `+++` lines TOML. Liquid tags and Hugo shortcodes become links, code
or text (liquid.py); what has no equivalent is left out with a note. A post that cannot be read
is reported with its file and line and skipped; it never stops the others.
"""

import re
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone
from html import unescape
from pathlib import Path, PurePosixPath
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from django.utils import timezone as django_timezone
from django.utils.text import slugify
from markdown_it import MarkdownIt

from .liquid import expand_templates
from .records import DRAFT, LIVE, SCHEDULED, Export, Person, Picture, PostRecord, TopicRef
from .safety import ExportError, check_size

MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown"}
# Jekyll's file names carry the date, its month and day with or without a leading zero.
DATED_NAME = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-(.+)$")
# Dates as Jekyll (Ruby's Time.parse) and Hugo write them: 2016-1-29, 2016-01-29 8:00,
# 2013-09-14 20:46:50 -0400, 2019-07-25T10:00:00+02:00, 2015-1-1 12:00 UTC.
DATE_TEXT = re.compile(
    r"^(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[T ]\s*(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?"
    r"\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$",
    re.IGNORECASE,
)
JEKYLL_CONFIGS = ("_config.yml", "_config.yaml", "_config.toml")
HUGO_CONFIGS = (
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "config.toml",
    "config.yaml",
    "config.yml",
    "config/_default/hugo.toml",
    "config/_default/config.toml",
    "config/_default/hugo.yaml",
    "config/_default/config.yaml",
)
JEKYLL_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}

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
    except RecursionError as error:
        raise ExportError(f"{name}: the front matter is nested too deeply.") from error
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ExportError(f"{name}, line {first_line}: the front matter is not a list of keys.")
    return {str(key).lower(): value for key, value in data.items()}


def read_toml(text, name):
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExportError(f"{name}: the TOML front matter is invalid: {error}.") from error
    except RecursionError as error:
        raise ExportError(f"{name}: the front matter is nested too deeply.") from error
    return {str(key).lower(): value for key, value in data.items()}


def split_front_matter(text, name):
    lines = text.splitlines()
    # Hugo reads front matter after blank lines too.
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start == len(lines) or lines[start].strip() not in {"---", "+++"}:
        return {}, text
    fence = lines[start].strip()
    try:
        end = next(
            i for i, line in enumerate(lines[start + 1 :], start=start + 1) if line.strip() == fence
        )
    except StopIteration:
        raise ExportError(
            f"{name}: the front matter opened on line {start + 1} is never closed."
        ) from None
    body = "\n".join(lines[end + 1 :])
    if fence == "+++":
        return read_toml("\n".join(lines[start + 1 : end]), name), body
    return read_yaml(lines[start + 1 : end], name, start + 2), body


def zone_named(name):
    if not name:
        return UTC
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def as_datetime(value, where, zone=UTC):
    """A front matter date as UTC; one without a zone is in the site's time zone."""
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=zone)
        return aware.astimezone(UTC)
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=zone).astimezone(UTC)
    if isinstance(value, time):
        raise ExportError(f"{where}: “{value}” is a time, not a date.")
    match = DATE_TEXT.match(str(value).strip())
    if not match:
        raise ExportError(f"{where}: “{value}” is not a date.")
    year, month, day, hour, minute, second, offset = match.groups()
    try:
        naive = datetime(
            int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0)
        )
    except ValueError as error:
        raise ExportError(f"{where}: “{value}” is not a date ({error}).") from error
    if offset and offset.upper() not in {"Z", "UTC", "GMT"}:
        digits = offset[1:].replace(":", "")
        delta = timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        zone = timezone(delta if offset[0] == "+" else -delta)
    elif offset:
        zone = UTC
    return naive.replace(tzinfo=zone).astimezone(UTC)


def as_list(value, split_words=False):
    """A front matter list; a string is split on commas, or on spaces where Jekyll splits it
    (`categories: Posts Articles` is two categories)."""
    if value in (None, ""):
        return []
    if isinstance(value, list | tuple):
        return [str(item).strip() for item in value if str(item).strip()]
    text = str(value)
    parts = text.split(",") if "," in text or not split_words else text.split()
    return [part.strip() for part in parts if part.strip()]


def markdown_html(text):
    """Markdown as HTML, raw HTML kept: html_to_blocks sanitises whatever the body holds."""
    return _renderer.render(text)


# The site --------------------------------------------------------------------------------


@dataclass
class Site:
    """What the folder's configuration says about its posts."""

    root: Path
    tool: str = ""  # "jekyll", "hugo" or "" for a plain folder
    config: dict = field(default_factory=dict)
    zone: object = UTC
    url: str = ""

    @property
    def publishes_future_posts(self):
        return bool(self.config.get("future") or self.config.get("buildfuture"))


def read_config(path):
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix == ".toml":
        return read_toml(text, path.name)
    return read_yaml(text.splitlines(), path.name, 1)


def find_site(folder):
    """The site in `folder`: its root is where its configuration (or _posts, content) is."""
    candidates = []
    for name in (*JEKYLL_CONFIGS, *HUGO_CONFIGS):
        candidates += [
            (len(path.relative_to(folder).parts), name, path)
            for path in folder.rglob(PurePosixPath(name).name)
            if path.relative_to(folder).as_posix().endswith(name) and path.is_file()
        ]
    for _depth, name, path in sorted(candidates, key=lambda c: c[0]):
        root = path.parents[len(PurePosixPath(name).parts) - 1]
        tool = "jekyll" if name in JEKYLL_CONFIGS else "hugo"
        if tool == "hugo" and name.startswith("config.") and not (root / "content").is_dir():
            continue  # a config.yaml of something else
        try:
            config = read_config(path)
        except (ExportError, UnicodeDecodeError, OSError):
            config = {}
        return site_from(root, tool, config)
    posts = sorted(folder.rglob("_posts"), key=lambda p: len(p.parts))
    if posts:
        return site_from(posts[0].parent, "jekyll", {})
    content = sorted(folder.rglob("content"), key=lambda p: len(p.parts))
    if content and content[0].is_dir() and folder.name != "content":
        return site_from(content[0].parent, "hugo", {})
    return Site(root=folder)


def site_from(root, tool, config):
    config = {str(key).lower(): value for key, value in config.items()}
    zone = zone_named(config.get("timezone"))
    url = str(config.get("url") or "") + str(config.get("baseurl") or "")
    return Site(root=root, tool=tool, config=config, zone=zone, url=url.rstrip("/"))


# Reading the folder ----------------------------------------------------------------------


@dataclass
class Page:
    path: Path
    name: str  # relative to the folder, for messages and ids
    meta: dict
    body: str
    kind: str  # "post" or "draft"


def parse_markdown_folder(folder, site_name=None):
    """The posts of the site in `folder`; `site_name` names a site without a `url` across runs
    when the folder's own name is not the site's (a zip unpacked into a scratch folder)."""
    folder = Path(folder)
    site = find_site(folder)
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in MARKDOWN_SUFFIXES)
    skipped = []
    chosen = choose_posts(site, folder, files, skipped)
    pages = []
    for path, kind in chosen:
        name = path.relative_to(folder).as_posix()
        try:
            check_size(path.stat().st_size, name)
            try:
                text = path.read_text(encoding="utf-8-sig")
            except UnicodeDecodeError as error:
                raise ExportError(f"{name}: not UTF-8 text.") from error
            meta, body = split_front_matter(text, name)
        except ExportError as error:
            skipped.append((name, f"it could not be read: {error}"))
            continue
        pages.append(Page(path, name, meta, body, kind))
    addresses = {}
    records = []
    for page in pages:
        try:
            record = page_record(site, page)
        except ExportError as error:
            skipped.append((page.name, f"it could not be read: {error}"))
            continue
        except (ValueError, TypeError, AttributeError, RecursionError) as error:
            skipped.append((page.name, f"it could not be read: {type(error).__name__} {error}"))
            continue
        records.append((page, record))
        for key in link_keys(site, page):
            addresses[key] = record.old_addresses[0] if record.old_addresses else ""
    posts = []
    for page, record in records:
        values = template_values(site, page, record)
        try:
            body = expand_templates(page.body, addresses, record.notes, site.tool, values)
            record.body_html = without_repeated_title(markdown_html(body), record.title)
        except RecursionError:
            skipped.append((page.name, "it could not be read: its body is nested too deeply"))
            continue
        posts.append(record)
    source = f"markdown:{site.url or site_name or folder.name}"
    return Export(source=source, posts=posts, skipped=skipped, base_url=site.url)


def template_values(site, page, record):
    """What {{ page.… }} and {{ site.… }} printed on the old site, where it is plain text."""
    values = {f"site.{key}": value for key, value in site.config.items()}
    values.update({f"page.{key}": value for key, value in page.meta.items()})
    values["page.title"] = record.title
    if record.published_at:
        values["page.date"] = record.published_at.astimezone(site.zone).strftime("%-d %b %Y")
    return {
        name: str(value)
        for name, value in values.items()
        if isinstance(value, str | int | float | date) and not isinstance(value, bool)
    }


REPEATED_TITLE = re.compile(r"\A\s*<h[12][^>]*>(.*?)</h[12]>\s*", re.S)


def without_repeated_title(html, title):
    """The body without a first heading that only repeats the title: themes without a title of
    their own had the post write it ({{ page.title }} over a line of ===), and the post page
    shows the title already."""
    heading = REPEATED_TITLE.match(html)
    if heading and words_of(unescape(re.sub(r"<[^>]+>", "", heading.group(1)))) == words_of(title):
        return html[heading.end() :]
    return html


def words_of(text):
    return " ".join(text.split()).casefold()


def choose_posts(site, folder, files, skipped):
    """(path, "post" or "draft") for the folder's posts; its other pages are reported."""
    if site.tool == "jekyll":
        chosen = []
        for path in files:
            parts = path.relative_to(site.root).parts if site.root in path.parents else ()
            if "_posts" in parts:
                chosen.append((path, "post"))
            elif "_drafts" in parts:
                chosen.append((path, "draft"))
            elif not any(part.startswith((".", "_")) for part in parts[:-1]) and parts:
                skipped.append((path.relative_to(folder).as_posix(), "a page of the site"))
        return chosen
    if site.tool == "hugo":
        return hugo_posts(site, folder, files, skipped)
    return [(path, "post") for path in files]


def hugo_posts(site, folder, files, skipped):
    content = site.root / "content"
    pages = {}
    for path in files:
        if content not in path.parents:
            continue
        rel = path.relative_to(content)
        if path.stem == "_index" or path.stem.startswith("_index."):
            continue  # a section's list page
        if path.stem.startswith("index.") or (
            path.stem != "index" and (path.parent / f"index{path.suffix}").exists()
        ):
            # A translation (index.fr.md) or a file inside a page bundle (a resource).
            skipped.append((path.relative_to(folder).as_posix(), "a translation or a resource"))
            continue
        section = rel.parts[0] if len(rel.parts) > 1 else ""
        pages.setdefault(section, []).append(path)
    wanted = site.config.get("mainsections") or (site.config.get("params") or {}).get(
        "mainsections"
    )
    if not wanted:
        sized = sorted(((len(v), k) for k, v in pages.items() if k), reverse=True)
        wanted = [sized[0][1]] if sized else [""]
    wanted = as_list(wanted)
    chosen = []
    for section, paths in pages.items():
        for path in paths:
            if section in wanted:
                chosen.append((path, "post"))
            else:
                skipped.append((path.relative_to(folder).as_posix(), "a page of the site"))
    return sorted(chosen)


def link_keys(site, page):
    """How other posts name this one in {% post_url %}, {% link %} and {{< ref >}}."""
    stem = page.path.stem if page.path.stem != "index" else page.path.parent.name
    keys = {stem, page.path.name}
    if site.root in page.path.parents:
        rel = page.path.relative_to(site.root).as_posix()
        keys |= {rel, rel.removeprefix("content/"), "/" + rel.removeprefix("content/")}
    return keys


def page_record(site, page):
    meta, name = page.meta, page.name
    bundle = page.path.stem == "index" and site.tool == "hugo"
    stem = page.path.parent.name if bundle else page.path.stem
    dated = DATED_NAME.match(stem)
    stem_slug = dated.group(4) if dated else stem
    title = str(meta.get("title") or "").strip()
    if not title and site.tool != "hugo":
        title = " ".join(word.capitalize() for word in stem_slug.replace("_", "-").split("-"))
    when = meta.get("date") or meta.get("publishdate") or meta.get("pubdate")
    if not when and dated:
        when = "-".join(dated.groups()[:3])
    published = as_datetime(when, name, site.zone) if when else None
    draft = (
        page.kind == "draft"
        or meta.get("draft") in (True, "true")
        or meta.get("published") in (False, "false")
    )
    status = DRAFT if draft else LIVE
    if status == LIVE and published and published > django_timezone.now():
        status = LIVE if site.publishes_future_posts else SCHEDULED
    split_words = site.tool == "jekyll"
    categories = as_list(meta.get("category"), split_words=False) + as_list(
        meta.get("categories"), split_words
    )
    topics = []
    for value in categories + as_list(meta.get("tags"), split_words):
        topic = TopicRef(slug=slugify(value)[:80], name=value[:80])
        if topic.slug and topic.slug not in {t.slug for t in topics}:
            topics.append(topic)
    authors = []
    for value in as_list(people(meta.get("author"))) + as_list(people(meta.get("authors"))):
        person = Person(slug=slugify(value)[:120], name=value[:120])
        if person.slug and person.slug not in {a.slug for a in authors}:
            authors.append(person)
    # A dot parts words, as in version numbers: homebrew-1.0.0 is not homebrew-100.
    slug = slugify(str(meta.get("slug") or stem_slug).replace(".", "-")) or slugify(title)
    notes = []
    old = old_address(site, page, meta, stem_slug, published, categories, notes)
    aliases = as_list(meta.get("aliases")) + as_list(meta.get("redirect_from"))
    old_addresses = list(dict.fromkeys(([old] if old else []) + [str(a) for a in aliases]))
    image, alt = hero_of(meta)
    return PostRecord(
        source_id=name,
        title=title[:255],
        slug=slug,
        status=status,
        published_at=published,
        authors=authors,
        topics=topics,
        summary=str(meta.get("summary") or meta.get("description") or meta.get("excerpt") or ""),
        hero=Picture(ref=image, alt=alt) if image else None,
        old_addresses=old_addresses,
        featured=meta.get("featured") is True or meta.get("sticky") is True,
        base_dir=str(page.path.parent),
        notes=notes,
    )


def people(value):
    """Authors as names: a string, a list, or Jekyll's {name: …} objects."""
    if isinstance(value, dict):
        return value.get("name") or value.get("display_name") or ""
    if isinstance(value, list):
        return [people(item) for item in value]
    return value


def hero_of(meta):
    """(picture, alt text) from the keys themes use: image, cover, featured_image, images."""
    image = (
        meta.get("image")
        or meta.get("cover")
        or meta.get("featured_image")
        or meta.get("feature_image")
        or meta.get("images")
    )
    alt = meta.get("image_alt") or meta.get("alt") or ""
    if isinstance(image, list):
        image = image[0] if image else None
    if isinstance(image, dict):  # Hugo's cover: {image: …, alt: …}; jekyll-seo's {path: …}
        alt = image.get("alt") or alt
        image = image.get("image") or image.get("path") or image.get("src")
    return (str(image), str(alt)) if image else ("", "")


# Old addresses ---------------------------------------------------------------------------


def old_address(site, page, meta, stem_slug, published, categories, notes):
    """Where the old site served the post, as its tool computed it."""
    if site.tool == "jekyll":
        pattern = meta.get("permalink") or jekyll_permalink(site.config)
        return fill_jekyll(str(pattern), meta, stem_slug, published, categories, site.zone)
    if site.tool == "hugo":
        if meta.get("url"):
            return str(meta["url"])
        content = site.root / "content"
        rel = page.path.relative_to(content) if content in page.path.parents else None
        section = rel.parts[0] if rel and len(rel.parts) > 1 else ""
        pattern = (site.config.get("permalinks") or {}).get(section)
        slug = str(meta.get("slug") or "") or (
            page.path.parent.name if page.path.stem == "index" else page.path.stem
        )
        if not pattern:
            return f"/{section}/{slug}/".replace("//", "/").lower()
        return fill_hugo(str(pattern), meta, page, section, slug, published, site.zone).lower()
    return str(meta["permalink"]) if meta.get("permalink") else ""


def jekyll_permalink(config):
    """The posts' permalink: the collection's, a `defaults` entry for posts, the site's."""
    collection = (
        ((config.get("collections") or {}).get("posts") or {})
        if isinstance(config.get("collections"), dict)
        else {}
    )
    if isinstance(collection, dict) and collection.get("permalink"):
        return collection["permalink"]
    for entry in config.get("defaults") or []:
        if not isinstance(entry, dict):
            continue
        scope = entry.get("scope") or {}
        values = entry.get("values") or {}
        if (
            isinstance(scope, dict)
            and isinstance(values, dict)
            and values.get("permalink")
            and (scope.get("type") == "posts" or str(scope.get("path", "")).strip("/") == "_posts")
        ):
            return values["permalink"]
    return config.get("permalink") or "date"


def fill_jekyll(pattern, meta, stem_slug, published, categories, zone):
    pattern = JEKYLL_STYLES.get(pattern, pattern)
    local = (published or datetime(1970, 1, 1, tzinfo=UTC)).astimezone(zone)
    title = str(meta.get("slug") or stem_slug)
    values = {
        "year": f"{local.year}",
        "short_year": f"{local.year % 100:02d}",
        "month": f"{local.month:02d}",
        "i_month": f"{local.month}",
        "short_month": local.strftime("%b"),
        "long_month": local.strftime("%B"),
        "day": f"{local.day:02d}",
        "i_day": f"{local.day}",
        "y_day": f"{local.timetuple().tm_yday:03d}",
        "hour": f"{local.hour:02d}",
        "minute": f"{local.minute:02d}",
        "second": f"{local.second:02d}",
        "title": title,
        "slug": slugify(title),
        "categories": "/".join(dict.fromkeys(c.lower() for c in categories)),
        "output_ext": ".html",
        "week": f"{local.isocalendar().week:02d}",
        "short_day": local.strftime("%a"),
    }
    path = re.sub(
        r":([a-z_]+)",
        lambda m: values.get(m.group(1), m.group(0)),
        pattern,
    )
    return re.sub(r"/{2,}", "/", "/" + path.lstrip("/"))


def fill_hugo(pattern, meta, page, section, slug, published, zone):
    local = (published or datetime(1970, 1, 1, tzinfo=UTC)).astimezone(zone)
    title = str(meta.get("title") or "")
    values = {
        "year": f"{local.year}",
        "month": f"{local.month:02d}",
        "monthname": local.strftime("%B"),
        "day": f"{local.day:02d}",
        "weekday": f"{local.isoweekday() % 7}",
        "weekdayname": local.strftime("%A"),
        "yearday": f"{local.timetuple().tm_yday}",
        "section": section,
        "sections": section,
        "title": slugify(title),
        "slug": slugify(str(meta.get("slug") or "")) or slugify(title),
        "slug_or_filename": slug,
        "filename": slug,
        "contentbasename": slug,
        "slug_or_contentbasename": slug,
    }
    path = re.sub(r":([a-z_]+)", lambda m: values.get(m.group(1), m.group(0)), pattern)
    return re.sub(r"/{2,}", "/", "/" + path.lstrip("/"))
