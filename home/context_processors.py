from django.db.models import Exists, OuterRef
from django.db.models.functions import Length, Substr
from django.utils.functional import SimpleLazyObject
from wagtail.models import PageViewRestriction

from blog.generation import remember


def header_blog_index():
    """The first live blog no restriction hides, in one query (PageQuerySet.public() spends
    one listing every restriction first)."""
    from blog.models import BlogIndexPage

    restricted_ancestor = PageViewRestriction.objects.filter(
        page__path=Substr(OuterRef("path"), 1, Length("page__path"))
    )
    return (
        BlogIndexPage.objects.live().exclude(Exists(restricted_ancestor)).order_by("path").first()
    )


def blog_chrome(request):
    """The blog whose title line the header shows, looked up only if a template uses it."""

    def find_blog_index():
        page = getattr(request, "_blog_index_for_header", None)
        return page or remember("header-blog-index", header_blog_index)

    return {"blog_index_for_header": SimpleLazyObject(find_blog_index)}
