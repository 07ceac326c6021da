from django.utils.functional import SimpleLazyObject


def blog_chrome(request):
    """The blog whose title line the header shows, looked up only if a template uses it."""

    def find_blog_index():
        from blog.models import BlogIndexPage

        page = getattr(request, "_blog_index_for_header", None)
        return page or BlogIndexPage.objects.live().public().order_by("path").first()

    return {"blog_index_for_header": SimpleLazyObject(find_blog_index)}
