"""Settings shared by every environment. Everything that differs between machines comes from
the environment, so the same code runs on a laptop, in CI and in production."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from config import services

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "home",
    "blog",
    "search",
    "wagtail.contrib.settings",
    "wagtail.contrib.routable_page",
    "wagtail.contrib.search_promotions",
    "wagtail.contrib.sitemaps",
    "wagtail.contrib.redirects",
    "wagtail.contrib.typed_table_block",
    "wagtail_modeladmin",
    "wagtail.embeds",
    "wagtail.sites",
    "wagtail.users",
    "wagtail.snippets",
    "wagtail.documents",
    "wagtail.images",
    "wagtail.search",
    "wagtail.admin",
    "wagtail",
    "modelcluster",
    "taggit",
    "django_tasks",
    "django_tasks_db",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django.contrib.postgres",
    "csp",
    "axes",
]

MIDDLEWARE = [
    # Every part of a request below reads the content generation once (blog/caching/generation.py).
    "blog.caching.generation.OneGenerationPerRequest",
    "django.middleware.security.SecurityMiddleware",
    # Before whitenoise, so static files carry the policy too.
    "home.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After whitenoise, which serves static files precompressed; outside the page cache, which
    # so stores plain HTML and gzips it per request for clients that accept it. BREACH: Django
    # masks the CSRF token per response and pads the gzip header with random bytes.
    "config.compression.RenderedResponseGZipMiddleware",
    # Stores the final response of a cacheable page; its partner below serves it (blog/caching/pages.py).
    "blog.caching.pages.PageCacheUpdateMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before anything reads a body, after the user is known: editors may upload more.
    "home.security.RequestBodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A media upload while the object store is down: a readable 503, not a 500 (config/storage.py).
    "config.storage.ObjectStoreOutageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A number out of the database's range in a hand-edited address: 400 (home/errors.py).
    "home.errors.NumberOutOfRangeMiddleware",
    # A NUL character or a malformed value in an admin address or form: 400 (home/errors.py).
    "home.errors.AdminBadRequestMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
    # Imported WordPress addresses like /?p=123, which the home page would answer (blog/importing).
    "blog.importing.middleware.OldQueryAddressRedirectMiddleware",
    "blog.caching.pages.PageCacheFetchMiddleware",
    # After the page cache, so only pages rendered afresh look the settings up; the page cache
    # looks up only the site, which its keys name (home/middleware.py).
    "home.middleware.SharedSiteMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "wagtail.contrib.settings.context_processors.settings",
                "home.context_processors.blog_chrome",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# The embedded default is a SQLite file in the project; PostgreSQL comes in through DATABASE_URL,
# on Django's own backend. A kept connection (CONN_MAX_AGE) is checked before each request's
# first query (CONN_HEALTH_CHECKS), so one a database restart ended is replaced, not an error.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web server, scheduler) share the file: wait for locks, never fail fast.
    # Connections are kept (DB_CONN_MAX_AGE) as on PostgreSQL: SQLite reads the whole schema on
    # a new connection's first query, 1.1 ms of every request. Between requests a connection
    # is in autocommit and holds no lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
# An optional read replica for anonymous readers (config/db_router.py); editors stay on the primary.
_replica = services.replica_database(
    os.environ,
    DATABASES["default"]["CONN_MAX_AGE"],
    conn_health_checks=DATABASES["default"]["CONN_HEALTH_CHECKS"],
)
if _replica:
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS = ["config.db_router.ReplicaRouter"]
    MIDDLEWARE.insert(
        MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
        "config.db_router.ReaderReplicaMiddleware",
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
# Wagtail's admin sentences in the blog's words (config/locale/en/LC_MESSAGES/django.po).
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

STORAGES = {
    # Local disk, or the shared S3 bucket when AWS_STORAGE_BUCKET_NAME is set (config/services.py).
    "default": services.media_storage(os.environ),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Caching: Redis when REDIS_URL is set; otherwise a file cache that every process on the
# machine shares (a per-process memory cache could not be cleared by the scheduler).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                # A Redis outage degrades to uncached pages instead of errors.
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    CACHES = {
        "default": {
            "BACKEND": "home.library_adapters.FileCache",
            "LOCATION": os.environ.get("CACHE_DIR", str(BASE_DIR / "var" / "cache")),
            # Django's default, 300 entries, is a few listings' cards: past it every write
            # deletes a third of the cache, renditions and pages with it.
            "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("CACHE_MAX_ENTRIES", "50000"))},
        }
    }

# The full-page cache for anonymous readers (blog/caching/pages.py): PAGE_CACHE=off turns it off;
# entries live at most PAGE_CACHE_TTL seconds even if a change somehow went unnoticed.
PAGE_CACHE = env_bool("PAGE_CACHE", True)
PAGE_CACHE_TTL = int(os.environ.get("PAGE_CACHE_TTL", "600"))
# What every reader request would otherwise look up again (the site and its settings, the
# header's blog, hidden branches, topics, editors' picks, ranked search results), shared by all
# processes and keyed by the content generation (blog/caching/generation.py). CONTENT_CACHE=off turns
# it off; entries live at most CONTENT_CACHE_TTL seconds.
CONTENT_CACHE = env_bool("CONTENT_CACHE", True)
CONTENT_CACHE_TTL = int(os.environ.get("CONTENT_CACHE_TTL", "600"))
# The header and footer ({% wagtailcache %}, blog/caching/chrome.py) are part of it: Django's
# cache tag keeps its blocks in the "template_fragments" cache when there is one.
NO_TEMPLATE_FRAGMENTS = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
if not CONTENT_CACHE:
    CACHES["template_fragments"] = NO_TEMPLATE_FRAGMENTS
# Each process also keeps this many of the most recently used entries in its own memory
# (blog/caching/memory.py; ~5 KB each on average, an article up to ~50 KB); 0 turns that off.
CONTENT_CACHE_LOCAL_ENTRIES = int(os.environ.get("CONTENT_CACHE_LOCAL_ENTRIES", "2000"))

# A CDN or Varnish in front of the site is told which addresses a publish changed: the page
# itself (wagtail.contrib.frontend_cache) and every listing, feed and sitemap that shows a post
# (blog/caching/invalidation.py). Off unless one of these is set.
WAGTAILFRONTENDCACHE = {}
if os.environ.get("FRONTEND_CACHE_PURGE_URL"):
    WAGTAILFRONTENDCACHE["http"] = {
        "BACKEND": "wagtail.contrib.frontend_cache.backends.HTTPBackend",
        "LOCATION": os.environ["FRONTEND_CACHE_PURGE_URL"],
    }
if os.environ.get("CLOUDFLARE_ZONEID"):
    WAGTAILFRONTENDCACHE["cloudflare"] = {
        "BACKEND": "wagtail.contrib.frontend_cache.backends.CloudflareBackend",
        "ZONEID": os.environ["CLOUDFLARE_ZONEID"],
        "BEARER_TOKEN": os.environ.get("CLOUDFLARE_BEARER_TOKEN", ""),
    }
if os.environ.get("CLOUDFRONT_DISTRIBUTION_ID"):
    # Credentials come from the usual AWS_* variables or the instance role, as for S3.
    WAGTAILFRONTENDCACHE["cloudfront"] = {
        "BACKEND": "wagtail.contrib.frontend_cache.backends.CloudfrontBackend",
        "DISTRIBUTION_ID": os.environ["CLOUDFRONT_DISTRIBUTION_ID"],
    }
if WAGTAILFRONTENDCACHE:
    INSTALLED_APPS.append("wagtail.contrib.frontend_cache")
# A publish moves every page of a listing along; only the first pages are purged, deeper ones
# wait for the CDN's own expiry.
FRONTEND_CACHE_PURGE_PAGES = int(os.environ.get("FRONTEND_CACHE_PURGE_PAGES", "3"))

# With Redis, sessions are read from the cache and written through to the database: a Redis
# restart or outage costs a query, never a logged-out editor. Without Redis, plain database.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL
    else "django.contrib.sessions.backends.db"
)

TASKS = {
    # Wagtail's own tasks (search index, reference index) run inside the request that saved.
    "default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"},
    # Work longer than a request (an import confirmed in the admin): a queue in the database,
    # which the worker process runs (`manage.py db_worker --backend background`, docs/deploy.md).
    "background": {"BACKEND": "django_tasks_db.DatabaseBackend"},
}

# Wagtail
WAGTAIL_SITE_NAME = os.environ.get("WAGTAIL_SITE_NAME", "cedana blog")
WAGTAILADMIN_BASE_URL = os.environ.get("WAGTAILADMIN_BASE_URL", "http://127.0.0.1:8000")
WAGTAILSEARCH_BACKENDS = {
    "default": {
        "BACKEND": "modelsearch.backends.database",
        # English stemming plus unaccent, created by search/migrations/0001 (PostgreSQL only).
        "SEARCH_CONFIG": "cedana_english",
        "AUTO_UPDATE": True,
    }
}
WAGTAILSEARCH_BACKENDS = services.opensearch_backends(os.environ) or WAGTAILSEARCH_BACKENDS
# Documents always go through Wagtail's view, which checks privacy; never a redirect to the bucket.
WAGTAILDOCS_SERVE_METHOD = "serve_view"
WAGTAILDOCS_EXTENSIONS = ["csv", "docx", "key", "odt", "pdf", "pptx", "rtf", "txt", "xlsx", "zip"]
WAGTAILIMAGES_MAX_UPLOAD_SIZE = 10 * 1024 * 1024
WAGTAILIMAGES_MAX_IMAGE_PIXELS = 40_000_000
# The upload form says the description becomes the alt text.
WAGTAILIMAGES_IMAGE_FORM_BASE = "blog.editorial.pictures.PictureForm"
WAGTAILADMIN_COMMENTS_ENABLED = True
# Wagtail's defaults, spelled out because editors rely on them (docs/editors.md, "Writing a post"):
# autosave half a second after typing stops, "someone else is editing" notices every 10 s.
WAGTAIL_AUTOSAVE_INTERVAL = 500
WAGTAIL_EDITING_SESSION_PING_INTERVAL = 10_000
WAGTAIL_AUTO_UPDATE_PREVIEW_INTERVAL = 500
WAGTAIL_USER_TIME_ZONES = [
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
]
WAGTAILREDIRECTS_AUTO_CREATE = True
WAGTAILEMBEDS_RESPONSIVE_HTML = True

# The scheduler (blog's run_scheduler command) wakes this often, in seconds.
SCHEDULER_INTERVAL = int(os.environ.get("SCHEDULER_INTERVAL", "30"))
# After each pass the scheduler makes the newest posts' missing hero renditions (blog/renditions.py).
SCHEDULER_PREPARES_PICTURES = env_bool("SCHEDULER_PREPARES_PICTURES", True)

# Feeds: how many posts they carry, and whether each item holds the whole post or its summary.
BLOG_FEED_ITEMS = int(os.environ.get("BLOG_FEED_ITEMS", "20"))
BLOG_FEED_FULL_TEXT = env_bool("BLOG_FEED_FULL_TEXT", False)

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "blog@localhost")
WAGTAILADMIN_NOTIFICATION_FROM_EMAIL = DEFAULT_FROM_EMAIL
# Editors submit posts to the "Editorial review" workflow; reviewers and authors get emails.
WAGTAIL_WORKFLOW_ENABLED = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"level": "ERROR"},
        "django.security.DisallowedHost": {"level": "ERROR"},
        # One line per background task (search index, references) drowns out what matters.
        "django_tasks": {"level": "WARNING"},
    },
}


def require_env(name):
    value = os.environ.get(name, "")
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in the environment for this deployment.")
    return value


# --- Security hardening: headers, CSP, sign-in throttling, uploads -----------------------------
# HTTPS-only settings (HSTS, secure cookies, SSL redirect) live in production.py; what follows
# holds in every environment.

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Wagtail's preview views override this with SAMEORIGIN so the editor's preview panel works.
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Load balancers probe these over plain HTTP inside the private network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]


# Static files (served by whitenoise, outside the clickjacking middleware) must not be framed.
def add_static_headers(headers, path, url):
    headers["X-Frame-Options"] = "DENY"


WHITENOISE_ADD_HEADERS_FUNCTION = add_static_headers

# Reader pages: scripts only from this site or with the per-request nonce, never inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        # Wagtail's responsive embeds size their wrapper with a style attribute; styles cannot
        # run script, so attributes are allowed while <style> elements stay blocked.
        "style-src-attr": [UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        # Editors embed videos from any https provider through the embed block.
        "frame-src": ["https:"],
        "frame-ancestors": [NONE],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
    }
}
# The Wagtail admin (and the preview it frames) runs inline widget scripts and styles, so it gets
# its own enforced policy: inline code allowed, but no plugins, no foreign forms or base URLs,
# framing only by the admin itself. home.security.ContentSecurityPolicyMiddleware picks it.
ADMIN_URL_PREFIX = "/admin/"
ADMIN_CONTENT_SECURITY_POLICY = {
    "default-src": [SELF],
    "script-src": [SELF, UNSAFE_INLINE],
    "style-src": [SELF, UNSAFE_INLINE],
    # Embed and image choosers show thumbnails from video providers.
    "img-src": [SELF, "data:", "blob:", "https:"],
    "font-src": [SELF, "data:"],
    # The dashboard asks wagtail.org whether a newer release exists.
    "connect-src": [SELF, "https://releases.wagtail.org"],
    "frame-src": [SELF, "https:"],
    "frame-ancestors": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    "form-action": [SELF],
}
# Avatars over https, so the admin policy above never meets a plain-http image.
WAGTAIL_GRAVATAR_PROVIDER_URL = "https://www.gravatar.com/avatar"

# Sign-in throttling (django-axes): 5 failures lock that username from that address for 15
# minutes; the lock lives in the database, so it survives restarts and is shared by workers.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "security/lockout.html"
AXES_HTTP_RESPONSE_CODE = 429
# Only REMOTE_ADDR counts, or the address the last TRUSTED_PROXY_COUNT proxies saw: a client
# cannot pick its own address by sending X-Forwarded-For.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "home.security.client_ip"

# Password reset e-mails: per client address and per e-mail address (django-ratelimit).
PASSWORD_RESET_RATE_PER_IP = os.environ.get("PASSWORD_RESET_RATE_PER_IP", "20/h")
PASSWORD_RESET_RATE_PER_EMAIL = os.environ.get("PASSWORD_RESET_RATE_PER_EMAIL", "5/h")
RATELIMIT_IP_META_KEY = "home.security.client_ip"
# Passwords of password-protected pages (django-ratelimit): tries per client address, across all
# pages, and per restriction from every address together, which caps a guesser spread over many
# addresses (at the price of pausing that page's form for everyone until the hour is out).
PAGE_PASSWORD_RATE_PER_IP = os.environ.get("PAGE_PASSWORD_RATE_PER_IP", "20/h")
PAGE_PASSWORD_RATE_PER_RESTRICTION = os.environ.get("PAGE_PASSWORD_RATE_PER_RESTRICTION", "100/h")

# Uploads: raster images only (SVG can carry script), documents always downloaded.
WAGTAILIMAGES_EXTENSIONS = ["gif", "jpg", "jpeg", "png", "webp", "avif"]
# A file that only starts like a picture is a form error, not a 500 (home/uploads.py).
WAGTAILDOCS_DOCUMENT_FORM_BASE = "home.uploads.DocumentForm"
WAGTAILDOCS_SERVE_METHOD = "serve_view"
# Wagtail shows PDFs inline by default; a PDF can carry script and forms, so it downloads too.
WAGTAILDOCS_INLINE_CONTENT_TYPES = []
# Request bodies over these sizes are refused with 413 before they are read
# (home.security.RequestBodyLimitMiddleware): Django spools uploaded files to disk whatever their
# size. Everyone: 2.5 MB, Django's DATA_UPLOAD_MAX_MEMORY_SIZE. Admin users: the largest upload
# Wagtail accepts plus 1 MB for the form around it. Wagtail sets no limit on documents
# (WAGTAILDOCS_MAX_UPLOAD_SIZE None), so this cap is theirs too.
WAGTAILDOCS_MAX_UPLOAD_SIZE = None
MAX_REQUEST_BODY = int(os.environ.get("MAX_REQUEST_BODY", 2_621_440))
MAX_EDITOR_REQUEST_BODY = int(
    os.environ.get(
        "MAX_EDITOR_REQUEST_BODY",
        max(WAGTAILIMAGES_MAX_UPLOAD_SIZE, WAGTAILDOCS_MAX_UPLOAD_SIZE or 0) + 1024 * 1024,
    )
)
# A Publisher uploading a blog's export with its pictures (the import screen): the largest
# export the import reads (blog/importing/safety.py, MAX_EXPORT_BYTES, 200 MB) plus the form.
MAX_IMPORT_REQUEST_BODY = int(os.environ.get("MAX_IMPORT_REQUEST_BODY", 201 * 1024 * 1024))
