"""A picture or document a live post uses changes for readers only through someone who may
publish that post: an Editor who uploaded it may neither replace its file nor delete it, while
what only drafts use, or nothing uses, stays hers to change."""

import pytest
from django.core.files.base import ContentFile
from wagtail.documents.models import Document
from wagtail.images.models import Image
from wagtail.models import Collection

from blog.editorial.roles import EDITORS, PUBLISHERS
from tests.factories import draft_post, make_image, publish_post

from .scheduling import make_user
from .test_library_rights import png_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def eddie(db):
    return make_user("eddie", group=EDITORS)


@pytest.fixture
def petra(db):
    return make_user("petra", group=PUBLISHERS)


def her_picture(user, title="Her picture"):
    image = make_image(title)
    Image.objects.filter(pk=image.pk).update(uploaded_by_user=user)
    return Image.objects.get(pk=image.pk)


def her_document(user, title="Runbook"):
    return Document.objects.create(
        title=title,
        file=ContentFile(b"%PDF-1.4 the runbook", name="runbook.pdf"),
        uploaded_by_user=user,
        collection=Collection.get_first_root_node(),
    )


def replace_file(client, image):
    return client.post(
        f"/admin/images/{image.pk}/",
        {
            "title": image.title,
            "collection": image.collection_id,
            "tags": "",
            "description": "",
            "file": png_upload("swapped.png"),
        },
    )


def replace_document_file(client, document):
    return client.post(
        f"/admin/documents/edit/{document.pk}/",
        {
            "title": document.title,
            "collection": document.collection_id,
            "tags": "",
            "file": ContentFile(b"%PDF-1.4 swapped", name="swapped.pdf"),
        },
    )


def file_name(item):
    return type(item).objects.get(pk=item.pk).file.name


def body_with_picture(image):
    return [{"type": "paragraph", "value": "<p>See below.</p>"}, image_block(image)]


def image_block(image):
    return {
        "type": "image",
        "value": {"image": image.pk, "alt_text": "A diagram", "caption": "", "decorative": False},
    }


def test_an_editor_cannot_replace_or_delete_her_own_picture_a_live_post_shows(
    client, eddie, blog, author, topic
):
    picture = her_picture(eddie)
    post = publish_post(blog, "Out there", image=picture, authors=[author], topics=[topic])
    before = file_name(picture)
    client.force_login(eddie)

    response = replace_file(client, picture)
    assert response.status_code == 200
    assert "Only a Publisher may replace the file of" in response.content.decode()
    assert post.title in response.content.decode()
    assert file_name(picture) == before

    response = client.post(f"/admin/images/{picture.pk}/delete/", follow=True)
    assert "Only a Publisher may delete" in response.content.decode()
    assert Image.objects.filter(pk=picture.pk).exists()

    response = client.post(f"/admin/images/multiple/{picture.pk}/delete/")
    assert Image.objects.filter(pk=picture.pk).exists()

    client.post(f"/admin/bulk/wagtailimages/image/delete/?id={picture.pk}")
    assert Image.objects.filter(pk=picture.pk).exists()


def test_an_editor_cannot_delete_a_picture_in_a_live_posts_body(client, eddie, blog, author, topic):
    picture = her_picture(eddie, "Body diagram")
    publish_post(
        blog, "Diagrams", body=body_with_picture(picture), authors=[author], topics=[topic]
    )
    client.force_login(eddie)
    client.post(f"/admin/images/{picture.pk}/delete/")
    assert Image.objects.filter(pk=picture.pk).exists()


def test_an_editor_cannot_replace_or_delete_a_document_a_live_post_links(
    client, eddie, blog, author, topic
):
    document = her_document(eddie)
    link = f'<p>Read <a linktype="document" id="{document.pk}">the runbook</a>.</p>'
    publish_post(
        blog,
        "On call",
        body=[{"type": "paragraph", "value": link}],
        authors=[author],
        topics=[topic],
    )
    before = file_name(document)
    client.force_login(eddie)

    response = replace_document_file(client, document)
    assert "Only a Publisher may replace the file of" in response.content.decode()
    assert file_name(document) == before

    client.post(f"/admin/documents/delete/{document.pk}/")
    assert Document.objects.filter(pk=document.pk).exists()


def test_a_publisher_replaces_and_deletes_what_live_posts_use(
    client, eddie, petra, blog, author, topic
):
    picture = her_picture(eddie)
    publish_post(blog, "Out there", image=picture, authors=[author], topics=[topic])
    before = file_name(picture)
    client.force_login(petra)
    assert replace_file(client, picture).status_code == 302
    assert file_name(picture) != before
    client.post(f"/admin/images/{picture.pk}/delete/")
    assert not Image.objects.filter(pk=picture.pk).exists()


def test_an_editor_still_changes_what_only_drafts_or_nothing_use(client, eddie, blog):
    unused = her_picture(eddie, "Unused")
    drafted = her_picture(eddie, "Drafted")
    draft_post(blog, "Not yet", image=drafted)
    client.force_login(eddie)
    for picture in (unused, drafted):
        before = file_name(picture)
        assert replace_file(client, picture).status_code == 302
        assert file_name(picture) != before
        client.post(f"/admin/images/{picture.pk}/delete/")
        assert not Image.objects.filter(pk=picture.pk).exists()
