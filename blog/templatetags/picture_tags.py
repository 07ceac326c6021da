"""`{% named_picture image "card" sizes=... %}`: Wagtail's `{% picture %}` with the renditions
named in blog/renditions.py, so the pictures prepared ahead of readers are the ones the
templates ask for, without reading the compiled templates.

The renditions' filters are built once, when the template is compiled. Wagtail's own tag
builds and parses them again for every picture it renders: a listing's dozen cards parsed
some fifty filters per request, a tenth of the listing's Python work with every cache off.
"""

from django import template
from wagtail.images.models import Picture
from wagtail.images.shortcuts import get_renditions_or_not_found

from blog.renditions import PICTURE_SPECS, picture_filters

register = template.Library()


class NamedPictureNode(template.Node):
    def __init__(self, image, filters, attrs):
        self.image = image
        self.filters = filters
        self.attrs = attrs

    def render(self, context):
        image = self.image.resolve(context)
        if not image:
            return ""
        renditions = get_renditions_or_not_found(image, self.filters)
        attrs = {key: value.resolve(context) for key, value in self.attrs.items()}
        # What Wagtail's {% picture %} returns for the same renditions and attributes.
        return Picture(renditions, attrs).__html__()


@register.tag
def named_picture(parser, token):
    tag_name, image, name, *rest = token.split_contents()
    filters = picture_filters(name.strip("\"'"))
    if filters is None:
        raise template.TemplateSyntaxError(
            f"{tag_name}: {name} is not one of the pictures in blog/renditions.py "
            f"({', '.join(PICTURE_SPECS)})"
        )
    attrs = {}
    for bit in rest:
        attribute, equals, value = bit.partition("=")
        if not equals:
            raise template.TemplateSyntaxError(
                f"{tag_name}: {bit} is not an attribute (write name=value)"
            )
        attrs[attribute] = parser.compile_filter(value)
    return NamedPictureNode(parser.compile_filter(image), filters, attrs)
