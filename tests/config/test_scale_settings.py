"""What the environment switches on for a multi-server deployment: shared media storage,
sessions, OpenSearch and a read replica. (No OpenSearch server runs here: only the settings
built from OPENSEARCH_URL are checked.)"""

import gc
import importlib
import socket

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from django.core.files.base import ContentFile
from django.http import HttpResponse

from config import gunicorn, services
from config.settings import base
from config.storage import (
    MediaStorage,
    ObjectStoreOutageMiddleware,
    ObjectStoreUnavailable,
    outage_as_oserror,
    outage_seen,
)

S3_ENV = {
    "AWS_STORAGE_BUCKET_NAME": "cedana-media",
    "AWS_S3_ENDPOINT_URL": "http://127.0.0.1:9",
    "AWS_ACCESS_KEY_ID": "key",
    "AWS_SECRET_ACCESS_KEY": "secret",
    "AWS_S3_REGION_NAME": "eu-west-1",
}


@pytest.fixture
def reload_settings(monkeypatch):
    """Re-read config/settings/base.py under a changed environment, and restore it after."""

    def reload(**env):
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return importlib.reload(base)

    yield reload
    monkeypatch.undo()
    importlib.reload(base)


def test_media_stay_on_local_disk_without_a_bucket():
    assert services.media_storage({}) == {"BACKEND": "django.core.files.storage.FileSystemStorage"}


def test_a_bucket_puts_media_on_s3_without_overwrites_and_with_signed_urls():
    storage = services.media_storage(S3_ENV)
    assert storage["BACKEND"] == "config.storage.MediaStorage"
    options = storage["OPTIONS"]
    assert options["bucket_name"] == "cedana-media"
    assert options["endpoint_url"] == "http://127.0.0.1:9"
    assert options["region_name"] == "eu-west-1"
    assert options["file_overwrite"] is False
    assert options["default_acl"] is None
    assert options["querystring_auth"] is True
    assert "custom_domain" not in options


def test_a_cdn_domain_with_public_reads_can_switch_off_signed_urls():
    env = {**S3_ENV, "AWS_S3_CUSTOM_DOMAIN": "media.example.com", "AWS_QUERYSTRING_AUTH": "false"}
    options = services.media_storage(env)["OPTIONS"]
    assert options["custom_domain"] == "media.example.com"
    assert options["querystring_auth"] is False


def test_image_urls_are_computed_without_contacting_the_store(monkeypatch):
    def no_network(*args):
        raise AssertionError("the storage tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    storage = MediaStorage(**services.media_storage(S3_ENV)["OPTIONS"])
    url = storage.url("images/diagram.fill-640x360.png")
    assert url.startswith("http://127.0.0.1:9/cedana-media/images/diagram.fill-640x360.png?")
    assert "X-Amz-Signature=" in url


def test_an_unreachable_store_fails_fast_as_an_os_error(monkeypatch):
    """Wagtail turns an OSError into a 'not found' rendition: the page renders with alt text.
    Fast means few tries with short timeouts (boto3's own: 60 s and retries with backoff), not
    a clock: the attempts are counted and the client's timeouts read."""
    attempts = []
    connect = socket.socket.connect

    def counted(sock, address):
        attempts.append(address)
        return connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", counted)
    storage = MediaStorage(**services.media_storage(S3_ENV)["OPTIONS"])
    with pytest.raises(OSError, match="object storage unavailable"):
        storage.open("original_images/diagram.png")
    assert 1 <= len(attempts) <= 3, attempts
    config = storage.connection.meta.client.meta.config
    assert config.connect_timeout <= 2
    assert config.read_timeout <= 10
    assert config.retries["total_max_attempts"] <= 3  # the first try and two retries


def test_search_uses_the_database_unless_opensearch_is_configured():
    assert services.opensearch_backends({}) is None


def test_opensearch_url_builds_the_modelsearch_opensearch_backend():
    backends = services.opensearch_backends(
        {"OPENSEARCH_URL": "https://search-1:9200, https://search-2:9200"}
    )
    backend = backends["default"]
    assert backend["BACKEND"] == "modelsearch.backends.opensearch3"
    assert backend["URLS"] == ["https://search-1:9200", "https://search-2:9200"]
    assert backend["INDEX_PREFIX"] == "cedana_"
    assert backend["AUTO_UPDATE"] is True
    assert backend["ATOMIC_REBUILD"] is True
    assert backend["OPTIONS"] == {"verify_certs": True}


def test_no_replica_without_its_url():
    assert services.replica_database({}, 60) is None


def test_the_replica_url_becomes_a_second_database():
    replica = services.replica_database(
        {"DATABASE_REPLICA_URL": "postgres://reader@replica.internal:5432/blog"}, 60
    )
    assert replica["HOST"] == "replica.internal"
    assert replica["NAME"] == "blog"
    assert replica["CONN_MAX_AGE"] == 60
    assert replica["TEST"] == {"MIRROR": "default"}


def test_kept_connections_are_checked_before_each_request_unless_turned_off(reload_settings):
    settings = reload_settings(DATABASE_REPLICA_URL="postgres://reader@replica:5432/blog")
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    assert settings.DATABASES["replica"]["CONN_HEALTH_CHECKS"] is True
    settings = reload_settings(DB_CONN_HEALTH_CHECKS="off", DB_CONN_MAX_AGE="30")
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is False
    assert settings.DATABASES["replica"]["CONN_HEALTH_CHECKS"] is False
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 30
    assert settings.DATABASES["default"]["ENGINE"] in {
        "django.db.backends.postgresql",
        "django.db.backends.sqlite3",
    }


def test_settings_wire_the_replica_router_after_authentication(reload_settings):
    settings = reload_settings(DATABASE_REPLICA_URL="postgres://reader@replica:5432/blog")
    assert settings.DATABASES["replica"]["HOST"] == "replica"
    assert settings.DATABASE_ROUTERS == ["config.db_router.ReplicaRouter"]
    middleware = settings.MIDDLEWARE
    assert middleware.index("config.db_router.ReaderReplicaMiddleware") == (
        middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1
    )


def test_settings_with_redis_keep_sessions_in_the_database_behind_the_cache(reload_settings):
    assert reload_settings(REDIS_URL="redis://127.0.0.1:6379/0").SESSION_ENGINE == (
        "django.contrib.sessions.backends.cached_db"
    )


def test_settings_without_redis_keep_sessions_in_the_database(reload_settings, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert reload_settings().SESSION_ENGINE == "django.contrib.sessions.backends.db"


def test_settings_take_media_and_search_from_the_environment(reload_settings):
    settings = reload_settings(**S3_ENV, OPENSEARCH_URL="http://search:9200")
    assert settings.STORAGES["default"]["BACKEND"] == "config.storage.MediaStorage"
    assert settings.WAGTAILSEARCH_BACKENDS["default"]["URLS"] == ["http://search:9200"]
    # Private documents keep their permission check even when files live in a bucket.
    assert settings.WAGTAILDOCS_SERVE_METHOD == "serve_view"


@pytest.fixture
def reload_gunicorn(monkeypatch):
    def reload(**env):
        for name in ("GUNICORN_BIND", "PORT", "WEB_CONCURRENCY"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return importlib.reload(gunicorn)

    yield reload
    monkeypatch.undo()
    importlib.reload(gunicorn)


def test_gunicorn_binds_to_loopback_unless_told_otherwise(reload_gunicorn):
    assert reload_gunicorn(PORT="8123").bind == ["127.0.0.1:8123"]
    assert reload_gunicorn(GUNICORN_BIND="0.0.0.0:8000").bind == ["0.0.0.0:8000"]


def test_gunicorn_workers_follow_web_concurrency_or_the_cores_capped():
    assert gunicorn.default_workers(2) == 5
    assert gunicorn.default_workers(32) == gunicorn.MAX_WORKERS


def test_gunicorn_web_concurrency_wins(reload_gunicorn):
    config = reload_gunicorn(WEB_CONCURRENCY="3")
    assert config.workers == 3
    assert config.max_requests > 0 and config.max_requests_jitter > 0
    assert config.timeout == 30


def test_gunicorn_access_log_goes_to_stdout_unless_switched_off(reload_gunicorn, monkeypatch):
    monkeypatch.delenv("GUNICORN_ACCESS_LOG", raising=False)
    assert reload_gunicorn().accesslog == "-"
    assert reload_gunicorn(GUNICORN_ACCESS_LOG="").accesslog is None


def test_a_gunicorn_worker_freezes_what_it_loaded_so_the_collector_skips_it():
    assert gc.get_freeze_count() == 0
    try:
        gunicorn.post_worker_init(worker=None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_a_page_rendered_while_the_store_is_down_is_kept_by_no_cache(rf):
    """Its pictures are alt-text stand-ins: the page cache must not serve them after recovery."""
    storage = MediaStorage(**services.media_storage(S3_ENV)["OPTIONS"])

    def page_with_a_missing_picture(request):
        with pytest.raises(ObjectStoreUnavailable):
            storage.open("original_images/diagram.png")
        return HttpResponse("<img alt='Diagram' src='not-found'>")

    degraded = ObjectStoreOutageMiddleware(page_with_a_missing_picture)(rf.get("/blog/post/"))
    assert degraded.status_code == 200
    assert "no-store" in degraded["Cache-Control"]

    healthy = ObjectStoreOutageMiddleware(lambda request: HttpResponse("ok"))(rf.get("/blog/"))
    assert "no-store" not in healthy.get("Cache-Control", "")


@pytest.mark.django_db
def test_an_upload_while_the_store_is_down_answers_a_readable_503(rf):
    storage = MediaStorage(**services.media_storage(S3_ENV)["OPTIONS"])

    def upload(request):
        storage.save("original_images/diagram.png", ContentFile(b"png"))
        return HttpResponse("saved")

    middleware = ObjectStoreOutageMiddleware(upload)
    request = rf.post("/admin/images/add/")
    try:
        middleware(request)
    except ObjectStoreUnavailable as error:
        response = middleware.process_exception(request, error)
    else:
        raise AssertionError("the upload reached a store that is down")
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    page = response.content.decode()
    assert "Media storage is unavailable" in page
    assert "Nothing was saved" in page
    assert 'href="/admin/"' in page


@pytest.mark.parametrize(
    ("store_error", "reader_sees"),
    [
        (ClientError({"Error": {"Code": "NoSuchKey"}}, "GetObject"), FileNotFoundError),
        (ClientError({"Error": {"Code": "503"}}, "GetObject"), ObjectStoreUnavailable),
        (EndpointConnectionError(endpoint_url="http://127.0.0.1:1"), ObjectStoreUnavailable),
    ],
)
def test_a_missing_file_is_not_mistaken_for_an_object_store_outage(store_error, reader_sees):
    @outage_as_oserror
    def read(storage, name):
        raise store_error

    token = outage_seen.set(False)
    try:
        with pytest.raises(reader_sees):
            read(None, "original_images/missing.png")
        # Only an outage keeps the page out of the caches.
        assert outage_seen.get() is (reader_sees is ObjectStoreUnavailable)
    finally:
        outage_seen.reset(token)


def test_the_embedded_sqlite_database_keeps_its_connections_between_requests(reload_settings):
    """SQLite reads the whole schema on a new connection's first query: 1.1 ms of every
    request when each request opened its own."""
    settings = reload_settings(DATABASE_URL="sqlite:////tmp/cedana-settings-check.sqlite3")
    database = settings.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["CONN_MAX_AGE"] == 60
    assert database["OPTIONS"]["init_command"] == "PRAGMA journal_mode=WAL;"
    assert reload_settings(DB_CONN_MAX_AGE="0").DATABASES["default"]["CONN_MAX_AGE"] == 0
