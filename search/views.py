from django.core.paginator import Paginator
from django.template.response import TemplateResponse

from blog.models import BlogPage

MAX_QUERY_LENGTH = 200


def search(request):
    query = request.GET.get("q", "").replace("\x00", "").strip()[:MAX_QUERY_LENGTH]
    results = BlogPage.objects.none()
    if query:
        results = BlogPage.objects.readable().search(query)
    page = Paginator(results, 10).get_page(request.GET.get("page"))
    return TemplateResponse(request, "search/search.html", {"search_query": query, "results": page})
