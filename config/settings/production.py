from .base import *  # noqa: F403
from .base import env_bool, require_env

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = require_env("SECRET_KEY")
ALLOWED_HOSTS = env_list(require_env("ALLOWED_HOSTS") and "ALLOWED_HOSTS")  # noqa: F405
require_env("DATABASE_URL")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))  # noqa: F405
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Secure cookies by default; only a plain-http loopback rehearsal (tests/scale) turns them off.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
X_FRAME_OPTIONS = "DENY"
