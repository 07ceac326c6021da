"""How a post looks in the places readers meet it, for the editor's preview panel."""

from urllib.parse import urlsplit

FULL_PAGE = ""
PREVIEW_TEMPLATES = {
    "card": "blog/previews/card.html",
    "featured": "blog/previews/featured.html",
    "social": "blog/previews/social.html",
}


class BlogPagePreviewMixin:
    preview_modes = [
        (FULL_PAGE, "Full page"),
        ("card", "Card"),
        ("featured", "Featured slot"),
        ("social", "Social share card"),
    ]

    def get_preview_template(self, request, mode_name):
        # An unknown mode (a hand-edited preview address) falls back to the full page.
        return PREVIEW_TEMPLATES.get(mode_name) or super().get_preview_template(request, mode_name)

    def get_preview_context(self, request, mode_name):
        if mode_name not in PREVIEW_TEMPLATES:
            return super().get_preview_context(request, mode_name)
        return {
            "page": self,
            "post": self,
            "request": request,
            "preview_mode": mode_name,
            "share_domain": share_domain(self, request),
        }


def share_domain(page, request):
    """The bare domain a social network prints under a shared link."""
    url = page.full_url or request.build_absolute_uri("/")
    return (urlsplit(url).hostname or "").removeprefix("www.")
