"""`{% named_picture image "card" sizes=... %}`: Wagtail's `{% picture %}` with the renditions
named in blog/renditions.py, so the pictures prepared ahead of readers are the ones the
templates ask for, without reading the compiled templates."""

from django import template
from django.template.base import Token, TokenType
from wagtail.images.templatetags.wagtailimages_tags import image as wagtail_image_tag

from blog.renditions import PICTURE_SPECS

register = template.Library()


@register.tag
def named_picture(parser, token):
    tag_name, image, name, *rest = token.split_contents()
    specs = PICTURE_SPECS.get(name.strip("\"'"))
    if specs is None:
        raise template.TemplateSyntaxError(
            f"{tag_name}: {name} is not one of the pictures in blog/renditions.py "
            f"({', '.join(PICTURE_SPECS)})"
        )
    # Wagtail's own tag parses the same bits, so the picture renders byte for byte as
    # {% picture image <specs> ... %} would.
    contents = " ".join(["picture", image, specs, *rest])
    return wagtail_image_tag(parser, Token(TokenType.BLOCK, contents, token.position, token.lineno))
