from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "search"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from blog.editorial.scheduling import pass_finished

        from .warming import warm_after_pass

        pass_finished.connect(warm_after_pass, dispatch_uid="search_warm_popular")
