"""Pictures prepared before the first reader asks for them.

A post's hero is shown in AVIF, WebP and JPEG at several widths; Wagtail makes each rendition
while the first page that needs it renders, and the AVIF encodes cost that reader over a second.
After every scheduler pass the newest posts' heroes get every rendition the templates will ask
for, so a reader of a post just published (by an editor or by the scheduler) waits for none.
The demo command prepares every picture of its posts the same way (`prepare_every_picture`), so
the first view after `make run` is as quick as the second.
"""

import time
from collections import defaultdict
from functools import cache

from django.conf import settings
from django.template.loader import get_template
from wagtail.images import get_image_model
from wagtail.images.models import Filter
from wagtail.images.templatetags.wagtailimages_tags import ImageNode

from .seo import SHARE_IMAGE_SPEC

# The templates that show a post's hero picture; their {% picture %} tags decide the sizes.
HERO_TEMPLATES = (
    "components/featured_post.html",
    "components/post_article.html",
    "components/post_card.html",
)
# The picture in a post's body (FigureBlock).
BODY_TEMPLATES = ("blocks/figure_block.html",)
# The thumbnail Wagtail's image chooser shows in the post editor.
ADMIN_THUMBNAIL_SPEC = "max-165x165"
NEWEST_POSTS = 20
# Publishing comes first: a pass stops starting new pictures after this long (an AVIF-heavy
# picture takes ~1.3 s), and the next pass carries on.
SECONDS_PER_PASS = 5


def template_filter_specs(names):
    """Every rendition spec the templates' picture and image tags expand to, read from the
    compiled templates so the two can never disagree."""
    specs = []
    for name in names:
        for node in get_template(name).template.nodelist.get_nodes_by_type(ImageNode):
            specs.extend(Filter.expand_spec(node.filter_specs))
    return specs


@cache
def hero_filter_specs():
    """The hero templates' renditions and the share picture (og:image)."""
    return tuple(dict.fromkeys([SHARE_IMAGE_SPEC, *template_filter_specs(HERO_TEMPLATES)]))


@cache
def body_filter_specs():
    return tuple(dict.fromkeys(template_filter_specs(BODY_TEMPLATES)))


def prepare_newest_heroes(limit=NEWEST_POSTS, seconds=SECONDS_PER_PASS):
    """Make the missing hero renditions of the newest live posts, for about `seconds` at most;
    how many images needed any."""
    from .models import BlogPage

    image_ids = (
        BlogPage.objects.live()
        .exclude(hero_image=None)
        .order_by("-last_published_at", "-pk")
        .values_list("hero_image_id", flat=True)[:limit]
    )
    specs, prepared, deadline = hero_filter_specs(), 0, time.monotonic() + seconds
    images = get_image_model().objects.filter(pk__in=list(image_ids)).prefetch_related("renditions")
    for image in images:
        made_before = len(image.renditions.all())
        image.get_renditions(*specs)
        prepared += len(image.renditions.all()) > made_before
        if time.monotonic() > deadline:
            break
    return prepared


def prepare_every_picture(posts):
    """Every rendition the reader pages, the previews and the post editor ask for, of these
    posts' heroes and body pictures; how many images needed any."""
    from .blocks import FigureBlock

    wanted = defaultdict(set)
    for post in posts:
        if post.hero_image_id:
            wanted[post.hero_image_id].update([*hero_filter_specs(), ADMIN_THUMBNAIL_SPEC])
        for block in post.body:
            if isinstance(block.block, FigureBlock) and block.value["image"] is not None:
                wanted[block.value["image"].pk].update(body_filter_specs())
    images = get_image_model().objects.filter(pk__in=wanted).prefetch_related("renditions")
    prepared = 0
    for image in images:
        made_before = len(image.renditions.all())
        image.get_renditions(*sorted(wanted[image.pk]))
        prepared += len(image.renditions.all()) > made_before
    return prepared


def prepare_after_pass(**kwargs):
    if not settings.SCHEDULER_PREPARES_PICTURES:
        return None
    prepared = prepare_newest_heroes()
    return f"Prepared the hero pictures of {prepared} new posts." if prepared else None
