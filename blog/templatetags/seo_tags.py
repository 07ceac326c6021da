import json

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from blog.seo import PageMeta, generic_meta

register = template.Library()

# The characters that could end the <script> element or start an HTML comment inside it; JSON
# readers decode the escapes back, so a title may say "</script>" and stay text.
SCRIPT_SAFE_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


@register.simple_tag(takes_context=True)
def page_meta(context):
    """The meta the page built in get_context, or one made from the page's own fields."""
    meta = context.get("meta")
    if meta is None:
        request = context.get("request")
        # Error pages may render without a request; they still get the site name.
        meta = generic_meta(request, context.get("page")) if request else PageMeta(title="")
    return meta


@register.filter
def json_ld(value):
    """A <script type="application/ld+json"> whose content cannot break out of the element."""
    payload = json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)
    escaped = payload.translate(SCRIPT_SAFE_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(escaped))  # noqa: S308
