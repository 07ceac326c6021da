"""Pictures for imported posts, found in a folder or an unpacked zip (never downloaded) and
added to the image library once, however many posts or runs use them."""

import io
import zipfile
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.core.files.images import ImageFile
from PIL import Image as PILImage
from PIL import UnidentifiedImageError
from wagtail.images import get_image_model
from wagtail.images.fields import get_allowed_image_extensions

from .models import ImportedItem
from .safety import MAX_UNPACKED_BYTES, ExportError, max_picture_bytes


class PictureProblem(Exception):
    """A picture that exists but cannot be used (too large, not an image)."""


def unpack(archive, target):
    """The zip's files under `target`; refused if a name leaves it or the sizes add up to a
    zip bomb."""
    target = Path(target).resolve()
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = [m for m in bundle.infolist() if not m.is_dir()]
            if sum(m.file_size for m in members) > MAX_UNPACKED_BYTES:
                raise ExportError("The zip unpacks to more than 4 GB; it was refused.")
            for member in members:
                path = (target / member.filename).resolve()
                if not path.is_relative_to(target):
                    raise ExportError(f"The zip holds a file outside its folder: {member.filename}")
                path.parent.mkdir(parents=True, exist_ok=True)
                with bundle.open(member) as source, path.open("wb") as out:
                    out.write(source.read(MAX_UNPACKED_BYTES))
    except zipfile.BadZipFile as error:
        raise ExportError(f"The zip cannot be read: {error}.") from error
    return target


class MediaFolder:
    """Finds a picture by the end of its old address: .../wp-content/uploads/2020/01/a.jpg is
    found as wp-content/uploads/2020/01/a.jpg, uploads/2020/01/a.jpg, … or a.jpg."""

    def __init__(self, root):
        self.root = Path(root).resolve() if root else None
        self.by_name = {}
        if self.root is not None:
            for path in self.root.rglob("*"):
                if path.is_file():
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
            f"{path.name} is {size // (1024 * 1024)} MB; pictures may be at most "
            f"{max_picture_bytes() // (1024 * 1024)} MB"
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
