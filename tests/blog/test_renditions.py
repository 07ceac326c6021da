"""A post's hero pictures are made before its first reader asks for them."""

import io

import pytest
from bs4 import BeautifulSoup
from django.core.management import call_command
from django.template import Context, Template, TemplateSyntaxError
from wagtail.images import get_image_model

from blog.models import BlogPage
from blog.renditions import PICTURE_SPECS, hero_filter_specs, prepare_newest_heroes
from tests.factories import make_image, publish_post

pytestmark = pytest.mark.django_db


def scheduler_pass():
    out = io.StringIO()
    call_command("run_scheduler", "--once", stdout=out)
    return out.getvalue()


def rendition_specs(post):
    image = get_image_model().objects.get(pk=post.hero_image_id)
    return {rendition.filter_spec for rendition in image.renditions.all()}


def test_the_scheduler_prepares_every_hero_picture_a_new_post_shows(client, blog, author):
    post = publish_post(blog, "Fresh", authors=[author])
    assert rendition_specs(post) == set()

    assert "Prepared the hero pictures of 1 new posts." in scheduler_pass()
    assert rendition_specs(post) == set(hero_filter_specs())
    assert "hero pictures" not in scheduler_pass()  # nothing left to make

    # The reader's pages ask for exactly those: nothing new is made while they render.
    index = BeautifulSoup(client.get(blog.url).content, "html.parser")
    article = BeautifulSoup(client.get(post.url).content, "html.parser")
    assert index.select(".card picture") and article.select("picture source[type='image/avif']")
    assert rendition_specs(post) == set(hero_filter_specs())


def test_the_specs_cover_avif_webp_and_jpeg():
    formats = {spec.split("|")[0] for spec in hero_filter_specs() if "|" in spec}
    assert formats == {"format-avif", "format-webp", "format-jpeg"}


def test_preparing_pictures_stops_in_time_for_the_next_publishing_pass(blog, author):
    for n in range(3):
        publish_post(blog, f"Fresh {n}", authors=[author])
    assert prepare_newest_heroes(seconds=0) == 1  # one started, none after the deadline
    assert prepare_newest_heroes() == 2


def test_an_operator_can_leave_the_pictures_to_the_first_reader(blog, author, settings):
    settings.SCHEDULER_PREPARES_PICTURES = False
    post = publish_post(blog, "Fresh", authors=[author])
    assert "hero pictures" not in scheduler_pass()
    assert rendition_specs(post) == set()


def test_after_make_runs_demo_command_no_page_preview_or_editor_makes_a_picture(admin_client):
    """`make run` loads the demo with --prepare-pictures: the first view of every page is as
    quick as the second, for readers and for an editor previewing or opening a post."""
    call_command("load_demo", prepare_pictures=True, stdout=io.StringIO())
    Rendition = get_image_model().get_rendition_model()
    prepared = Rendition.objects.count()
    post = BlogPage.objects.live().order_by("pk").first()

    # The demo's posts fit on the listing's first page (a second is a 404): a topic page shows
    # the cards again, in other company.
    topic = f"/blog/topic/{post.topic_links.first().topic.slug}/"
    for url in ("/blog/", topic, post.url, f"/admin/pages/{post.pk}/edit/"):
        assert admin_client.get(url).status_code == 200, url
    for mode in ("", "card", "featured", "social"):
        assert (
            admin_client.get(f"/admin/pages/{post.pk}/view_draft/?mode={mode}").status_code == 200
        )

    assert Rendition.objects.count() == prepared


@pytest.mark.parametrize("name", PICTURE_SPECS)
def test_a_named_picture_is_exactly_wagtails_picture_with_its_specs_written_out(name):
    image = make_image()
    attrs = (
        'sizes="(min-width: 46rem) 42rem, 100vw" alt=image.title loading="lazy" '
        'data-content-check="card-image"'
    )
    written_out = Template(
        f"{{% load wagtailimages_tags %}}{{% picture image {PICTURE_SPECS[name]} {attrs} %}}"
    )
    named = Template(f'{{% load picture_tags %}}{{% named_picture image "{name}" {attrs} %}}')
    context = Context({"image": image})
    assert named.render(context) == written_out.render(context)


def test_a_picture_name_the_specs_do_not_know_is_an_error_naming_the_known_ones():
    with pytest.raises(TemplateSyntaxError, match="hero, card, figure"):
        Template('{% load picture_tags %}{% named_picture image "banner" alt="" %}')


def test_a_picture_attribute_without_a_value_is_an_error_naming_it():
    with pytest.raises(TemplateSyntaxError, match="lazy is not an attribute"):
        Template('{% load picture_tags %}{% named_picture image "card" alt="" lazy %}')


def test_a_named_picture_of_no_image_is_nothing():
    named = Template('{% load picture_tags %}{% named_picture image "card" alt="" %}')
    assert named.render(Context({"image": None})) == ""
