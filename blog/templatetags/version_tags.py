from django import template

from ..revisions import compare_versions_form as form_for

register = template.Library()


@register.inclusion_tag("blog/admin/includes/compare_versions_form.html")
def compare_versions_form(page):
    """History's form to compare any two of the page's versions; nothing when it has one."""
    return {"page": page, "form": form_for(page)}
