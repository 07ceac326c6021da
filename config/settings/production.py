from .base import *  # noqa: F403
from .base import TRUSTED_PROXY_COUNT, env_bool, env_list, require_env

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = require_env("SECRET_KEY")
# The same bar as `check --deploy` (security.W009): long and varied, not Django's insecure prefix.
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-"):
    raise ImproperlyConfigured(  # noqa: F405
        "SECRET_KEY must be at least 50 random characters for this deployment."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(  # noqa: F405
        "ALLOWED_HOSTS must be set in the environment for this deployment "
        "(comma-separated host names, e.g. blog.example.com)."
    )
require_env("DATABASE_URL")
# Notification e-mails link to the admin at this address; without it they pointed at base.py's
# development default (127.0.0.1:8000) whatever the blog's address was.
WAGTAILADMIN_BASE_URL = os.environ.get("WAGTAILADMIN_BASE_URL") or next(  # noqa: F405
    (f"https://{host}" for host in ALLOWED_HOSTS if host != "*" and not host.startswith(".")),
    None,
)

# "This came in over HTTPS" is believed only from a deployment that says a proxy stands in front
# and sets the header (the same switch client_ip trusts X-Forwarded-For on); without one, any
# client could claim it. gunicorn still recognises HTTPS from FORWARDED_ALLOW_IPS on its own.
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))  # noqa: F405
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
# Secure cookies by default; only a plain-http loopback rehearsal (tests/scale) turns them off.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
