from wagtail.contrib.sitemaps import Sitemap

from .visibility import visible_to_readers


class ReadableSitemap(Sitemap):
    """Wagtail's sitemap of live, public pages, without those readers still cannot open: past
    their expiry (before the scheduler has unpublished them) or below an unpublished page."""

    def items(self):
        return visible_to_readers(super().items())
