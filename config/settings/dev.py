from .base import *  # noqa: F403
from .base import env_list

DEBUG = env_bool("DEBUG", True)  # noqa: F405
# A development-only key: production.py refuses to start without a real one.
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-do-not-use-in-production"  # noqa: F405 S105
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
