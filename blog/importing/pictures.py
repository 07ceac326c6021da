"""Pictures for imported posts, found in a folder or an unpacked zip (never downloaded) and
added to the image library once, however many posts or runs use them."""

import io
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.core.files.images import ImageFile
from PIL import Image as PILImage
from PIL import UnidentifiedImageError
from wagtail.images import get_image_model
from wagtail.images.fields import get_allowed_image_extensions

from .markdown import MARKDOWN_SUFFIXES
from .models import ImportedItem
from .safety import (
    MAX_EXPORT_BYTES,
    MAX_UNPACKED_BYTES,
    ExportError,
    max_picture_bytes,
    readable_size,
)


class PictureProblem(Exception):
    """A picture that exists but cannot be used (too large, not an image)."""


# What the parsers read from a zip; a picture is whatever the image library accepts. Anything
# else in a zip (videos, PDFs, themes) is never used, so never unpacked.
EXPORT_SUFFIXES = {".xml", ".json", ".toml", ".yml", ".yaml", *MARKDOWN_SUFFIXES}
CHUNK_BYTES = 1024 * 1024


class Unpacked:
    """A zip unpacked: its folder, and the pictures left in it for their size (path → why)."""

    def __init__(self, folder, left_out):
        self.folder, self.left_out = folder, left_out


def unpack(archive, target):
    """The zip's export texts and pictures under `target`, read a chunk at a time: a member is
    counted as it is read (a zip's headers say whatever its maker wrote), and reading stops one
    byte past a cap. A text over the export limit, a name outside `target` or more than
    MAX_UNPACKED_BYTES in all refuse the zip; a picture over the upload limit is left out and
    reported with the posts that wanted it."""
    target = Path(target).resolve()
    picture_suffixes = {f".{extension}" for extension in get_allowed_image_extensions()}
    left_out, unpacked = {}, 0
    try:
        with zipfile.ZipFile(archive) as bundle:
            for member in bundle.infolist():
                suffix = PurePosixPath(member.filename).suffix.lower()
                if member.is_dir() or suffix not in EXPORT_SUFFIXES | picture_suffixes:
                    continue
                path = (target / member.filename).resolve()
                if not path.is_relative_to(target):
                    raise ExportError(f"The zip holds a file outside its folder: {member.filename}")
                is_text = suffix in EXPORT_SUFFIXES
                cap = MAX_EXPORT_BYTES if is_text else max_picture_bytes()
                cap = min(cap, MAX_UNPACKED_BYTES - unpacked)
                path.parent.mkdir(parents=True, exist_ok=True)
                with bundle.open(member) as source:
                    size = copy_at_most(source, path, cap)
                unpacked += size
                if unpacked > MAX_UNPACKED_BYTES:
                    raise ExportError(
                        f"The zip unpacks to more than {readable_size(MAX_UNPACKED_BYTES)}; "
                        "it was refused."
                    )
                if size > cap and is_text:
                    raise ExportError(
                        f"{member.filename} in the zip is larger than "
                        f"{readable_size(MAX_EXPORT_BYTES)}, the largest export accepted; "
                        "the zip was refused."
                    )
                if size > cap:
                    path.unlink()
                    left_out[path] = (
                        f"{member.filename} is larger than {readable_size(cap)}; pictures may "
                        f"be at most {readable_size(max_picture_bytes())}"
                    )
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as error:
        # A damaged member, an unknown compression, a password-protected zip.
        raise ExportError(f"The zip cannot be read: {error}.") from error
    return Unpacked(target, left_out)


def copy_at_most(source, path, cap):
    """Copies `source` into `path` until it ends or passes `cap`; the bytes read (cap + 1 at
    most, so a caller sees it passed)."""
    read = 0
    with path.open("wb") as out:
        while read <= cap:
            chunk = source.read(min(CHUNK_BYTES, cap + 1 - read))
            if not chunk:
                break
            read += len(chunk)
            if read <= cap:
                out.write(chunk)
    return read


class MediaFolder:
    """Finds a picture by the end of its old address: .../wp-content/uploads/2020/01/a.jpg is
    found as wp-content/uploads/2020/01/a.jpg, uploads/2020/01/a.jpg, … or a.jpg."""

    def __init__(self, root, left_out=None):
        self.root = Path(root).resolve() if root else None
        # Pictures a zip held but that were not unpacked (too large): found, then reported.
        self.left_out = left_out or {}
        self.by_name = {}
        if self.root is not None:
            for path in [*self.root.rglob("*"), *self.left_out]:
                if path in self.left_out or path.is_file():
                    self.by_name.setdefault(path.name.lower(), []).append(path)

    def find(self, ref, base_dir=None):
        ref = ref.strip()
        parsed = urlparse(ref)
        if base_dir and not parsed.scheme and not ref.startswith("/"):
            candidate = (Path(base_dir) / unquote(parsed.path)).resolve()
            allowed = [p for p in (self.root, Path(base_dir).resolve()) if p is not None]
            if candidate.is_file() and any(candidate.is_relative_to(p) for p in allowed):
                return candidate
        parts = [p for p in PurePosixPath(unquote(parsed.path)).parts if p not in {"/", ".."}]
        if not parts:
            return None
        candidates = self.by_name.get(parts[-1].lower(), [])

        def shared_tail(path):
            theirs = [p.lower() for p in path.relative_to(self.root).parts]
            count = 0
            for mine, other in zip(reversed(parts), reversed(theirs), strict=False):
                if mine.lower() != other:
                    break
                count += 1
            return count

        return max(candidates, key=shared_tail, default=None)


def checked_image_file(path):
    """The file as an ImageFile, after the checks an upload gets."""
    size = path.stat().st_size
    if size > max_picture_bytes():
        raise PictureProblem(
            f"{path.name} is {readable_size(size)}; pictures may be at most "
            f"{readable_size(max_picture_bytes())}"
        )
    extension = path.suffix.lower().lstrip(".")
    if extension not in get_allowed_image_extensions():
        raise PictureProblem(f"{path.name} is not a picture type the library accepts")
    data = path.read_bytes()
    try:
        with PILImage.open(io.BytesIO(data)) as opened:
            width, height = opened.size
            opened.verify()
    except (UnidentifiedImageError, OSError, SyntaxError) as error:
        raise PictureProblem(f"{path.name} is not a readable picture") from error
    if width * height > settings.WAGTAILIMAGES_MAX_IMAGE_PIXELS:
        raise PictureProblem(f"{path.name} has more pixels than uploads may have")
    return ImageFile(io.BytesIO(data), name=path.name)


class PictureLibrary:
    """Resolves an export's pictures to library images, importing each file once."""

    def __init__(self, source, media, dry_run=False):
        self.source, self.media, self.dry_run = source, media, dry_run
        self.known = {}

    def image_for(self, picture, base_dir=None):
        """(image id or None, problem or None). In a dry run a found picture is a stand-in 0."""
        path = self.media.find(picture.ref, base_dir)
        if path is None:
            return None, f"not found: {picture.ref}"
        key = f"picture:{path.relative_to(self.media.root) if self.media.root in path.parents else path}"
        if key in self.known:
            return self.known[key], None
        if path in self.media.left_out:
            return None, self.media.left_out[path]
        try:
            image_file = checked_image_file(path)
        except PictureProblem as problem:
            return None, str(problem)
        if self.dry_run:
            self.known[key] = 0
            return 0, None
        item = ImportedItem.objects.filter(source=self.source, key=key, image__isnull=False).first()
        if item is None:
            image = get_image_model().objects.create(
                title=PurePosixPath(picture.ref).stem.replace("-", " ")[:255] or path.stem,
                file=image_file,
                description=picture.alt,
            )
            ImportedItem.objects.update_or_create(
                source=self.source, key=key, defaults={"image": image}
            )
            image_id = image.pk
        else:
            image_id = item.image_id
        self.known[key] = image_id
        return image_id, None
