from django.urls import path
from wagtail.contrib.sitemaps.views import sitemap

from .sitemaps import ReadableSitemap
from .views import robots_txt

urlpatterns = [
    path("sitemap.xml", sitemap, {"sitemaps": {"pages": ReadableSitemap}}, name="sitemap"),
    path("robots.txt", robots_txt, name="robots_txt"),
]
