"""{% remembered %}: a block of a page's chrome rendered once for every process until the
content changes, as Django's {% cache %} does for a while.

    {% remembered "site-header" blog_index_for_header.pk search_query %}
        ...
    {% endremembered %}

The name and the values after it, with the site the page is served for (links are relative
on the reader's own site), pick the copy; the content generation in every remembered name
retires it at the next change readers could see. So the values must name everything the block
shows that is not content (which blog, the reader's query). A preview shows an editor's
unsaved page: it renders the block afresh and keeps nothing.
"""

from django import template
from django.utils.safestring import mark_safe

from blog.caching.remembered import remember
from home.middleware import site_id

register = template.Library()


class RememberedNode(template.Node):
    def __init__(self, nodelist, name, values):
        self.nodelist = nodelist
        self.name = name
        self.values = values

    def render(self, context):
        request = context.get("request")
        if request is None or getattr(request, "is_preview", False):
            return self.nodelist.render(context)
        values = [value.resolve(context) for value in self.values]
        name = f"block:{self.name.resolve(context)}:{site_id(request)}:{values!r}"
        return mark_safe(remember(name, lambda: str(self.nodelist.render(context))))  # noqa: S308


@register.tag
def remembered(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% remembered %} needs a name")
    nodelist = parser.parse(("endremembered",))
    parser.delete_first_token()
    name, *values = (parser.compile_filter(bit) for bit in bits[1:])
    return RememberedNode(nodelist, name, values)
