from django.apps import AppConfig


class BlogConfig(AppConfig):
    name = "blog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Scheduling and page-cache signal handlers (and the cache's serve hook) register on import.
        from . import cache, signals  # noqa: F401
