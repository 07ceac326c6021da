"""What a writer meets in the post editor: the add form, its defaults, its help and its errors."""

import pytest
from bs4 import BeautifulSoup
from django.conf import settings
from wagtail.test.utils.form_data import (
    inline_formset,
    nested_form_data,
    querydict_from_html,
    rich_text,
    streamfield,
)

from blog.models import BlogPage
from tests.factories import make_image, make_topic, publish_post

pytestmark = pytest.mark.django_db


def add_url(blog):
    return f"/admin/pages/add/blog/blogpage/{blog.pk}/"


def post_form(author=None, topic=None, image=None, publish=False, **fields):
    """The form as the browser sends it; empty values are what an editor left blank."""
    data = {
        "title": "Why our GPUs ran hot",
        "slug": "why-our-gpus-ran-hot",
        "summary": "A look at the cooling fault behind last week's slow training runs.",
        "hero_image": image.pk if image else "",
        "hero_alt": "A rack of GPUs with a thermal camera overlay" if image else "",
        "author_links": inline_formset([{"author": author.pk}] if author else []),
        "topic_links": inline_formset([{"topic": topic.pk}] if topic else []),
        "body": streamfield([("paragraph", rich_text("<p>It started with a fan.</p>"))]),
        "comments": inline_formset([]),
        "seo_title": "",
        "search_description": "",
        "go_live_at": "",
        "expire_at": "",
    }
    data.update(fields)
    if publish:
        data["action-publish"] = "action-publish"
    return nested_form_data(data)


def form_errors(response):
    """The error messages the editor sees on the re-rendered form."""
    page = BeautifulSoup(response.content, "html.parser")
    return " ".join(node.get_text(" ", strip=True) for node in page.select(".error-message"))


def form_fields(response):
    """The values the browser would send back, as the page renders them. A browser drops the
    line break Django writes after <textarea> (HTML's rule); Wagtail's reader keeps it."""
    fields = querydict_from_html(response.content.decode(), form_id="page-edit-form").dict()
    return {name: value.removeprefix("\n") for name, value in fields.items()}


def test_an_editor_publishes_a_new_post_through_the_add_form(
    editor_client, editor, blog, topic, hero_image
):
    author = editor.author_profile
    response = editor_client.post(add_url(blog), post_form(author, topic, hero_image, publish=True))
    assert response.status_code == 302
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.live
    assert post.authors == [author]
    assert post.topics == [topic]
    assert editor_client.get(post.url).status_code == 200


def test_a_new_post_starts_with_the_signed_in_editor_as_author(editor_client, editor, blog):
    response = editor_client.get(add_url(blog))
    assert response.status_code == 200
    rendered = form_fields(response)
    assert rendered["author_links-0-author"] == str(editor.author_profile.pk)

    # The editor leaves the byline as it came and saves a draft.
    byline = {key: value for key, value in rendered.items() if key.startswith("author_links-")}
    data = {k: v for k, v in post_form().items() if not k.startswith("author_links-")}
    response = editor_client.post(add_url(blog), {**data, **byline})
    assert response.status_code == 302
    draft = BlogPage.objects.get(slug="why-our-gpus-ran-hot").get_latest_revision_as_object()
    assert draft.authors == [editor.author_profile]


def test_an_editor_without_an_author_profile_starts_with_no_author_and_no_topic_rows(
    admin_client, blog
):
    """No blank rows to trip over: "Add authors" / "Add topics" add what the editor picks."""
    response = admin_client.get(add_url(blog))
    assert response.status_code == 200
    fields = form_fields(response)
    assert fields["author_links-TOTAL_FORMS"] == fields["topic_links-TOTAL_FORMS"] == "0"
    assert "author_links-0-author" not in fields
    assert "topic_links-0-topic" not in fields


def test_an_incomplete_post_can_be_saved_as_a_draft(editor_client, blog):
    data = post_form(summary="", hero_alt="")
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 302
    draft = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert not draft.live
    assert draft.summary == ""


def test_a_draft_may_wait_for_its_hero_alt_text_but_publishing_refuses_it(
    editor_client, admin_client, editor, blog, topic, hero_image
):
    """Held back like the required fields, so the preview (and its content checks) still show."""
    draft = post_form(editor.author_profile, topic, hero_image, hero_alt=" ")
    assert editor_client.post(add_url(blog), draft).status_code == 302
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.get_latest_revision_as_object().hero_alt == ""

    edit_url = f"/admin/pages/{post.pk}/edit/"
    published = post_form(editor.author_profile, topic, hero_image, hero_alt=" ", publish=True)
    response = admin_client.post(edit_url, published)
    assert response.status_code == 200
    assert "Describe the hero image for readers" in response.content.decode()
    post.refresh_from_db()
    assert not post.live


def test_an_invalid_publish_keeps_everything_the_editor_typed(editor_client, editor, blog, topic):
    typed_title = "Half-finished thoughts on fan curves"
    typed_seo = "Fan curves, explained"
    data = post_form(
        editor.author_profile,
        topic,
        image=None,
        publish=True,
        title=typed_title,
        summary="",
        seo_title=typed_seo,
    )
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 200
    assert "The post could not be saved. Fix the errors shown" in response.content.decode()
    fields = form_fields(response)
    assert fields["title"] == typed_title
    assert fields["seo_title"] == typed_seo
    assert fields["author_links-0-author"] == str(editor.author_profile.pk)
    assert "It started with a fan." in response.content.decode()
    assert not BlogPage.objects.exists()


def test_every_field_an_editor_sees_explains_itself(admin_client, blog):
    soup = BeautifulSoup(admin_client.get(add_url(blog)).content, "html.parser")
    for name in ("title", "summary", "hero_alt", "slug", "seo_title", "search_description"):
        field = soup.select_one(f'[name="{name}"]')
        wrapper = field.find_parent(attrs={"data-field-wrapper": True})
        help_node = wrapper.select_one(".help, [id$='-helptext']") if wrapper else None
        assert help_node is not None and help_node.get_text(strip=True), name
    text = soup.get_text(" ")
    assert "Title in search results" in text
    assert "Description in search results" in text


def test_autosave_comments_and_editing_notices_are_on():
    assert settings.WAGTAILADMIN_COMMENTS_ENABLED is True
    assert settings.WAGTAIL_AUTOSAVE_INTERVAL > 0
    assert settings.WAGTAIL_EDITING_SESSION_PING_INTERVAL > 0


def added_through_the_chooser(rendered, relation, field, chosen):
    """The form after "Add <relation>": the panel's JavaScript appends one row per chosen item
    after whatever rows the page rendered, and leaves those rows as they were."""
    rows = dict(rendered)
    start = int(rows[f"{relation}-TOTAL_FORMS"])
    for offset, item in enumerate(chosen):
        number = start + offset
        rows[f"{relation}-{number}-{field}"] = str(item.pk)
        rows[f"{relation}-{number}-id"] = ""
        rows[f"{relation}-{number}-ORDER"] = str(number + 1)
        rows[f"{relation}-{number}-DELETE"] = ""
    rows[f"{relation}-TOTAL_FORMS"] = str(start + len(chosen))
    return rows


def test_an_editor_publishes_with_topics_and_authors_added_through_their_buttons(
    admin_client, blog, author, topic, hero_image
):
    """The rows the form opens with are left alone; the chosen ones are what gets published."""
    second_topic = make_topic("Checkpointing")
    rendered = form_fields(admin_client.get(add_url(blog)))
    data = added_through_the_chooser(rendered, "topic_links", "topic", [topic, second_topic])
    data = added_through_the_chooser(data, "author_links", "author", [author])
    typed = {
        k: v for k, v in post_form(image=hero_image, publish=True).items() if "_links-" not in k
    }
    response = admin_client.post(add_url(blog), {**data, **typed})
    assert response.status_code == 302, form_errors(response)
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.live
    assert post.topics == [topic, second_topic]
    assert post.authors == [author]


def test_publishing_a_post_without_a_topic_says_what_is_missing(
    editor_client, editor, blog, hero_image
):
    rendered = form_fields(editor_client.get(add_url(blog)))
    typed = {
        k: v for k, v in post_form(image=hero_image, publish=True).items() if "_links-" not in k
    }
    response = editor_client.post(add_url(blog), {**rendered, **typed})
    assert response.status_code == 200
    assert "Choose at least one topic" in form_errors(response)
    assert not BlogPage.objects.exists()


def test_publishing_a_post_without_an_author_says_what_is_missing(
    admin_client, blog, topic, hero_image
):
    rendered = form_fields(admin_client.get(add_url(blog)))
    data = added_through_the_chooser(rendered, "topic_links", "topic", [topic])
    typed = {
        k: v for k, v in post_form(image=hero_image, publish=True).items() if "_links-" not in k
    }
    response = admin_client.post(add_url(blog), {**data, **typed})
    assert response.status_code == 200
    assert "Choose at least one author" in form_errors(response)
    assert not BlogPage.objects.exists()


def test_a_draft_may_wait_for_its_topics(editor_client, editor, blog):
    rendered = form_fields(editor_client.get(add_url(blog)))
    typed = {k: v for k, v in post_form().items() if not k.startswith("topic_links-")}
    typed = {k: v for k, v in typed.items() if not k.startswith("author_links-")}
    response = editor_client.post(add_url(blog), {**rendered, **typed})
    assert response.status_code == 302
    draft = BlogPage.objects.get(slug="why-our-gpus-ran-hot").get_latest_revision_as_object()
    assert draft.topics == []
    assert draft.authors == [editor.author_profile]


# The fields of the post editor with a length limit, and the limit the counter shows.
LIMITED_POST_FIELDS = {
    "title": 255,
    "slug": 255,
    "summary": 300,
    "hero_alt": 1000,
    "seo_title": 255,
}
# 378 characters of real words, as pasted from a draft document.
PASTED_SUMMARY = ("Cooling faults slowed every training run last week, " * 8)[:377] + "."


def counted_field(soup, name):
    field = soup.select_one(f'[name="{name}"]')
    assert field is not None, name
    return field


def test_every_length_limited_field_counts_characters_instead_of_cutting_them(
    admin_client, blog, author, topic
):
    """The browser's maxlength cut pastes without a word; the count shows the limit instead."""
    post = publish_post(blog, "Fan curves", authors=[author], topics=[topic])
    response = admin_client.get(f"/admin/pages/{post.pk}/edit/")
    soup = BeautifulSoup(response.content, "html.parser")
    for name, limit in LIMITED_POST_FIELDS.items():
        field = counted_field(soup, name)
        assert not field.has_attr("maxlength"), name
        assert "character-count" in field["data-controller"].split(), name
        assert field["data-character-count-limit-value"] == str(limit), name
    # Wagtail's own behaviour on these fields stays: the title fills in the slug.
    assert "w-sync" in counted_field(soup, "title")["data-controller"].split()
    assert "w-slug" in counted_field(soup, "slug")["data-controller"].split()
    assert soup.select_one('script[src*="js/character-count.js"]') is not None


def test_a_pasted_378_character_summary_is_refused_saying_by_how_much_and_nothing_is_cut(
    admin_client, blog, author, topic, hero_image
):
    post = publish_post(blog, "Why our GPUs ran hot", authors=[author], topics=[topic])
    revisions = post.revisions.count()
    assert len(PASTED_SUMMARY) == 378
    data = post_form(author, topic, hero_image, summary=PASTED_SUMMARY)
    response = admin_client.post(f"/admin/pages/{post.pk}/edit/", data)
    assert response.status_code == 200
    assert "Summary is 78 characters too long: it has 378 and the limit is 300." in form_errors(
        response
    )
    # Nothing was saved, and the editor still has every character to shorten.
    assert post.revisions.count() == revisions
    assert form_fields(response)["summary"].strip() == PASTED_SUMMARY


def test_an_over_long_field_is_named_as_the_editor_sees_it(admin_client, blog, author, topic):
    post = publish_post(blog, "Why our GPUs ran hot", authors=[author], topics=[topic])
    data = post_form(author, topic, post.hero_image, seo_title="x" * 256)
    response = admin_client.post(f"/admin/pages/{post.pk}/edit/", data)
    assert "Title in search results is 1 character too long" in form_errors(response)


DESCRIPTION = "Two GPU boards on a bench, one with a scorched fan."


def described_image():
    """A picture uploaded with its description filled in, as the library asks."""
    image = make_image("IMG_2041")
    image.description = DESCRIPTION
    image.save()
    return image


def test_hero_alt_text_left_empty_is_taken_from_the_images_description(
    editor_client, editor, blog, topic
):
    data = post_form(editor.author_profile, topic, described_image(), hero_alt="", publish=True)
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 302, form_errors(response)
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.live and post.hero_alt == DESCRIPTION


def test_hero_alt_text_typed_by_the_editor_wins_over_the_description(
    editor_client, editor, blog, topic
):
    data = post_form(editor.author_profile, topic, described_image(), publish=True)
    assert editor_client.post(add_url(blog), data).status_code == 302
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.hero_alt == "A rack of GPUs with a thermal camera overlay"


def body_with_picture(image, **fields):
    return streamfield([("image", {"image": image.pk, "alt_text": "", "caption": "", **fields})])


def test_a_body_picture_left_without_alt_text_takes_the_images_description(
    editor_client, editor, blog, topic, hero_image
):
    data = post_form(
        editor.author_profile,
        topic,
        hero_image,
        body=body_with_picture(described_image()),
        publish=True,
    )
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 302, form_errors(response)
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    assert post.body[0].value["alt_text"] == DESCRIPTION
    picture = BeautifulSoup(editor_client.get(post.url).content, "html.parser").select_one(
        "figure.figure img"
    )
    assert picture["alt"] == DESCRIPTION


def test_publishing_a_body_picture_with_no_alt_text_asks_for_one_or_for_decorative(
    editor_client, editor, blog, topic, hero_image
):
    undescribed = make_image("IMG_2042")
    data = post_form(
        editor.author_profile, topic, hero_image, body=body_with_picture(undescribed), publish=True
    )
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 200
    # Block errors reach the page as data for the StreamField's script to show.
    assert "Describe the picture for readers who cannot see it, or tick" in (
        response.content.decode()
    )
    assert not BlogPage.objects.filter(live=True).exists()

    decorative = body_with_picture(undescribed, decorative="on")
    data = post_form(editor.author_profile, topic, hero_image, body=decorative, publish=True)
    response = editor_client.post(add_url(blog), data)
    assert response.status_code == 302, form_errors(response)
    post = BlogPage.objects.get(slug="why-our-gpus-ran-hot")
    picture = BeautifulSoup(editor_client.get(post.url).content, "html.parser").select_one(
        "figure.figure img"
    )
    assert picture["alt"] == "" and not picture.has_attr("data-content-check")


def test_an_address_already_taken_is_refused_in_the_editors_words(
    admin_client, blog, author, topic, hero_image
):
    publish_post(blog, "Why our GPUs ran hot", authors=[author], topics=[topic])
    response = admin_client.post(add_url(blog), post_form(author, topic, hero_image))
    errors = form_errors(response)
    assert "Another post already has the address “why-our-gpus-ran-hot”." in errors
    assert "slug" not in errors.lower()


def test_an_address_with_spaces_is_refused_in_the_editors_words(
    admin_client, blog, author, topic, hero_image
):
    response = admin_client.post(
        add_url(blog), post_form(author, topic, hero_image, slug="why our gpus ran hot?")
    )
    errors = form_errors(response)
    assert "An address may only hold letters, numbers, hyphens and underscores" in errors
    assert "slug" not in errors.lower()


def test_the_title_box_grows_with_a_long_title_and_keeps_it_on_one_line(editor_client, blog):
    """A one-line box hid the end of a 46-character title at 1280 px: the box is a textarea
    the editor's stylesheet lets grow (tests/browser/test_admin_widths.py sees it), and Enter
    pressed in it or a pasted line break gives the headline no second line."""
    response = editor_client.get(add_url(blog))
    title_box = BeautifulSoup(response.content, "html.parser").select_one("#id_title")
    assert title_box.name == "textarea"
    assert title_box["placeholder"] == "Post title*"
    assert "w-sync" in title_box["data-controller"]  # still fills in the address

    response = editor_client.post(
        add_url(blog), post_form(title="Why our GPUs ran hot\r\n  and how we cooled them ")
    )
    assert response.status_code == 302
    draft = BlogPage.objects.get(slug="why-our-gpus-ran-hot").get_latest_revision_as_object()
    assert draft.title == "Why our GPUs ran hot and how we cooled them"
