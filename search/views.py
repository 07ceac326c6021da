import re

from django.core.paginator import Paginator
from django.template.response import TemplateResponse

from blog.models import BlogPage

MAX_QUERY_LENGTH = 200


def search(request):
    query = request.GET.get("q", "").replace("\x00", "").strip()[:MAX_QUERY_LENGTH]
    # Only the words go to the backend: quotes, dashes and upper-case AND/OR/NOT are operators to
    # SQLite's FTS5 and PostgreSQL's tsquery, and a stray one is a syntax error there.
    terms = " ".join(re.findall(r"\w+", query.lower()))
    results = BlogPage.objects.none()
    if terms:
        results = BlogPage.objects.readable().search(terms)
    page = Paginator(results, 10).get_page(request.GET.get("page"))
    return TemplateResponse(request, "search/search.html", {"search_query": query, "results": page})
