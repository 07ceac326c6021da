from django.utils.functional import SimpleLazyObject

from blog.caching.chrome import ChromeCache
from blog.caching.remembered import remember


def header_blog_index():
    """The first blog readers may see, in one query."""
    from blog.models import BlogIndexPage
    from blog.visibility import visible_to_readers

    return visible_to_readers(BlogIndexPage.objects.all(), few=True).order_by("path").first()


def blog_chrome(request):
    """The blog whose title line the header shows, looked up only if a template uses it, and
    what the header and footer are cached by (blog/caching/chrome.py)."""

    def find_blog_index():
        page = getattr(request, "_blog_index_for_header", None)
        return page or remember("header-blog-index", header_blog_index)

    return {
        "blog_index_for_header": SimpleLazyObject(find_blog_index),
        "chrome_cache": ChromeCache(request),
    }
