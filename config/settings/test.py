import hashlib
import os

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-key"  # noqa: S105
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WAGTAILADMIN_BASE_URL = "http://testserver"
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Background tasks (an import confirmed in the admin) run inside the request, in the test's
# transaction; the tests of the real queue use the database backend and run its worker
# (tests/blog/importing/test_admin_import.py).
TASKS = {
    "default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"},
    "background": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"},
}
LOGGING = {**LOGGING, "root": {"handlers": ["console"], "level": "WARNING"}}  # noqa: F405
# The page cache keys on a generation bumped after commit, which a test transaction never
# reaches; tests of the cache turn it on themselves (tests/blog/test_cache.py). So does the
# shared content cache keyed on the same generation (the content_cache fixture).
PAGE_CACHE = False
CONTENT_CACHE = False
CACHES["template_fragments"] = NO_TEMPLATE_FRAGMENTS  # noqa: F405
# The shared file cache also holds what a dev server or a benchmark cached for another database
# (Wagtail's site root paths among it), which would leak into tests: tests of each database get
# a cache directory of their own, shared by the test process and the servers it starts. Each
# pytest-xdist worker has its own test database, so its own directory too.
if not REDIS_URL and "CACHE_DIR" not in os.environ:  # noqa: F405
    _owner = f"{DATABASES['default']}{os.environ.get('PYTEST_XDIST_WORKER', '')}"  # noqa: F405
    _database = hashlib.sha1(_owner.encode()).hexdigest()[:12]  # noqa: S324
    CACHES["default"]["LOCATION"] = str(BASE_DIR / "var" / "test-cache" / _database)  # noqa: F405
