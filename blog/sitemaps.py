from django.utils import timezone
from wagtail.contrib.sitemaps import Sitemap
from wagtail.models import Page


class ReadableSitemap(Sitemap):
    """Wagtail's sitemap without pages readers cannot open: past their expiry (before the
    scheduler has unpublished them) or below an unpublished page."""

    def items(self):
        pages = super().items().exclude(expire_at__lte=timezone.now())
        # One exclusion per unpublished branch, not one query per listed page.
        hidden_branches = (
            Page.objects.not_live().filter(numchild__gt=0).values_list("path", flat=True)
        )
        for branch in hidden_branches:
            pages = pages.exclude(path__startswith=branch)
        return pages
