from django.apps import AppConfig


class BlogConfig(AppConfig):
    name = "blog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The handlers of what retires cached pages, the page cache's serve hook, the editorial
        # roles', the posts' search indexing and imported redirects' handlers register on import.
        from . import indexing, serving, signals  # noqa: F401
        from .caching import invalidation, pages  # noqa: F401
        from .editorial.scheduling import pass_finished
        from .importing import redirects  # noqa: F401
        from .importing.sources import sweep_after_pass
        from .models import BlogIndexPage, BlogPage
        from .renditions import prepare_after_pass

        pass_finished.connect(prepare_after_pass, dispatch_uid="blog_prepare_heroes")
        pass_finished.connect(sweep_after_pass, dispatch_uid="blog_sweep_import_uploads")
        # The pages render through the view layer, which the content model may not import.
        BlogIndexPage.views = BlogPage.views = serving
