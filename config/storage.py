"""Media on S3-compatible object storage, shared by every app server."""

import contextvars
import functools
import logging

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control
from storages.backends.s3 import S3Storage

logger = logging.getLogger(__name__)


class ObjectStoreUnavailable(OSError):
    """The object store did not answer (or refused): an outage, not a missing file."""


# Set when this request met the store down: whatever it rendered is a stand-in (a picture as
# its alt text) that no cache may keep once the store is back.
outage_seen = contextvars.ContextVar("object_store_outage_seen", default=False)


# What S3 answers for a key that is not there: the file is missing, the store is fine.
MISSING_KEY_CODES = {"404", "NoSuchKey", "NotFound"}


def outage_as_oserror(method):
    @functools.wraps(method)
    def wrapper(self, name, *args, **kwargs):
        try:
            return method(self, name, *args, **kwargs)
        except (ClientError, BotoCoreError) as error:
            code = (
                error.response.get("Error", {}).get("Code") if hasattr(error, "response") else None
            )
            if code in MISSING_KEY_CODES:
                raise FileNotFoundError(f"not in the object store: {name}") from error
            outage_seen.set(True)
            raise ObjectStoreUnavailable(
                f"object storage unavailable for {name}: {error}"
            ) from error

    return wrapper


class MediaStorage(S3Storage):
    """django-storages' S3Storage that fails fast, and fails as an OSError when the store is down.

    Wagtail turns an OSError while opening an original image into a "not found" rendition, so a
    page whose picture needs a new rendition still renders (with the alt text) during an outage
    instead of answering 500; callers that ask for a size or save a file get the same OSError
    (ObjectStoreOutageMiddleware turns it into a readable 503). Existing renditions never
    touch the store: their URLs come from the database and are signed locally.
    """

    def __init__(self, **settings):
        super().__init__(**settings)
        # boto3's defaults (60 s connect timeout, retries with backoff) would hold a web worker
        # for minutes while the store is down.
        self.client_config = self.client_config.merge(
            Config(
                connect_timeout=2, read_timeout=10, retries={"max_attempts": 2, "mode": "standard"}
            )
        )

    # Every call that reaches the store over the network; url() signs locally and never does.
    _open = outage_as_oserror(S3Storage._open)
    _save = outage_as_oserror(S3Storage._save)
    exists = outage_as_oserror(S3Storage.exists)
    size = outage_as_oserror(S3Storage.size)
    delete = outage_as_oserror(S3Storage.delete)
    listdir = outage_as_oserror(S3Storage.listdir)
    get_modified_time = outage_as_oserror(S3Storage.get_modified_time)


class ObjectStoreOutageMiddleware:
    """What the app does when a request meets the object store down.

    A page that rendered anyway (pictures as their alt text) goes out marked `no-store`, so
    neither the page cache nor a browser keeps the stand-in after the store is back. An upload
    answers a readable 503 that says nothing was saved, not a 500: the file goes up before the
    row is inserted, so a failed upload leaves no half-saved image behind.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = outage_seen.set(False)
        try:
            response = self.get_response(request)
            if outage_seen.get():
                patch_cache_control(response, no_store=True)
            return response
        finally:
            outage_seen.reset(token)

    def process_exception(self, request, exception):
        if not isinstance(exception, ObjectStoreUnavailable):
            return None
        logger.warning(
            "object store unavailable during %s %s: %s", request.method, request.path, exception
        )
        if request.path.startswith("/admin/"):
            back = {"back_url": "/admin/", "back_label": "Back to the dashboard"}
        else:
            back = {"back_url": "/", "back_label": "Go to the home page"}
        response = TemplateResponse(request, "503_media_storage.html", back, status=503)
        response["Retry-After"] = "60"
        # Rendered here: a failure inside another response's rendering is not rendered again.
        return response.render()
