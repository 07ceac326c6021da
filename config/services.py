"""The shared services many identical app servers lean on, each switched on by the environment:
object storage for media, a search backend and a read replica. Plain functions of the
environment, so settings stay declarative and the choices can be tested one by one."""

from urllib.parse import urlsplit

import dj_database_url

S3_ENV_OPTIONS = {
    # environment variable -> django-storages S3Storage option
    "AWS_STORAGE_BUCKET_NAME": "bucket_name",
    "AWS_S3_ENDPOINT_URL": "endpoint_url",
    "AWS_ACCESS_KEY_ID": "access_key",
    "AWS_SECRET_ACCESS_KEY": "secret_key",
    "AWS_S3_REGION_NAME": "region_name",
    "AWS_S3_CUSTOM_DOMAIN": "custom_domain",
    "AWS_S3_ADDRESSING_STYLE": "addressing_style",
    "AWS_LOCATION": "location",
}


def _flag(environ, name, default):
    value = environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def media_storage(environ):
    """STORAGES["default"]: the S3 bucket when AWS_STORAGE_BUCKET_NAME is set, else local disk."""
    if not environ.get("AWS_STORAGE_BUCKET_NAME"):
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    options = {
        option: environ[name] for name, option in S3_ENV_OPTIONS.items() if environ.get(name)
    }
    options.update(
        # Two servers uploading "diagram.png" at once must not overwrite each other's file.
        file_overwrite=False,
        # The bucket stays private: documents are only reachable through Wagtail's serve view,
        # and image URLs are signed locally (no request to the store) unless a CDN domain
        # with public reads is configured in front of it.
        default_acl=None,
        querystring_auth=_flag(environ, "AWS_QUERYSTRING_AUTH", True),
        querystring_expire=int(environ.get("AWS_QUERYSTRING_EXPIRE", "86400")),
        signature_version="s3v4",
    )
    return {"BACKEND": "config.storage.MediaStorage", "OPTIONS": options}


def opensearch_backends(environ):
    """WAGTAILSEARCH_BACKENDS for OpenSearch when OPENSEARCH_URL is set, else None (the database
    backend of settings/base.py stays). Needs the `opensearch` extra (opensearch-py)."""
    urls = [u.strip() for u in environ.get("OPENSEARCH_URL", "").split(",") if u.strip()]
    if not urls:
        return None
    backend = {
        "BACKEND": "modelsearch.backends.opensearch3",
        "URLS": urls,
        "INDEX_PREFIX": environ.get("OPENSEARCH_INDEX_PREFIX", "cedana_"),
        "TIMEOUT": int(environ.get("OPENSEARCH_TIMEOUT", "5")),
        "AUTO_UPDATE": True,
        # Rebuilds fill a fresh index and then swap an alias: readers never search half an index.
        "ATOMIC_REBUILD": True,
        "OPTIONS": {},
    }
    if urlsplit(urls[0]).scheme == "https":
        backend["OPTIONS"]["verify_certs"] = _flag(environ, "OPENSEARCH_VERIFY_CERTS", True)
    return {"default": backend}


def replica_database(environ, conn_max_age, conn_health_checks=True):
    """DATABASES["replica"] for anonymous reader traffic, or None without DATABASE_REPLICA_URL."""
    url = environ.get("DATABASE_REPLICA_URL", "").strip()
    if not url:
        return None
    replica = dj_database_url.parse(
        url, conn_max_age=conn_max_age, conn_health_checks=conn_health_checks
    )
    # Tests never build a second schema: the replica is the primary's copy, not a new database.
    replica["TEST"] = {"MIRROR": "default"}
    return replica
