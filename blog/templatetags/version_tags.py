from django import template
from django.utils.html import format_html
from wagtail.models import Page

from ..revisions import compare_versions_form as form_for
from ..revisions import version_choices

register = template.Library()

# Wagtail's names for the ends of a comparison that are not a version's id.
NAMED_ENDS = {
    "live": "the live post",
    "earliest": "the first version",
    "latest": "the newest version",
}


@register.inclusion_tag("blog/admin/includes/compare_versions_form.html")
def compare_versions_form(page):
    """History's form to compare any two of the page's versions; nothing when it has one."""
    return {"page": page, "form": form_for(page)}


@register.simple_tag(takes_context=True)
def compared_versions(context):
    """'From <version> to <version>' above Wagtail's comparison, which names neither."""
    page, match = context.get("object"), context["request"].resolver_match
    if not isinstance(page, Page) or match is None:
        return ""
    ends = [match.kwargs.get("revision_id_a"), match.kwargs.get("revision_id_b")]
    labels = {str(pk): label for pk, label in version_choices(page)}
    older, newer = (labels.get(end) or NAMED_ENDS.get(end, end) for end in ends)
    return format_html(
        '<p class="compared-versions help-block">From <strong>{}</strong> to <strong>{}</strong></p>',
        older,
        newer,
    )
