"""Opening what an operator or a Publisher hands over: an export file, a folder or a zip."""

import tempfile
from contextlib import contextmanager
from pathlib import Path

from .ghost import parse_ghost
from .markdown import MARKDOWN_SUFFIXES, parse_markdown_folder
from .pictures import MediaFolder, unpack
from .safety import ExportError, check_size
from .wxr import parse_wxr

FORMATS = ["wxr", "ghost", "markdown"]


def guess_format(path):
    path = Path(path)
    if path.is_dir():
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
def opened(source, export_format=None, media=None):
    """(Export, MediaFolder) for a file, a folder or a zip; a zip is unpacked for the run."""
    source = Path(source)
    if not source.exists():
        raise ExportError(f"{source} does not exist.")
    left_out = {}
    with tempfile.TemporaryDirectory(prefix="import-") as scratch:
        if source.suffix.lower() == ".zip":
            check_size(source.stat().st_size, "The zip")
            unpacked = unpack(source, scratch)
            source, left_out = unpacked.folder, unpacked.left_out
        export_format = export_format or guess_format(source)
        folder = source if source.is_dir() else source.parent
        if export_format == "markdown":
            export = parse_markdown_folder(folder)
            media_root = media or folder
        else:
            suffix = ".xml" if export_format == "wxr" else ".json"
            path = export_file(source, suffix) if source.is_dir() else source
            check_size(path.stat().st_size, path.name)
            parse = parse_wxr if export_format == "wxr" else parse_ghost
            export = parse(path.read_bytes())
            media_root = media or (source if source.is_dir() else None)
        yield export, MediaFolder(media_root, left_out if media_root == source else None)
