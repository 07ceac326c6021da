"""The site's URLs with the floor in front of Wagtail's catch-all page route."""

from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as site_urlpatterns
from tests.bench.floor import floor

urlpatterns = [path("bench-floor/", floor), *site_urlpatterns]

__all__ = ["handler500", "urlpatterns"]
