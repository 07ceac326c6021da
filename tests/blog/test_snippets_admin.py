"""Editors manage topics and authors in the admin and choose them on a post."""

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import User

from blog.editorial.roles import EDITORS, PUBLISHERS
from blog.models import Topic
from tests.factories import make_author, make_topic

from .scheduling import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(client):
    client.force_login(User.objects.create_superuser("ed", "ed@example.com", "pw"))
    return client


def test_topics_and_authors_have_their_own_admin_listings(editor_client):
    make_topic("GPU reliability")
    make_author("Cedana Editorial", role="Editorial team")
    topics = editor_client.get("/admin/snippets/blog/topic/")
    authors = editor_client.get("/admin/snippets/blog/author/")
    assert topics.status_code == 200 and "GPU reliability" in topics.content.decode()
    assert authors.status_code == 200 and "Editorial team" in authors.content.decode()


def test_an_editor_adds_a_topic(editor_client):
    response = editor_client.post(
        "/admin/snippets/blog/topic/add/",
        {"name": "Benchmarks", "slug": "benchmarks", "description": "Measured numbers."},
    )
    assert response.status_code == 302
    assert editor_client.get("/admin/snippets/blog/topic/").content.decode().count("Benchmarks")


def test_the_post_editor_offers_topic_and_author_choosers(editor_client, blog):
    response = editor_client.get(f"/admin/pages/add/blog/blogpage/{blog.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/admin/snippets/choose/blog/topic/" in html
    assert "/admin/snippets/choose/blog/author/" in html


def test_topic_and_author_names_count_characters_instead_of_cutting_them(editor_client):
    for url in ("/admin/snippets/blog/topic/add/", "/admin/snippets/blog/author/add/"):
        soup = BeautifulSoup(editor_client.get(url).content, "html.parser")
        name = soup.select_one('[name="name"]')
        assert not name.has_attr("maxlength"), url
        assert "character-count" in name["data-controller"].split(), url
        assert soup.select_one('script[src*="js/character-count.js"]') is not None, url


def test_a_topic_name_over_its_limit_is_refused_saying_by_how_much(editor_client):
    response = editor_client.post(
        "/admin/snippets/blog/topic/add/", {"name": "G" * 83, "slug": "gpus", "description": ""}
    )
    assert response.status_code == 200
    assert "Name is 3 characters too long: it has 83 and the limit is 80." in (
        response.content.decode()
    )
    assert not Topic.objects.exists()


def test_editors_choose_topics_but_only_publishers_get_the_menus_to_manage_them(client, blog):
    menus = {}
    for group in (EDITORS, PUBLISHERS):
        client.force_login(make_user(group.lower(), group=group))
        menu = client.get("/admin/").content.decode()
        menus[group] = {
            url: url in menu
            for url in ("/admin/snippets/blog/topic/", "/admin/snippets/blog/author/")
        }
        assert client.get("/admin/snippets/choose/blog/topic/").status_code == 200

    assert not any(menus[EDITORS].values())
    assert all(menus[PUBLISHERS].values())


def test_a_publisher_finds_a_topic_and_an_author_by_name(client):
    make_topic("GPU reliability")
    make_topic("Benchmarks")
    make_author("Ada Lovelace")
    client.force_login(make_user("petra", group=PUBLISHERS))
    topics = client.get("/admin/snippets/blog/topic/", {"q": "bench"})
    authors = client.get("/admin/snippets/blog/author/", {"q": "ada"})
    assert topics.status_code == authors.status_code == 200
    assert "Benchmarks" in topics.content.decode()
    assert "GPU reliability" not in topics.content.decode()
    assert "Ada Lovelace" in authors.content.decode()


def chosen_names(client, model, ids, picked):
    response = client.get(
        f"/admin/snippets/choose/blog/{model}/chosen-multiple/",
        {"id": [str(pk) for pk in ids], "picked": [str(pk) for pk in picked]},
    )
    return [item["string"] for item in response.json()["result"]]


def test_topics_and_authors_ticked_in_a_chooser_come_back_in_the_order_they_were_ticked(
    editor_client,
):
    """The chooser lists them alphabetically and sends the ticked ids in that order; the
    first topic is the card's label, so the editor's order is the one that counts."""
    gpu, benchmarks, storage = (make_topic(n) for n in ("GPU reliability", "Benchmarks", "Storage"))
    listed = [benchmarks.pk, gpu.pk, storage.pk]
    ticked = [storage.pk, gpu.pk, benchmarks.pk]
    assert chosen_names(editor_client, "topic", listed, ticked) == [
        "Storage",
        "GPU reliability",
        "Benchmarks",
    ]
    ada, bob = make_author("Ada Lovelace"), make_author("Bob Kahn")
    assert chosen_names(editor_client, "author", [ada.pk, bob.pk], [bob.pk, ada.pk]) == [
        "Bob Kahn",
        "Ada Lovelace",
    ]


def test_ids_without_a_tick_order_keep_the_order_they_were_sent_in(editor_client):
    """A tick the script did not see (or a ticked box unticked again) orders nothing."""
    gpu, benchmarks, storage = (make_topic(n) for n in ("GPU reliability", "Benchmarks", "Storage"))
    sent = [storage.pk, benchmarks.pk, gpu.pk]
    # An id no topic has: a fixed number such as 999 names a real topic once earlier tests in
    # the same database have made that many (and ordered Benchmarks before Storage in CI).
    unticked = Topic.objects.order_by("-pk").first().pk + 1
    assert chosen_names(editor_client, "topic", sent, [gpu.pk, unticked]) == [
        "GPU reliability",
        "Storage",
        "Benchmarks",
    ]


def test_an_editor_adds_a_topic_from_the_chooser_but_cannot_rename_one(client, blog):
    """Editors may add a topic while writing (blog/editorial/roles.py); Publishers manage them."""
    client.force_login(make_user("ed", group=EDITORS))
    response = client.post(
        "/admin/snippets/choose/blog/topic/create/", {"name": "Edge inference", "slug": "edge"}
    )
    assert response.status_code == 200
    assert response.json()["step"] == "chosen"
    topic = Topic.objects.get(slug="edge")
    assert client.get(f"/admin/snippets/blog/topic/edit/{topic.pk}/").status_code == 302
