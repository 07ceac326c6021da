"""Who may do what in the image and document libraries (the roles table in docs/editors.md).

Editors upload and choose pictures and files, and change only what they uploaded themselves;
Publishers manage the whole library. A probe found Editors replacing and deleting the heroes of
live posts, and Publishers unable to edit any image."""

import importlib
import io

import pytest
from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image as PILImage
from wagtail.documents.models import Document
from wagtail.images.models import Image
from wagtail.models import Collection, GroupCollectionPermission

from blog.editorial.roles import EDITORS, PUBLISHERS
from tests.factories import make_image, publish_post

from .scheduling import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return {
        EDITORS: make_user("eddie", group=EDITORS),
        PUBLISHERS: make_user("petra", group=PUBLISHERS),
        "someone else": make_user("sam", group=EDITORS),
    }


@pytest.fixture
def live_hero(blog, author, topic, people):
    """The hero of a live post, uploaded by another editor."""
    post = publish_post(blog, "Out there", authors=[author], topics=[topic])
    Image.objects.filter(pk=post.hero_image_id).update(uploaded_by_user=people["someone else"])
    return Image.objects.get(pk=post.hero_image_id)


@pytest.fixture
def served_document(people):
    return Document.objects.create(
        title="Style guide",
        file=ContentFile(b"%PDF-1.4 the style guide", name="style-guide.pdf"),
        uploaded_by_user=people["someone else"],
        collection=Collection.get_first_root_node(),
    )


def edit_image(client, image, title):
    return client.post(
        f"/admin/images/{image.pk}/",
        {"title": title, "collection": image.collection_id, "tags": "", "description": ""},
    )


def edit_document(client, document, title):
    return client.post(
        f"/admin/documents/edit/{document.pk}/",
        {"title": title, "collection": document.collection_id, "tags": ""},
    )


def png_upload(name):
    buffer = io.BytesIO()
    PILImage.new("RGB", (64, 36), (18, 63, 140)).save(buffer, format="PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def chooser_offers(client, chooser, pk, title):
    """The chooser lists the item, and choosing it hands the editor's form that item."""
    listing = client.get(reverse(f"{chooser}:choose"))
    assert listing.status_code == 200
    assert title in listing.json()["html"]
    chosen = client.get(reverse(f"{chooser}:chosen", args=[pk]))
    assert chosen.status_code == 200
    assert chosen.json()["step"] == "chosen"
    assert str(chosen.json()["result"]["id"]) == str(pk)


@pytest.mark.parametrize("group", [EDITORS, PUBLISHERS])
def test_both_roles_upload_and_choose_pictures_and_files(client, people, group):
    client.force_login(people[group])
    root = Collection.get_first_root_node().pk
    title = f"Rack diagram by {group}"

    response = client.post(
        "/admin/images/add/",
        {"title": title, "file": png_upload("rack.png"), "collection": root, "tags": ""},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    image = Image.objects.get(title=title)
    assert image.uploaded_by_user == people[group]
    chooser_offers(client, "wagtailimages_chooser", image.pk, title)

    response = client.post(
        "/admin/documents/add/",
        {
            "title": title,
            "file": SimpleUploadedFile("rack.pdf", b"%PDF-1.4 rack", "application/pdf"),
            "collection": root,
            "tags": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    document = Document.objects.get(title=title)
    assert document.uploaded_by_user == people[group]
    chooser_offers(client, "wagtaildocs_chooser", document.pk, title)


def test_an_editor_cannot_replace_the_hero_of_a_live_post(client, people, live_hero):
    client.force_login(people[EDITORS])
    edit_image(client, live_hero, "Replaced")
    live_hero.refresh_from_db()
    assert live_hero.title != "Replaced"


def test_an_editor_cannot_delete_the_hero_of_a_live_post(client, people, live_hero):
    client.force_login(people[EDITORS])
    client.post(f"/admin/images/{live_hero.pk}/delete/")
    assert Image.objects.filter(pk=live_hero.pk).exists()


def test_an_editor_cannot_replace_or_delete_a_served_document(client, people, served_document):
    client.force_login(people[EDITORS])
    edit_document(client, served_document, "Replaced")
    client.post(f"/admin/documents/delete/{served_document.pk}/")
    served_document.refresh_from_db()
    assert served_document.title == "Style guide"


def test_an_editor_edits_and_deletes_what_they_uploaded(client, people):
    picture = make_image("My sketch")
    Image.objects.filter(pk=picture.pk).update(uploaded_by_user=people[EDITORS])
    client.force_login(people[EDITORS])

    assert edit_image(client, picture, "My better sketch").status_code == 302
    picture.refresh_from_db()
    assert picture.title == "My better sketch"
    client.post(f"/admin/images/{picture.pk}/delete/")
    assert not Image.objects.filter(pk=picture.pk).exists()


def test_a_publisher_manages_every_picture_and_file(client, people, live_hero, served_document):
    client.force_login(people[PUBLISHERS])

    assert edit_image(client, live_hero, "Sharper hero").status_code == 302
    assert edit_document(client, served_document, "Style guide, 2027").status_code == 302
    live_hero.refresh_from_db()
    served_document.refresh_from_db()
    assert (live_hero.title, served_document.title) == ("Sharper hero", "Style guide, 2027")

    client.post(f"/admin/documents/delete/{served_document.pk}/")
    assert not Document.objects.filter(pk=served_document.pk).exists()


def test_the_library_rights_migration_takes_back_wagtails_default_editor_rights(db):
    """A database made before the roles were decided: Wagtail's Editors group could change and
    delete anything in the library."""
    root = Collection.get_first_root_node()
    for codename in ("change_image", "delete_image", "change_document", "delete_document"):
        GroupCollectionPermission.objects.get_or_create(
            group=apps.get_model("auth", "Group").objects.get(name=EDITORS),
            collection=root,
            permission=apps.get_model("auth", "Permission").objects.get(codename=codename),
        )
    migration = importlib.import_module("blog.migrations.0007_library_rights")
    migration.apply_library_rights(apps, None)

    editors = set(
        GroupCollectionPermission.objects.filter(group__name=EDITORS).values_list(
            "permission__codename", flat=True
        )
    )
    assert editors == {"add_image", "choose_image", "add_document", "choose_document"}
