"""A page with an inline script, as a template using the CSP nonce renders it."""

from django.template import engines
from django.template.response import TemplateResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

INLINE_SCRIPT = engines["django"].from_string(
    '{% extends "base.html" %}{% block scripts %}'
    '<script nonce="{{ request.csp_nonce }}">document.body.dataset.ready = "1";</script>'
    "{% endblock %}"
)


def inline_script_page(request):
    return TemplateResponse(request, INLINE_SCRIPT, {})


urlpatterns = [path("nonce/", inline_script_page), *site_urlpatterns]
