from django.urls import path
from django.views.generic import TemplateView
from wagtail.contrib.sitemaps.views import sitemap

from .sitemaps import ReadableSitemap

urlpatterns = [
    path("sitemap.xml", sitemap, {"sitemaps": {"pages": ReadableSitemap}}, name="sitemap"),
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain"),
        name="robots_txt",
    ),
]
