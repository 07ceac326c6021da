"""Writing posts in bulk (the demo's generator, the importer) indexes them without leaving
Wagtail changed behind it: the process goes on loading a post's pictures as Wagtail does."""

import os

import pytest
from django.core.management import call_command
from wagtail.images.blocks import ImageChooserBlock

from tests.factories import make_image

pytestmark = pytest.mark.django_db


def test_after_generating_posts_a_bodys_pictures_still_load_in_one_query(
    demo_site, django_assert_num_queries
):
    with open(os.devnull, "w") as devnull:
        call_command("load_demo", posts=3, no_admin=True, stdout=devnull)
    pictures = [make_image(f"picture {n}").pk for n in range(3)]

    # A body's pictures come in one query, as Wagtail's chooser blocks fetch them; replacing
    # that lookup for the generator and deleting it after left one query per picture.
    with django_assert_num_queries(1):
        loaded = ImageChooserBlock().bulk_to_python(pictures)
    assert [picture.pk for picture in loaded] == pictures
