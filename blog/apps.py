from django.apps import AppConfig


class BlogConfig(AppConfig):
    name = "blog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Scheduling, page-cache and imported-redirect signal handlers (and the cache's serve hook)
        # register on import.
        from . import cache, signals  # noqa: F401
        from .editorial.scheduling import pass_finished
        from .importing import redirects  # noqa: F401
        from .renditions import prepare_after_pass

        pass_finished.connect(prepare_after_pass, dispatch_uid="blog_prepare_heroes")
