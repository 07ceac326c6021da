from django.apps import AppConfig


class BlogConfig(AppConfig):
    name = "blog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The page cache listens for content changes and registers its serve hook on import.
        from . import cache  # noqa: F401
