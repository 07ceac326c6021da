"""Media on S3-compatible object storage, shared by every app server."""

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from storages.backends.s3 import S3Storage


class MediaStorage(S3Storage):
    """django-storages' S3Storage that fails fast and fails as an OSError when the store is down.

    Wagtail turns an OSError while opening an original image into a "not found" rendition, so a
    page whose picture needs a new rendition still renders (with the alt text) during an outage
    instead of answering 500. Existing renditions never touch the store: their URLs come from
    the database and are signed locally.
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

    def _open(self, name, mode="rb"):
        try:
            return super()._open(name, mode)
        except (BotoCoreError, ClientError) as error:
            raise OSError(f"object storage unavailable for {name}: {error}") from error
