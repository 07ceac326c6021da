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

from django.conf import settings
from wagtail.images import get_image_model
from wagtail.images.models import Filter

from .seo import SHARE_IMAGE_SPEC

# The renditions of each picture the reader pages show, by the name their templates give
# `{% named_picture %}` (blog/templatetags/picture_tags.py).
PICTURE_SPECS = {
    # A post's hero at the top of its page, and the featured post on the index.
    "hero": "format-{avif,webp,jpeg} fill-{640x360,960x540,1200x675}",
    "card": "format-{webp,jpeg} fill-{640x360,960x540}",
    # A picture in a post's body (FigureBlock).
    "figure": "format-{webp,jpeg} max-{720x540,1200x900}",
}
HERO_PICTURES = ("hero", "card")
BODY_PICTURES = ("figure",)
# The thumbnail Wagtail's image chooser shows in the post editor.
ADMIN_THUMBNAIL_SPEC = "max-165x165"
NEWEST_POSTS = 20
# Publishing comes first: a pass stops starting new pictures after this long (an AVIF-heavy
# picture takes ~1.3 s), and the next pass carries on.
SECONDS_PER_PASS = 5


def expanded_specs(names):
    """Every rendition spec the named pictures expand to, as Wagtail's picture tag expands them."""
    specs = []
    for name in names:
        specs.extend(Filter.expand_spec(PICTURE_SPECS[name].split()))
    return specs


def picture_filters(name):
    """The named picture's renditions as Wagtail filters (each parses its spec the first time
    it is used, and keeps it), or None for a name not in PICTURE_SPECS."""
    if name not in PICTURE_SPECS:
        return None
    return tuple(Filter(spec=spec) for spec in expanded_specs([name]))


def hero_filter_specs():
    """The hero pictures' renditions and the share picture (og:image)."""
    return tuple(dict.fromkeys([SHARE_IMAGE_SPEC, *expanded_specs(HERO_PICTURES)]))


def body_filter_specs():
    return tuple(dict.fromkeys(expanded_specs(BODY_PICTURES)))


def prepare_newest_heroes(limit=NEWEST_POSTS, seconds=SECONDS_PER_PASS):
    """Make the missing hero renditions of the newest live posts, for about `seconds` at most;
    how many images needed any."""
    from .models import BlogPage

    # Live, not only what every reader may see: members open private posts, and the
    # pictures of a post due to expire are still asked for until it does.
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


def body_pictures(post):
    """The images of a post's body, the instances its article renders."""
    from .blocks import FigureBlock

    return [
        block.value["image"]
        for block in post.body
        if isinstance(block.block, FigureBlock) and block.value["image"] is not None
    ]


def prepare_every_picture(posts):
    """Every rendition the reader pages, the previews and the post editor ask for, of these
    posts' heroes and body pictures; how many images needed any."""
    wanted = defaultdict(set)
    for post in posts:
        if post.hero_image_id:
            wanted[post.hero_image_id].update([*hero_filter_specs(), ADMIN_THUMBNAIL_SPEC])
        for image in body_pictures(post):
            wanted[image.pk].update(body_filter_specs())
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
