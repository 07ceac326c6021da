"""Opening what an operator or a Publisher hands over: an export file, a folder or a zip.

An upload waits for its dry run and its import in the database (ImportUpload); the copy a
run reads and unpacked zips wait in one folder of the server's temporary folder. Never in the
media storage (which may be public: an export holds drafts and private posts). Each is removed
when its import ends; what a stopped process or a dry run never confirmed left is swept after
a day (sweep_abandoned, sweep_after_pass).
"""

import logging
import shutil
import tempfile
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from django.db.models import Q
from django.utils import timezone

from .ghost import parse_ghost
from .markdown import MARKDOWN_SUFFIXES, parse_markdown_folder
from .models import ImportRun, ImportUpload
from .pictures import MediaFolder, unpack
from .safety import ExportError, check_size
from .wxr import parse_wxr

FORMATS = ["wxr", "ghost", "markdown"]
# An upload waits this long for its Publisher to confirm the dry run, then it is swept.
ABANDONED_AFTER = timedelta(days=1)

logger = logging.getLogger(__name__)


def import_folder():
    folder = Path(tempfile.gettempdir()) / "cedana-imports"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def sweep_abandoned(now=None):
    """Removes uploads and unpacked zips untouched for ABANDONED_AFTER; how many."""
    oldest = (now or time.time()) - ABANDONED_AFTER.total_seconds()
    removed = 0
    for path in import_folder().iterdir():
        try:
            if path.lstat().st_mtime >= oldest:
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except FileNotFoundError:  # another process swept it first
            continue
        except OSError:
            logger.exception("Could not remove the abandoned import file %s", path)
            continue
        removed += 1
    return removed


def sweep_after_pass(**kwargs):
    """The scheduler's pass (run_scheduler) sweeps too: the upload of a dry run its Publisher
    never confirmed goes after a day, and so does the upload of an import or dry run whose
    worker was killed mid-way (an import that ends removes its own)."""
    removed = sweep_abandoned()
    silent_since = timezone.now() - ABANDONED_AFTER
    removed += ImportUpload.objects.filter(
        Q(run__status=ImportRun.RUNNING) | Q(run__status=ImportRun.DONE, run__dry_run=True),
        run__updated_at__lt=silent_since,
    ).delete()[0]
    return f"Removed {removed} abandoned import upload(s)." if removed else None


SITE_MARKERS = ("_config.yml", "_config.yaml", "_config.toml", "hugo.toml", "hugo.yaml", "_posts")


def guess_format(path):
    path = Path(path)
    if path.is_dir():
        # A Jekyll or Hugo site may hold one .xml or .json of its own (a feed, a data file).
        if any(next(path.rglob(marker), None) for marker in SITE_MARKERS):
            return "markdown"
        exports = [p for p in path.rglob("*") if p.suffix.lower() in {".xml", ".json"}]
        if len(exports) == 1:
            return guess_format(exports[0])
        return "markdown"
    suffix = path.suffix.lower()
    if suffix == ".xml":
        return "wxr"
    if suffix == ".json":
        return "ghost"
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    raise ExportError(f"Cannot tell the export's format from “{path.name}”; name it with --format.")


def export_file(folder, suffix):
    found = sorted(p for p in Path(folder).rglob(f"*{suffix}"))
    if len(found) != 1:
        raise ExportError(f"Expected one {suffix} export in the folder, found {len(found)}.")
    return found[0]


@contextmanager
def opened(source, export_format=None, media=None, name=None):
    """(Export, MediaFolder) for a file, a folder or a zip; a zip is unpacked for the run.
    `name` is the export's name as its owner knows it (an upload's file name), when `source`
    is a copy under another name."""
    source = Path(source)
    if not source.exists():
        raise ExportError(f"{source} does not exist.")
    left_out = {}
    site_name = None
    with tempfile.TemporaryDirectory(prefix="unpacked-", dir=import_folder()) as scratch:
        if source.suffix.lower() == ".zip":
            check_size(source.stat().st_size, "The zip")
            zip_name = source.name
            unpacked = unpack(source, scratch)
            source, left_out = unpacked.folder, unpacked.left_out
            inside = list(source.iterdir())
            if len(inside) == 1 and inside[0].is_dir():
                # A zip of a site's folder: the folder's name names the site across runs.
                source = inside[0]
            else:
                # A site zipped from inside its folder: the zip's name names it, never the
                # scratch folder, which is new each run (its posts would come in again).
                site_name = Path(name or zip_name).stem
        export_format = export_format or guess_format(source)
        folder = source if source.is_dir() else source.parent
        if export_format == "markdown":
            export = parse_markdown_folder(folder, site_name)
            media_root = media or folder
        else:
            suffix = ".xml" if export_format == "wxr" else ".json"
            path = export_file(source, suffix) if source.is_dir() else source
            check_size(path.stat().st_size, path.name)
            parse = parse_wxr if export_format == "wxr" else parse_ghost
            export = parse(path.read_bytes())
            media_root = media or (source if source.is_dir() else None)
        yield export, MediaFolder(media_root, left_out if media_root == source else None)
